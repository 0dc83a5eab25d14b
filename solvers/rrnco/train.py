"""Training RRNCO: POMO (Kwon et al., NeurIPS 2020) REINFORCE with the shared baseline over the multi-start
rollouts of each instance, Adam, gradient-norm clipping; instances sampled from real cities (the catalog's
training and in-distribution cities; the out-of-distribution ones are never seen) and/or uniform points;
validation after every epoch on a fixed dev set against a classical solver's costs; checkpoints with their
config and sha256; a CSV log and a PNG curve.

    frontierco train rrnco --problem acvrp --size 50 --epochs 20
    frontierco train rrnco --problem acvrp --size 100 --init runs/rrnco/acvrp/state.pt --time-budget 3600
    frontierco train rrnco --problem acvrp --size 100 --resume
    frontierco train rrnco --problem acvrp --dev-reference --size 100   # the dev set's classical costs
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from frontierco.registry import PROJECT_ROOT

from .checkpoint import SHIPPED, export
from .data import RoutingBatch, Sampler
from .model import RRNCO, ModelConfig, default_starts, rollout

log = logging.getLogger("frontierco.rrnco")
# checkpoint name -> (kind, share of instances drawn from cities; the rest are uniform points)
PRESETS = {"atsp": ("tsp", 0.5), "acvrp": ("cvrp", 1.0), "cvrp": ("cvrp", 0.0), "acvrptw": ("cvrptw", 1.0)}
TRAINING_ROLES = ("training", "in-distribution")
DEV_SEED = 2026
DEV_DIR = Path(__file__).resolve().parent / "dev"
LOG_FIELDS = ("step", "epoch", "size", "instances", "seconds", "loss", "train_cost", "dev_gap")


@dataclass
class TrainConfig:
    name: str
    size: int
    epochs: int = 10
    steps: int = 100
    batch: int = 64
    pomo: int = 100
    lr: float = 1e-4
    clip_norm: float = 1.0
    seed: int = 0
    dev_size: int = 100
    dev_count: int = 32
    time_budget: float | None = None
    model: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return PRESETS[self.name][0]

    @property
    def city_share(self) -> float:
        return PRESETS[self.name][1]


def training_cities() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(points as stored, (lat, lon) like the suite's real-city instances; distance; duration) of every catalog
    city whose role is training or in-distribution. (The shipped checkpoints saw (lon, lat); the x8
    augmentation at inference includes that swap.)"""
    from frontierco.cities.catalog import catalog, load_city

    chosen = [name for name, entry in catalog().items() if str(entry.get("role", "")).startswith(TRAINING_ROLES)]
    cities = []
    for name in chosen:
        city = load_city(name)
        cities.append((city.points.astype(np.float64), city.distance.astype(np.float64), city.duration.astype(np.float64)))
    return cities


def dev_batches(name: str, size: int, count: int, cities: list[tuple[np.ndarray, ...]]) -> list[RoutingBatch]:
    """The fixed dev set: ``count`` instances in batches of 8, the same on every machine (numpy, seeded)."""
    kind, share = PRESETS[name]
    sampler = Sampler(kind, size, cities, share, DEV_SEED)  # type: ignore[arg-type]
    return [sampler.sample(min(8, count - start)) for start in range(0, count, 8)]


def dev_path(name: str, size: int) -> Path:
    return DEV_DIR / f"{name}-{size}.json"


def suite_instances(batch: RoutingBatch, prefix: str) -> list[Any]:
    """The batch's instances as suite instances (explicit matrices), for the classical solvers and the checker."""
    from frontierco.problems import CVRPInstance, CVRPTWInstance, TSPInstance
    from frontierco.problems.distances import EdgeWeights

    out = []
    for b in range(batch.size):
        coords = batch.coords[b].double().numpy()
        weights = EdgeWeights("EXPLICIT", coords=coords, matrix=batch.distance[b].double().numpy())
        name = f"{prefix}-{b}"
        if batch.kind == "tsp":
            out.append(TSPInstance(name, weights))
            continue
        assert batch.demand is not None and batch.capacity is not None
        demands, capacity = batch.demand[b].numpy().astype(np.int64), int(batch.capacity[b])
        if batch.kind == "cvrp":
            out.append(CVRPInstance(name, weights, demands, capacity))
            continue
        assert batch.duration is not None and batch.windows is not None and batch.service is not None
        durations = EdgeWeights("EXPLICIT", coords=coords, matrix=batch.duration[b].double().numpy())
        out.append(
            CVRPTWInstance(
                name, weights, demands, capacity, None, durations, batch.windows[b].double().numpy(), batch.service[b].double().numpy()
            )
        )
    return out


def dev_reference(name: str, size: int, count: int, time_limit: float) -> Path:
    """Solve the dev set with the suite's strongest classical solver for the kind; costs re-checked by the checker."""
    from frontierco.problems import get_problem
    from frontierco.solver import Budget, Proven, get_solver

    kind = PRESETS[name][0]
    solver_name = "lkh" if kind == "tsp" else "pyvrp"
    solver = get_solver(solver_name).load()()
    solver.setup()
    costs = []
    for batch in dev_batches(name, size, count, training_cities()):
        for instance in suite_instances(batch, f"dev-{name}-{size}"):
            best = None
            for solution in solver.solve(instance, Budget(time_limit=time_limit, seed=0, threads=1)):
                best = solution.solution if isinstance(solution, Proven) else solution
            evaluation = get_problem(kind).evaluate(instance, best)
            if not evaluation.feasible:
                raise RuntimeError(f"{solver_name} returned an infeasible dev solution: {evaluation.reason}")
            costs.append(float(evaluation.objective))
    DEV_DIR.mkdir(exist_ok=True)
    target = dev_path(name, size)
    card = {
        "name": name,
        "size": size,
        "count": count,
        "seed": DEV_SEED,
        "solver": f"{solver_name} {time_limit:g} s, seed 0",
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


class Trainer:
    def __init__(self, config: TrainConfig, out: Path, device: torch.device, cities: list[tuple[np.ndarray, ...]]):
        self.config, self.out, self.device = config, out / config.name, device
        torch.manual_seed(config.seed)
        self.model = RRNCO(ModelConfig(config.kind, **config.model)).to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.sampler = Sampler(config.kind, config.size, cities, config.city_share, config.seed)  # type: ignore[arg-type]
        self.step, self.epoch, self.instances, self.seconds = 0, 0, 0, 0.0
        self.history: list[dict[str, Any]] = []
        reference = dev_path(config.name, config.dev_size)
        self.dev_costs = json.loads(reference.read_text())["costs"] if reference.is_file() else None
        self.dev = dev_batches(config.name, config.dev_size, config.dev_count, cities) if self.dev_costs else []

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
            "sampler": self.sampler.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }
        torch.save(state, self.out / "state.tmp")
        (self.out / "state.tmp").replace(self.state_path)

    def resume(self, path: Path, weights_only: bool = False) -> None:
        """Continue a run (``weights_only``: start a new run, e.g. a larger size, from its weights)."""
        state = torch.load(path, map_location=self.device, weights_only=False)
        self.model.load_state_dict(state["model"])
        if weights_only:  # a training state or a shipped checkpoint (which has no history)
            self.history = [dict(row, phase="init") for row in state.get("history", [])]
            return
        self.optimizer.load_state_dict(state["optimizer"])
        self.step, self.epoch, self.instances, self.seconds = state["counters"]
        self.history = state["history"]
        self.sampler.rng.bit_generator.state = state["sampler"]
        torch.set_rng_state(state["torch_rng"].cpu())  # map_location moved it with the weights

    def train_step(self) -> tuple[float, float]:
        batch = self.sampler.sample(self.config.batch).to(self.device)
        starts = default_starts(batch.kind, batch.nodes, self.config.pomo).to(self.device)
        result = rollout(self.model, batch, starts, sample=True)
        cost = result.cost
        finite = torch.isfinite(cost)
        cost = torch.where(finite, cost, cost[finite].max() if bool(finite.any()) else torch.zeros_like(cost))
        baseline = cost.mean(1, keepdim=True)
        advantage = (baseline - cost) / baseline.clamp_min(1e-9)  # scale-free across cities
        loss = -(advantage.detach() * result.log_prob).mean()
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.clip_norm)
        self.optimizer.step()
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
            "instances": self.instances,
            "seconds": round(self.seconds, 2),
            "loss": float(np.mean(losses)),
            "train_cost": float(np.mean(costs)),
            "dev_gap": "" if gap is None else round(gap, 3),
        }
        self.history.append(row)
        log.info("step %d loss %.4f cost %.3f dev gap %s", self.step, row["loss"], row["train_cost"], row["dev_gap"])

    def export(self, directory: Path) -> dict[str, Any]:
        """The shipped checkpoint, its card, the log (CSV) and the training curve (PNG)."""
        gaps = [row["dev_gap"] for row in self.history if row["dev_gap"] != ""]
        reference = json.loads(dev_path(self.config.name, self.config.dev_size).read_text()) if self.dev_costs else None
        card = {
            "name": self.config.name,
            "paper": "Son et al., RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization, ICLR 2026",
            "train": asdict(self.config),
            "trained": {
                "steps": self.step,
                "instances": self.instances,
                "seconds": round(self.seconds, 1),
                "device": torch.cuda.get_device_name(0) if self.device.type == "cuda" else "cpu",
                "sizes": sorted({int(row["size"]) for row in self.history}),
            },
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
    costs: dict[int, tuple[list[float], list[float]]] = {}
    gap_x, gaps = [], []
    for row in history:
        if int(row["instances"]) < previous:  # a new phase (e.g. a larger size) counts from 0 again
            offset += previous
        previous = int(row["instances"])
        seen = offset + previous
        xs, ys = costs.setdefault(int(row["size"]), ([], []))
        xs.append(seen)
        ys.append(float(row["train_cost"]))
        if row["dev_gap"] != "":
            gap_x.append(seen)
            gaps.append(float(row["dev_gap"]))
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    for size, (xs, ys) in sorted(costs.items()):
        left.plot(xs, ys, lw=0.8, label=f"N={size}")
    left.legend()
    left.set(xlabel="training instances", ylabel="best-of-POMO cost", title=f"{title}: training cost (sampled)")
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
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--time-budget", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--dev-size", type=int, default=100)
    parser.add_argument("--dev-count", type=int, default=32)
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "runs" / "rrnco", help="training state folder")
    parser.add_argument("--export", type=Path, default=SHIPPED, help="where the final checkpoint goes")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument("--init", type=Path, default=None, help="start from the weights of a state.pt or a shipped checkpoint")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dev-reference", action="store_true", help="only solve the dev set with the classical solver")
    parser.add_argument("--reference-time", type=float, default=5.0, help="seconds per dev instance for --dev-reference")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse(argv)
    torch.set_num_threads(args.threads)
    torch.backends.cuda.matmul.allow_tf32 = True  # GPU matmuls in TF32: ample for policy gradients
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.dev_reference:
        print(f"wrote {dev_reference(args.problem, args.dev_size, args.dev_count, args.reference_time)}")
        return
    config = TrainConfig(
        args.problem, args.size, args.epochs, args.steps, args.batch, lr=args.lr, seed=args.seed, dev_size=args.dev_size,
        dev_count=args.dev_count, time_budget=args.time_budget, model={"dim": args.dim, "layers": args.layers},
    )  # fmt: skip
    trainer = Trainer(config, args.out, torch.device(args.device), training_cities())
    if args.resume and trainer.state_path.is_file():
        trainer.resume(trainer.state_path)
    elif args.init is not None:
        trainer.resume(args.init, weights_only=True)
    trainer.run()
    card = trainer.export(args.export)
    print(f"exported {args.export / card['file']} (dev gap {card['dev'] and card['dev']['gap_percent']}%)")
