"""Training RRNCO in two modes, each a run of its own (the second starts from the first's weights with --init):

- ``--imitate``: teacher forcing on solutions of the suite's classical solvers (``teacher.py``; generated
  first when missing, cached, resumable), each solution in several random route orders or tour rotations;
- reinforcement learning (the default): POMO (Kwon et al., NeurIPS 2020) REINFORCE with the shared baseline
  over the multi-start rollouts of each instance.

Both: Adam with its own learning rate for the learned scalars, gradient-norm clipping; instances sampled from
real cities (the catalog's training and in-distribution cities, points drawn uniformly or clustered as the
suite's real-city generators draw them; the out-of-distribution cities are never seen) or uniform points
(the symmetric ``cvrp`` model); each training instance in a random one of the 8 symmetries of the unit
square; validation after every epoch on a fixed dev set against a classical solver's costs; checkpoints
with their config, input layout and sha256; a CSV log and a PNG curve.

    frontierco train rrnco --problem acvrp --size 100 --imitate --teacher-count 1600 --time-budget 900
    frontierco train rrnco --problem acvrp --size 100 --init runs/rrnco/acvrp/state.pt --time-budget 3600
    frontierco train rrnco --problem acvrp --size 100 --resume
    frontierco train rrnco --problem acvrp --dev-reference --size 100   # the dev set's classical costs
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from frontierco.filestore import FileStore
from frontierco.kit.checkpoints import read_card
from frontierco.problems.routing.cities.city import City
from frontierco.workspace import Context

from .checkpoint import SHIPPED, export
from .data import TRAINING_ORDER, WITHOUT_COORDINATES, RoutingBatch, Sampler, suite_instances, symmetries
from .model import RRNCO, ModelConfig, default_starts, imitation_loss, rollout
from .teacher import TeacherSet, TeacherSpec, generate, load, sequences, solve_checked

log = logging.getLogger("frontierco.rrnco")
# checkpoint name -> (kind, share of instances drawn from cities; the rest are uniform points): city matrices
# for the asymmetric models only, uniform Euclidean points for the symmetric one
PRESETS = {"atsp": ("tsp", 1.0), "acvrp": ("cvrp", 1.0), "cvrp": ("cvrp", 0.0), "acvrptw": ("cvrptw", 1.0)}
CLUSTERED_SHARE = 0.5  # of the city instances, as in the suite's real-city test splits
# the city shares the dev sets were drawn with (their reference costs are in dev/*.json): atsp's dev set is half
# uniform points, as its training data was before it moved to cities only
DEV_CITY_SHARE = {"atsp": 0.5, "acvrp": 1.0, "cvrp": 0.0, "acvrptw": 1.0}
TRAINING_ROLES = ("training", "in-distribution")
DEV_SEED = 2026
DEV_DIR = Path(__file__).resolve().parent / "dev"
LOG_FIELDS = ("step", "epoch", "size", "mode", "instances", "seconds", "loss", "train_cost", "dev_gap")


@dataclass
class TrainConfig:
    name: str
    size: int
    epochs: int = 10
    steps: int = 100
    batch: int = 64
    pomo: int = 100
    lr: float = 1e-4
    scalar_lr: float = 1e-2
    clip_norm: float = 1.0
    seed: int = 0
    dev_size: int = 100
    dev_count: int = 32
    time_budget: float | None = None
    model: dict[str, Any] = field(default_factory=dict)
    imitate: bool = False  # teacher forcing on cached teacher solutions instead of reinforcement learning
    orders: int = 8  # random orders of each teacher solution per imitation step
    teacher_seconds: float = 0.5
    amp: bool = False  # bfloat16 autocast of the network's matmuls (costs, masks and log-probabilities stay float32)
    compile: bool = False  # torch.compile of the decoder step (the ~110 steps of a rollout share one graph)

    @property
    def kind(self) -> str:
        return PRESETS[self.name][0]

    @property
    def city_share(self) -> float:
        return PRESETS[self.name][1]

    @property
    def teacher(self) -> TeacherSpec:
        return TeacherSpec(self.name, self.kind, self.size, self.city_share, CLUSTERED_SHARE, self.teacher_seconds)


def training_cities(files: FileStore | None = None) -> list[City]:
    """Every catalog city whose role is training or in-distribution (points as stored, like the suite's real-city
    instances: the network reads both through ``data.model_coords``); an unshipped one built from its extract in
    ``files`` (a context's file store)."""
    from frontierco.problems.routing.cities.catalog import load_city

    return [load_city(name, files) for name in training_city_names()]


def training_city_names() -> list[str]:
    """The catalog cities training may draw from (role training or in-distribution; held-out and
    out-of-distribution cities never)."""
    from frontierco.problems.routing.cities.catalog import catalog

    return [name for name, entry in catalog().items() if str(entry.get("role", "")).startswith(TRAINING_ROLES)]


def dev_batches(name: str, size: int, count: int, cities: list[City]) -> list[RoutingBatch]:
    """The fixed dev set: ``count`` instances in batches of 8, the same on every machine (numpy, seeded; city
    points drawn uniformly, as when the dev costs were computed)."""
    sampler = Sampler(PRESETS[name][0], size, cities, DEV_CITY_SHARE[name], DEV_SEED)
    return [sampler.sample(min(8, count - start)) for start in range(0, count, 8)]


def fingerprint(batches: list[RoutingBatch]) -> str:
    """sha256 of the batches' cost matrices: which instances a dev set's reference costs belong to."""
    digest = hashlib.sha256()
    for batch in batches:
        digest.update(batch.distance.numpy().astype(np.float32).tobytes())
    return digest.hexdigest()


def dev_path(name: str, size: int) -> Path:
    return DEV_DIR / f"{name}-{size}.json"


def dev_reference(name: str, size: int, count: int, time_limit: float) -> Path:
    """Solve the dev set with the suite's strongest classical solver for the kind; costs re-checked by the checker."""
    from frontierco.problems import get_problem
    from frontierco.solver import get_solver

    kind = PRESETS[name][0]
    solver_name = "lkh" if kind == "tsp" else "pyvrp"
    solver = get_solver(solver_name).load()()
    solver.setup()
    costs = []
    batches = dev_batches(name, size, count, training_cities())
    for batch in batches:
        for instance in suite_instances(batch, f"dev-{name}-{size}"):
            costs.append(solve_checked(solver, get_problem(kind), instance, time_limit)[1])
    DEV_DIR.mkdir(exist_ok=True)
    target = dev_path(name, size)
    card = {
        "name": name,
        "size": size,
        "count": count,
        "seed": DEV_SEED,
        "solver": f"{solver_name} {time_limit:g} s, seed 0",
        "city_share": DEV_CITY_SHARE[name],
        "fingerprint": fingerprint(batches),
        "costs": costs,
    }
    target.write_text(json.dumps(card, indent=1) + "\n")
    return target


def evaluate_dev(model: RRNCO, batches: list[RoutingBatch], costs: list[float], device: torch.device) -> float:
    """Mean gap (%) of greedy multi-start decoding against the dev set's classical costs."""
    model.eval()
    found = []
    with torch.no_grad():
        for batch in batches:
            batch = batch.to(device)
            starts = default_starts(batch.kind, batch.nodes, 100).to(device)
            found.append(rollout(model, batch, starts).cost.min(1).values.cpu())
    model.train()
    ours = torch.cat(found).double().numpy()
    return float(100.0 * np.mean(ours / np.asarray(costs[: len(ours)]) - 1.0))


def optimizer_for(model: RRNCO, lr: float, scalar_lr: float) -> torch.optim.Adam:
    """Adam with the learned scalars in a group of their own (a shared rate of ~1e-4 moves a scalar by ~1e-4 a step)."""
    scalars = {id(p) for p in model.scalars()}
    rest = [p for p in model.parameters() if id(p) not in scalars]
    return torch.optim.Adam([{"params": rest, "lr": lr}, {"params": model.scalars(), "lr": scalar_lr}])


class Trainer:
    def __init__(self, config: TrainConfig, out: Path, device: torch.device, cities: list[City], teacher: TeacherSet | None = None):
        """``teacher``: the solutions to imitate (required when ``config.imitate``)."""
        self.config, self.out, self.device = config, out / config.name, device
        if config.imitate and teacher is None:
            raise ValueError("imitation needs teacher solutions")
        self.teacher = teacher
        torch.manual_seed(config.seed)
        self.model = RRNCO(ModelConfig(config.kind, **config.model)).to(device)
        self.optimizer = optimizer_for(self.model, config.lr, config.scalar_lr)
        if config.compile:
            self.model.logits = torch.compile(self.model.logits, dynamic=False)  # type: ignore[method-assign]
        self.sampler = Sampler(
            config.kind, config.size, cities, config.city_share, config.seed, clustered_share=CLUSTERED_SHARE, augment=True
        )
        self.step, self.epoch, self.instances, self.seconds = 0, 0, 0, 0.0
        self.history: list[dict[str, Any]] = []
        self.lineage: list[dict[str, Any]] = []  # the runs whose weights this one started from, oldest first
        reference = dev_path(config.name, config.dev_size)
        card = json.loads(reference.read_text()) if reference.is_file() else None
        self.dev_costs = card["costs"] if card else None
        self.dev = dev_batches(config.name, config.dev_size, config.dev_count, cities) if card else []
        if card and fingerprint(self.dev) != card["fingerprint"]:
            raise RuntimeError(f"the dev set drawn now is not the one whose costs {reference} holds (fingerprint differs)")

    @property
    def state_path(self) -> Path:
        return self.out / "state.pt"

    def save(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        state = {
            "config": asdict(self.config),
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "counters": (self.step, self.epoch, self.instances, self.seconds),
            "history": self.history,
            "lineage": self.lineage,
            "teacher": self.teacher_card(),
            "sampler": self.sampler.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }
        torch.save(state, self.out / "state.tmp")
        (self.out / "state.tmp").replace(self.state_path)

    def resume(self, path: Path, weights_only: bool = False) -> None:
        """Continue a run (``weights_only``: start a new run, e.g. a larger size, from its weights)."""
        state = torch.load(path, map_location=self.device, weights_only=False)
        self.model.load_state_dict(state["model"])
        if weights_only:  # a training state, or a shipped checkpoint with its card and log beside it
            self.lineage = state.get("lineage", [])
            history = state.get("history")
            if history is None:
                card = read_card(path)
                self.lineage = card.get("lineage", []) + [
                    {"checkpoint": card["file"], "sha256": card["sha256"], "trained": card["trained"]}
                ]
                log_file = path.with_suffix(".csv")
                history = list(csv.DictReader(log_file.open())) if log_file.is_file() else []
            else:
                self.lineage = [*self.lineage, {"state": str(path), "train": state["config"], "teacher": state.get("teacher")}]
            self.history = [dict(row, phase="init") for row in history]
            return
        self.optimizer.load_state_dict(state["optimizer"])
        self.step, self.epoch, self.instances, self.seconds = state["counters"]
        self.history = state["history"]
        self.lineage = state.get("lineage", [])
        self.sampler.rng.bit_generator.state = state["sampler"]
        torch.set_rng_state(state["torch_rng"].cpu())  # map_location moved it with the weights

    def autocast(self) -> torch.autocast:
        return torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.config.amp)

    def teacher_card(self) -> dict[str, Any] | None:
        if self.teacher is None:
            return None
        return {"solutions": len(self.teacher.routes), "solver": self.config.teacher.solver}

    def imitation_step(self) -> tuple[float, float]:
        """One teacher-forcing step on a random batch of teacher solutions, each instance in a random symmetry."""
        assert self.teacher is not None
        rng = self.sampler.rng
        rows = rng.choice(len(self.teacher.routes), size=min(self.config.batch, len(self.teacher.routes)), replace=False)
        batch = self.teacher.batch.select(torch.from_numpy(rows))
        batch = batch.with_coords(symmetries(batch.coords)[rng.integers(8, size=len(rows)), torch.arange(len(rows))])
        first, actions = sequences(batch.kind, [self.teacher.routes[r] for r in rows], self.config.orders, rng)
        with self.autocast():
            loss = imitation_loss(self.model, batch.to(self.device), first.to(self.device), actions.to(self.device))
        self._descend(loss)
        return loss.item(), float("nan")

    def _descend(self, loss: torch.Tensor) -> None:
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.clip_norm)
        self.optimizer.step()

    def train_step(self) -> tuple[float, float]:
        if self.config.imitate:
            return self.imitation_step()
        batch = self.sampler.sample(self.config.batch).to(self.device)
        starts = default_starts(batch.kind, batch.nodes, self.config.pomo).to(self.device)
        with self.autocast():
            result = rollout(self.model, batch, starts, sample=True)
        cost = result.cost
        finite = torch.isfinite(cost)
        cost = torch.where(finite, cost, cost[finite].max() if bool(finite.any()) else torch.zeros_like(cost))
        baseline = cost.mean(1, keepdim=True)
        advantage = (baseline - cost) / baseline.clamp_min(1e-9)  # scale-free across cities
        loss = -(advantage.detach() * result.log_prob).mean()
        self._descend(loss)
        return loss.item(), cost.min(1).values.mean().item()

    def run(self, progress: bool = True) -> None:
        from rich.progress import Progress

        config = self.config
        started = time.monotonic() - self.seconds
        losses: list[float] = []
        costs: list[float] = []
        with Progress(disable=not progress, transient=True) as bar:
            task = bar.add_task(f"rrnco {config.name}-{config.size}", total=config.epochs * config.steps, completed=self.step)
            while self.epoch < config.epochs:
                loss, cost = self.train_step()
                losses.append(loss)
                costs.append(cost)
                self.step += 1
                self.instances += config.batch
                self.seconds = time.monotonic() - started
                bar.update(task, advance=1, description=f"rrnco {config.name}-{config.size} loss {loss:+.4f}")
                out_of_time = config.time_budget is not None and self.seconds >= config.time_budget
                epoch_end = self.step % config.steps == 0
                if epoch_end or out_of_time or self.step % 10 == 0:
                    gap = (
                        evaluate_dev(self.model, self.dev, self.dev_costs or [], self.device)
                        if (epoch_end or out_of_time) and self.dev
                        else None
                    )
                    self._log(losses, costs, gap)
                    losses, costs = [], []
                if epoch_end:
                    self.epoch += 1
                    self.save()
                if out_of_time:
                    self.save()
                    break

    def _log(self, losses: list[float], costs: list[float], gap: float | None) -> None:
        row = {
            "step": self.step,
            "epoch": self.epoch,
            "size": self.config.size,
            "mode": "imitate" if self.config.imitate else "rl",
            "instances": self.instances,
            "seconds": round(self.seconds, 2),
            "loss": float(np.mean(losses)),
            "train_cost": "" if self.config.imitate else float(np.mean(costs)),
            "dev_gap": "" if gap is None else round(gap, 3),
        }
        self.history.append(row)
        log.info("step %d %s loss %.4f cost %s dev gap %s", self.step, row["mode"], row["loss"], row["train_cost"], row["dev_gap"])

    def export(self, directory: Path) -> dict[str, Any]:
        """The shipped checkpoint, its card, the log (CSV) and the training curve (PNG)."""
        gaps = [row["dev_gap"] for row in self.history if row["dev_gap"] != ""]
        reference = json.loads(dev_path(self.config.name, self.config.dev_size).read_text()) if self.dev_costs else None
        card = {
            "name": self.config.name,
            "paper": "Son et al., RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization, ICLR 2026",
            "input": {
                "coordinates": TRAINING_ORDER,
                "layout": "coordinates in the instance's stored order (real cities: lat, lon), min-max scaled with one "
                "factor; distances (durations) divided by the instance's largest one (its time horizon)",
                "augmentation": "each training instance in a random one of the 8 symmetries of the unit square",
                "trained_with": "stored coordinates always (every training instance has them)",
                "without_coordinates": WITHOUT_COORDINATES,
            },
            "train": asdict(self.config),
            "trained": {
                "steps": self.step,
                "instances": self.instances,
                "seconds": round(self.seconds, 1),
                "device": torch.cuda.get_device_name(0) if self.device.type == "cuda" else "cpu",
                "sizes": sorted({int(row["size"]) for row in self.history}),
                "phases": phases(self.history),
                "teacher": self.teacher_card(),
            },
            "lineage": self.lineage,
            "dev": None
            if reference is None
            else {
                "size": self.config.dev_size,
                "count": self.config.dev_count,
                "gap_percent": gaps[-1] if gaps else None,
                "reference": reference["solver"],
            },
        }
        card = export(self.model.cpu(), directory / f"{self.config.name}.pt", card)
        self.model.to(self.device)
        write_log(self.history, directory / f"{self.config.name}.csv")
        plot_curve(self.history, directory / f"{self.config.name}.png", self.config.name)
        return card


def phases(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs this checkpoint went through (earlier ones carried over by --init), in order, with their volume."""
    out: list[dict[str, Any]] = []
    for row in history:
        key = (row.get("phase", "final"), row.get("mode") or "rl", int(row["size"]))  # logs before imitation have no mode
        if not out or out[-1]["key"] != key or int(row["instances"]) < out[-1]["instances"]:
            out.append({"key": key, "instances": 0, "seconds": 0.0})
        out[-1]["instances"], out[-1]["seconds"] = int(row["instances"]), float(row["seconds"])
    return [{"mode": o["key"][1], "size": o["key"][2], "instances": o["instances"], "seconds": round(o["seconds"], 1)} for o in out]


def write_log(history: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*LOG_FIELDS, "phase"], extrasaction="ignore")
        writer.writeheader()
        for row in history:
            writer.writerow({"phase": row.get("phase", "final"), **row})


def plot_curve(history: list[dict[str, Any]], path: Path, title: str) -> None:
    """Training cost (mean of 10 steps, one line per training size) and dev gap against instances seen."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    offset, previous = 0, 0
    curves: dict[tuple[str, int], tuple[list[float], list[float]]] = {}
    gap_x, gaps = [], []
    for row in history:
        if int(row["instances"]) < previous:  # a new phase (e.g. a larger size) counts from 0 again
            offset += previous
        previous = int(row["instances"])
        seen = offset + previous
        imitate = row.get("mode") == "imitate"
        xs, ys = curves.setdefault(("imitate" if imitate else "rl", int(row["size"])), ([], []))
        xs.append(seen)
        ys.append(float(row["loss"] if imitate else row["train_cost"]))
        if row["dev_gap"] != "":
            gap_x.append(seen)
            gaps.append(float(row["dev_gap"]))
    figure, (imitation, reinforce, right) = plt.subplots(1, 3, figsize=(13, 3.2))
    for (mode, size), (xs, ys) in sorted(curves.items()):
        (imitation if mode == "imitate" else reinforce).plot(xs, ys, lw=0.8, label=f"N={size}")
    for axis in (imitation, reinforce):
        if axis.lines:
            axis.legend()
    imitation.set(xlabel="training instances", ylabel="NLL per decision", title=f"{title}: imitation loss")
    reinforce.set(xlabel="training instances", ylabel="best-of-POMO cost", title="RL training cost (sampled)")
    right.plot(gap_x, gaps, marker="o", ms=3)
    right.set(xlabel="training instances", ylabel="dev gap (%)", title="greedy dev gap (N=100) to the classical solver")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="frontierco train rrnco", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--problem", required=True, choices=sorted(PRESETS), help="which checkpoint to train")
    parser.add_argument("--size", type=int, default=50, help="customers (nodes for atsp)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--steps", type=int, default=100, help="steps per epoch")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--scalar-lr", type=float, default=1e-2, help="learning rate of the learned scalars (prior, bias scales)")
    parser.add_argument("--imitate", action="store_true", help="teacher forcing on classical solutions (generated first if missing)")
    parser.add_argument("--teacher-count", type=int, default=1600, help="teacher solutions to have before imitating")
    parser.add_argument("--teacher-time", type=float, default=0.5, help="seconds of the classical solver per teacher instance")
    parser.add_argument("--teacher-only", action="store_true", help="only generate the teacher solutions (resumable)")
    parser.add_argument("--teacher-root", type=Path, default=None, help="teacher data folder (default: the workspace's runs/rrnco/teacher)")
    parser.add_argument("--teacher-shard", default="0/1", help="i/k: this process solves teacher chunks i, i+k, ... (with --teacher-only)")
    parser.add_argument("--orders", type=int, default=8, help="random orders of each teacher solution per step")
    parser.add_argument("--amp", action="store_true", help="bfloat16 autocast of the network (GPU training)")
    parser.add_argument("--compile", action="store_true", help="torch.compile the decoder step (GPU training)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--layers", type=int, default=3, help="encoder layers (the paper: 6)")
    parser.add_argument("--neighbours", type=int, default=16, help="ANE neighbours (the paper: 25)")
    parser.add_argument("--bias-dim", type=int, default=16, help="NAB embedding width (the paper: 128)")
    parser.add_argument("--norm", choices=("layer", "instance"), default="layer", help="the paper: instance")
    parser.add_argument("--aft-bias", choices=("exp", "exp_softmax"), default="exp", help="the paper: exp_softmax")
    parser.add_argument("--decoder-ffn", action="store_true", help="glimpse with residual and feed-forward (the paper's)")
    parser.add_argument("--time-budget", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--dev-size", type=int, default=100)
    parser.add_argument("--dev-count", type=int, default=32)
    parser.add_argument("--out", type=Path, default=None, help="training state folder (default: the workspace's runs/rrnco)")
    parser.add_argument("--export", type=Path, default=SHIPPED, help="where the final checkpoint goes")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument("--init", type=Path, default=None, help="start from the weights of a state.pt or a shipped checkpoint")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dev-reference", action="store_true", help="only solve the dev set with the classical solver")
    parser.add_argument("--reference-time", type=float, default=5.0, help="seconds per dev instance for --dev-reference")
    return parser.parse_args(argv)


def model_options(args: argparse.Namespace) -> dict[str, Any]:
    """The architecture options of the command line (``ModelConfig`` fields)."""
    return {
        "dim": args.dim, "layers": args.layers, "neighbours": args.neighbours, "bias_dim": args.bias_dim, "norm": args.norm,
        "aft_bias": args.aft_bias, "decoder_ffn": args.decoder_ffn,
    }  # fmt: skip


def main(argv: list[str], context: Context | None = None) -> None:
    """The entry point (``frontierco train rrnco`` hands its context over; run alone, the workspace is found here)."""
    args = parse(argv)
    context = context if context is not None else Context.discover()
    torch.set_num_threads(args.threads)
    torch.backends.cuda.matmul.allow_tf32 = True  # GPU matmuls in TF32: ample for policy gradients
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.dev_reference:
        print(f"wrote {dev_reference(args.problem, args.dev_size, args.dev_count, args.reference_time)}")
        return
    config = TrainConfig(
        args.problem, args.size, args.epochs, args.steps, args.batch, lr=args.lr, scalar_lr=args.scalar_lr, seed=args.seed,
        dev_size=args.dev_size, dev_count=args.dev_count, time_budget=args.time_budget, model=model_options(args),
        imitate=args.imitate or args.teacher_only, orders=args.orders, teacher_seconds=args.teacher_time, amp=args.amp,
        compile=args.compile,
    )  # fmt: skip
    args.out = args.out or context.required().training / "rrnco"
    args.teacher_root = args.teacher_root or context.required().training / "rrnco" / "teacher"
    cities = training_cities(context.files)
    teacher = None
    if config.imitate:
        index, shards = (int(part) for part in args.teacher_shard.split("/"))
        count = generate(config.teacher, args.teacher_count, args.teacher_root, cities, shard=(index, shards))
        print(f"{count} teacher solutions in {config.teacher.folder(args.teacher_root)}")
        if args.teacher_only:
            return
        teacher = load(config.teacher, args.teacher_root, cities)
    trainer = Trainer(config, args.out, torch.device(args.device), cities, teacher)
    if args.resume and trainer.state_path.is_file():
        trainer.resume(trainer.state_path)
    elif args.init is not None:
        trainer.resume(args.init, weights_only=True)
    trainer.run()
    card = trainer.export(args.export)
    print(f"exported {args.export / card['file']} (dev gap {card['dev'] and card['dev']['gap_percent']}%)")
