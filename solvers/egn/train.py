"""Train the EGN vertex scorer without labels, as Erdos Goes Neural trains (Karalias and Loukas, NeurIPS 2020):
each step draws a fresh graph, scores its vertices and descends the probabilistic penalty loss (``loss.py``).

Graphs: FrontierCO's RB_800_1200 recipe (generator ``mis-rb-frontierco``) and Erdos-Renyi G(n, 0.15) with n in
[700, 800] (the ER-[700-800] training graphs of DIMES and DIFUSCO), ``--er-share`` of the steps; training seeds
from 1,000,000 up (RB) and 2,000,000 up (ER), disjoint from every collection's seeds. Every ``--eval-every``
steps the dev splits of ``mis-rb-800-1200`` and ``mis-er-700`` are decoded greedily (``decode.decode``) and the
weights with the lowest mean gap |f - f*| / max(f, f*) are kept (the dev split chooses); the state is saved then,
so ``--resume`` continues an interrupted run (``--resume --minutes 0`` exports it as it stands). The export
writes the kept weights and their card to ``checkpoints/mis.pt`` (+ ``.json``), the log (``mis.csv``) and the
training curve (``mis.png``).

    frontierco train egn --minutes 16            # state in runs/egn/, export to solvers/egn/checkpoints/
    frontierco train egn --minutes 16 --resume
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from frontierco.kit.checkpoints import load_training_state, save_training_state
from frontierco.problems import MISInstance
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.workspace import Context

from .checkpoint import SHIPPED, export
from .decode import decode
from .features import directed_edges, vertex_features
from .loss import BETA, independent_set_loss, mean_entropy, uniform_scale
from .model import EGN, ModelConfig

RB_SEED, ER_SEED, RANDOM_SEED, SMALL_SEED = 1_000_000, 2_000_000, 3_000_000, 4_000_000
SMALL_RB: dict[str, object] = {"cliques": (20, 25), "clique_size": (5, 12), "vertices": (200, 300)}  # RB-small (DiffUCO)
DEV = ("mis-rb-800-1200", "mis-er-700")
PAPER = "Karalias and Loukas, Erdos Goes Neural: an Unsupervised Learning Framework for Combinatorial Optimization on Graphs, NeurIPS 2020"
LOG_FIELDS = ["step", "seconds", "loss", "dev_gap_percent", *(f"dev_gap_{name}" for name in DEV)]


def training_graph(step: int, er_share: float, small_steps: int = 0) -> MISInstance:
    """The step's graph: during the first ``small_steps`` steps an RB graph of RB-small's sizes (``SMALL_RB``);
    after them ER when the step's draw falls under ``er_share``, else RB (seeded by the step)."""
    if step < small_steps:
        built = generate("mis-rb-frontierco", f"train-rb-small-{step}", SMALL_SEED + step, SMALL_RB)
    elif np.random.default_rng(step).random() < er_share:
        n = 700 + int(np.random.default_rng(ER_SEED + step).integers(0, 101))
        built = generate("mis-er", f"train-er-{step}", ER_SEED + step, {"n": n, "p": 0.15})
    else:
        built = generate("mis-rb-frontierco", f"train-rb-{step}", RB_SEED + step, {})
    instance = built.instance
    assert isinstance(instance, MISInstance)
    return instance


def network_scores(model: EGN, instance: MISInstance, rng: np.random.Generator) -> np.ndarray:
    """The network's logits for every vertex (no gradient), the random feature column drawn from ``rng``."""
    with torch.no_grad():
        features = torch.from_numpy(vertex_features(instance, rng))
        edges = torch.from_numpy(directed_edges(instance))
        return model(features, edges).numpy().astype(np.float64)


def dev_set(context: Context) -> dict[str, list[tuple[MISInstance, float]]]:
    registry = Registry.of(context)
    out: dict[str, list[tuple[MISInstance, float]]] = {}
    for name in DEV:
        entries = registry.collection(name).split("dev")
        out[name] = [(registry.load(e), e.require_reference().value) for e in entries]  # type: ignore[misc]
    return out


def gap(found: float, reference: float) -> float:
    return abs(found - reference) / max(found, reference)


def dev_gaps(model: EGN, dev: dict[str, list[tuple[MISInstance, float]]]) -> dict[str, float]:
    """Mean greedy-decode gap (percent) per dev collection."""
    model.eval()
    out = {
        name: 100 * float(np.mean([gap(len(decode(g, network_scores(model, g, np.random.default_rng(0)))), ref) for g, ref in graphs]))
        for name, graphs in dev.items()
    }
    model.train()
    return out


class Trainer:
    def __init__(self, args: argparse.Namespace, dev: dict[str, list[tuple[MISInstance, float]]]):
        torch.manual_seed(args.seed)
        self.args = args
        self.model = EGN(self.config)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.dev = dev
        self.step = 0
        self.seconds = 0.0
        self.history: list[dict[str, Any]] = []
        self.best: dict[str, Any] = {"gap": float("inf"), "weights": None, "step": 0}

    @property
    def config(self) -> ModelConfig:
        return ModelConfig(hidden=self.args.hidden, layers=self.args.layers, offset=self.args.beta if self.args.offset else 0.0)

    @property
    def temperature(self) -> float:
        """The entropy weight of the step (``loss.mean_entropy``): ``--entropy`` lowered linearly to 0 at step ``--anneal-steps``."""
        if self.args.anneal_steps <= 0:
            return 0.0
        return self.args.entropy * max(0.0, 1.0 - self.step / self.args.anneal_steps)

    @property
    def state_path(self) -> Path:
        return Path(self.args.out) / "mis-state.pt"

    def save(self) -> None:
        progress = {"step": self.step, "seconds": self.seconds, "history": self.history, "best": self.best}
        save_training_state(self.state_path, self.model, self.optimizer, progress)

    def resume(self) -> None:
        state = load_training_state(self.state_path, self.model, self.optimizer)
        self.step, self.seconds, self.history, self.best = state["step"], state["seconds"], state["history"], state["best"]

    def train_step(self) -> float:
        graph = training_graph(self.step, self.args.er_share, self.args.small_steps)
        features = torch.from_numpy(vertex_features(graph, np.random.default_rng(RANDOM_SEED + self.step)))
        edges = torch.from_numpy(graph.edges.T.astype(np.int64))
        logits = self.model(features, torch.from_numpy(directed_edges(graph)))
        loss = independent_set_loss(torch.sigmoid(logits), edges, self.args.beta) - self.temperature * mean_entropy(logits)
        if self.args.normalise:
            loss = loss * uniform_scale(graph.n, graph.m, self.args.beta)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.step += 1
        return float(loss.detach())

    def evaluate(self, losses: list[float]) -> None:
        gaps = dev_gaps(self.model, self.dev)
        mean = float(np.mean(list(gaps.values())))
        row = {"step": self.step, "seconds": round(self.seconds, 1), "loss": float(np.mean(losses)) if losses else float("nan")}
        row |= {"dev_gap_percent": round(mean, 3), **{f"dev_gap_{k}": round(v, 3) for k, v in gaps.items()}}
        self.history.append(row)
        if mean < self.best["gap"]:
            self.best = {"gap": mean, "weights": {k: v.clone() for k, v in self.model.state_dict().items()}, "step": self.step}
        print(row, flush=True)
        self.save()

    def run(self) -> None:
        budget = 60.0 * self.args.minutes
        if not self.history:
            self.evaluate([])
        losses: list[float] = []
        while self.seconds < budget:
            began = time.process_time()
            losses.append(self.train_step())
            self.seconds += time.process_time() - began  # CPU seconds: the machine is shared
            if self.step % self.args.eval_every == 0:
                self.evaluate(losses)
                losses = []
        if losses:
            self.evaluate(losses)

    def export(self, directory: Path) -> dict[str, Any]:
        model = EGN(self.config)
        model.load_state_dict(self.best["weights"])
        last = self.history[-1]
        card = {
            "name": "mis",
            "paper": PAPER,
            "problem": "mis",
            "train": {
                "graphs": "mis-rb-frontierco (FrontierCO RB_800_1200, forced) and mis-er G(700-800, 0.15)",
                "er_share": self.args.er_share,
                "small_steps": self.args.small_steps,
                "small_rb": {k: list(v) for k, v in SMALL_RB.items() if isinstance(v, tuple)},
                "small_seeds_from": SMALL_SEED,
                "rb_seeds_from": RB_SEED,
                "er_seeds_from": ER_SEED,
                "beta": self.args.beta,
                "loss_per": "uniform heatmap's loss (2 beta d per vertex)" if self.args.normalise else "vertex",
                "entropy": self.args.entropy,
                "anneal_steps": self.args.anneal_steps,
                "lr": self.args.lr,
                "seed": self.args.seed,
                "threads": 1,
            },
            "trained": {"steps": self.step, "cpu_seconds": round(self.seconds, 1), "kept_step": self.best["step"]},
            "dev": {"collections": list(DEV), "split": "dev", "decode": "greedy", "gap_percent": round(self.best["gap"], 3), "last": last},
        }
        card = export(model, directory / "mis.pt", card)
        write_log(self.history, directory / "mis.csv")
        plot_curve(self.history, directory / "mis.png")
        return card


def write_log(history: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=LOG_FIELDS)
        writer.writeheader()
        writer.writerows(history)


def plot_curve(history: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    steps = [row["step"] for row in history]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(6, 6), sharex=True)
    top.plot(steps[1:], [row["loss"] for row in history[1:]])
    top.set_ylabel("loss (per vertex)")
    for name in DEV:
        bottom.plot(steps, [row[f"dev_gap_{name}"] for row in history], label=name)
    bottom.set_ylabel("dev greedy-decode gap %")
    bottom.set_xlabel("training step (one graph each)")
    bottom.legend()
    figure.suptitle("egn mis")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="frontierco train egn", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=16.0, help="CPU minutes of training steps")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--beta", type=float, default=BETA)
    switch = argparse.BooleanOptionalAction
    parser.add_argument("--offset", action=switch, default=True, help="centre the logits on the uniform heatmap (model.py)")
    parser.add_argument("--normalise", action=switch, default=True, help="loss in units of the uniform heatmap's (loss.uniform_scale)")
    parser.add_argument("--entropy", type=float, default=0.0, help="annealed training's starting temperature (loss.mean_entropy)")
    parser.add_argument("--anneal-steps", type=int, default=0, help="the step at which the temperature reaches 0")
    parser.add_argument("--er-share", type=float, default=0.25)
    parser.add_argument("--small-steps", type=int, default=0, help="first steps on RB-small graphs (200-300 vertices): a curriculum")
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="training state (default: the workspace's runs/egn)")
    parser.add_argument("--export", type=Path, default=SHIPPED)
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    return parser.parse_args(argv)


def main(argv: list[str], context: Context | None = None) -> None:
    args = parse(argv)
    context = context if context is not None else Context.discover()
    torch.set_num_threads(1)
    args.out = args.out or context.required().training / "egn"
    trainer = Trainer(args, dev_set(context))
    if args.resume and trainer.state_path.is_file():
        trainer.resume()
    trainer.run()
    card = trainer.export(args.export)
    print(f"exported {args.export / card['file']} (dev gap {card['dev']['gap_percent']}%)")
