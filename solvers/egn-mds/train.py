"""Train the egn-mds vertex scorer without labels, as Erdos Goes Neural trains (Karalias and Loukas, NeurIPS 2020):
each step draws a fresh graph, scores its vertices and descends the probabilistic penalty loss (``loss.py``,
DiffUCO's MDS energy).

Graphs: FrontierCO's MDS training recipe, Barabasi-Albert BA(n, 4) with n drawn in [800, 1200] (generator
``mds-ba``, as the collection ``mds-ba-easy``), seeds from 4,000,000 up, disjoint from every collection's seeds.
Every ``--eval-every`` steps the dev split of ``mds-ba-800-1200`` is decoded (``decode.decode``: greedy cover by
the network's logits, random column from seed 0, redundant vertices dropped) and compared with the same decoder
fed the degree (ties broken from seed 0): the dev measure is the mean of (network's set size / degree's set size
- 1) in percent, below 0 when the network's heatmap decodes to smaller sets than the degree's. The weights with
the lowest dev measure are kept (the dev split chooses); the state is saved then, so ``--resume`` continues an
interrupted run (``--resume --minutes 0`` exports it as it stands). The export writes the kept weights and their
card to ``checkpoints/mds.pt`` (+ ``.json``), the log (``mds.csv``) and the training curve (``mds.png``).

    frontierco train egn-mds --minutes 40            # state in runs/egn-mds/, export to solvers/egn-mds/checkpoints/
    frontierco train egn-mds --minutes 40 --resume
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
from frontierco.kit.vertex_gnn import ModelConfig, VertexGNN, directed_edges, vertex_features, vertex_logits
from frontierco.problems import MDSInstance
from frontierco.problems.generate import generate
from frontierco.registry import Registry
from frontierco.workspace import Context

from .checkpoint import SHIPPED, export
from .decode import decode, degree_scores
from .loss import BETA, dominating_set_loss

TRAIN_SEED, RANDOM_SEED = 4_000_000, 5_000_000
DEV = "mds-ba-800-1200"
PAPER = "Karalias and Loukas, Erdos Goes Neural: an Unsupervised Learning Framework for Combinatorial Optimization on Graphs, NeurIPS 2020"
ENERGY = (
    "Sanokowski, Hochreiter and Lehner, A Diffusion Model Framework for Unsupervised Neural Combinatorial Optimization, "
    "ICML 2024 (MDS energy)"
)
LOG_FIELDS = ["step", "seconds", "loss", "dev_excess_percent", "dev_size", "dev_degree_size"]


def training_graph(step: int) -> MDSInstance:
    """The step's graph: BA(n, 4), n in [800, 1200] drawn from the seed."""
    instance = generate("mds-ba", f"train-{step}", TRAIN_SEED + step, {"n": [800, 1200], "m": 4}).instance
    assert isinstance(instance, MDSInstance)
    return instance


def dev_set(context: Context) -> list[MDSInstance]:
    registry = Registry.of(context)
    graphs = [registry.load(entry) for entry in registry.collection(DEV).split("dev")]
    return [g for g in graphs if isinstance(g, MDSInstance)]


def dev_sizes(model: VertexGNN, graphs: list[MDSInstance]) -> list[int]:
    """The decoded set size of each dev graph under the network's logits (random column from seed 0)."""
    model.eval()
    sizes = [decode(g, vertex_logits(model, g, np.random.default_rng(0))).size for g in graphs]
    model.train()
    return sizes


def degree_sizes(graphs: list[MDSInstance]) -> list[int]:
    """The same decoder fed the degree, ties broken from seed 0."""
    return [decode(g, degree_scores(g) + np.random.default_rng(0).random(g.n)).size for g in graphs]


class Trainer:
    def __init__(self, args: argparse.Namespace, dev: list[MDSInstance]):
        torch.manual_seed(args.seed)
        self.args = args
        self.model = VertexGNN(ModelConfig(hidden=args.hidden, layers=args.layers))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.dev = dev
        self.dev_degree = degree_sizes(dev)
        self.step = 0
        self.seconds = 0.0
        self.history: list[dict[str, Any]] = []
        self.best: dict[str, Any] = {"excess": float("inf"), "weights": None, "step": 0}

    @property
    def state_path(self) -> Path:
        return Path(self.args.out) / "mds-state.pt"

    def save(self) -> None:
        progress = {"step": self.step, "seconds": self.seconds, "history": self.history, "best": self.best}
        save_training_state(self.state_path, self.model, self.optimizer, progress)

    def resume(self) -> None:
        state = load_training_state(self.state_path, self.model, self.optimizer)
        self.step, self.seconds, self.history, self.best = state["step"], state["seconds"], state["history"], state["best"]

    def train_step(self) -> float:
        graph = training_graph(self.step)
        features = torch.from_numpy(vertex_features(graph, np.random.default_rng(RANDOM_SEED + self.step)))
        edges = torch.from_numpy(directed_edges(graph))
        loss = dominating_set_loss(self.model(features, edges), edges, self.args.beta)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.step += 1
        return float(loss.detach())

    def evaluate(self, losses: list[float]) -> None:
        sizes = dev_sizes(self.model, self.dev)
        excess = 100 * float(np.mean([s / d - 1 for s, d in zip(sizes, self.dev_degree, strict=True)]))
        row = {"step": self.step, "seconds": round(self.seconds, 1), "loss": float(np.mean(losses)) if losses else float("nan")}
        row |= {
            "dev_excess_percent": round(excess, 3),
            "dev_size": float(np.mean(sizes)),
            "dev_degree_size": float(np.mean(self.dev_degree)),
        }
        self.history.append(row)
        if excess < self.best["excess"]:
            self.best = {"excess": excess, "weights": {k: v.clone() for k, v in self.model.state_dict().items()}, "step": self.step}
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
        model = VertexGNN(ModelConfig(hidden=self.args.hidden, layers=self.args.layers))
        model.load_state_dict(self.best["weights"])
        card = {
            "name": "mds",
            "paper": PAPER,
            "energy": ENERGY,
            "problem": "mds",
            "train": {
                "graphs": "mds-ba BA(n, 4), n in [800, 1200] (FrontierCO's MDS training recipe)",
                "seeds_from": TRAIN_SEED,
                "beta": self.args.beta,
                "lr": self.args.lr,
                "seed": self.args.seed,
                "threads": 1,
            },
            "trained": {"steps": self.step, "cpu_seconds": round(self.seconds, 1), "kept_step": self.best["step"]},
            "dev": {
                "collection": DEV,
                "split": "dev",
                "decode": "greedy cover + redundant vertices dropped",
                "measure": "mean of network size / degree size - 1, percent",
                "excess_percent": round(self.best["excess"], 3),
                "last": self.history[-1],
            },
        }
        card = export(model, directory / "mds.pt", card)
        write_log(self.history, directory / "mds.csv")
        plot_curve(self.history, directory / "mds.png")
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
    bottom.plot(steps, [row["dev_excess_percent"] for row in history])
    bottom.axhline(0.0, color="grey", linewidth=0.8)
    bottom.set_ylabel("dev decode: size over degree's, % above")
    bottom.set_xlabel("training step (one graph each)")
    figure.suptitle("egn-mds")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="frontierco train egn-mds", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=40.0, help="CPU minutes of training steps")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--beta", type=float, default=BETA)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="training state (default: the workspace's runs/egn-mds)")
    parser.add_argument("--export", type=Path, default=SHIPPED)
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    return parser.parse_args(argv)


def main(argv: list[str], context: Context | None = None) -> None:
    args = parse(argv)
    context = context if context is not None else Context.discover()
    torch.set_num_threads(1)
    args.out = args.out or context.required().training / "egn-mds"
    trainer = Trainer(args, dev_set(context))
    if args.resume and trainer.state_path.is_file():
        trainer.resume()
    trainer.run()
    card = trainer.export(args.export)
    print(f"exported {args.export / card['file']} (dev excess {card['dev']['excess_percent']}%)")
