"""The Attention Model (Kool, van Hoof, Welling, ICLR 2019) with its authors' published TSP weights: greedy
decoding, then batches of sampled tours until the time limit, yielding each improvement."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from frontierco.problems import TSPInstance, TSPSolution
from frontierco.registry import FileSource, FileStore
from frontierco.solver import Budget, Solver
from frontierco.solverkit import Clock

ORIGIN = "https://raw.githubusercontent.com/wouterkool/attention-learn-to-route/c9abf41/pretrained"
# the authors' released weights (MIT), named by their public origin and sha256; read from the cache, the
# offline mirror or downloaded (frontierco.registry.FileStore), never copied into this repository
WEIGHTS = {
    50: FileSource(
        "checkpoints/attention-model/tsp_50/epoch-99.pt",
        f"{ORIGIN}/tsp_50/epoch-99.pt",
        "10e0e882f17a15ae44da04d9d8939ce599d3cf133c0593649a066608ff51ab43",
    ),
    100: FileSource(
        "checkpoints/attention-model/tsp_100/epoch-99.pt",
        f"{ORIGIN}/tsp_100/epoch-99.pt",
        "eefdf5496cc1a15e1b95b0a3025e1bcf703279d22aebc19b5b57c80ca8e3200a",
    ),
}
PAPER_SAMPLES = 1280  # the paper's sampling setting: the best of 1,280 sampled tours


def load_network(size: int, store: FileStore | None = None) -> Any:
    """The published network trained on ``size`` nodes, loaded with strict=True (same names and shapes)."""
    import torch

    from .model import AttentionModelTSP

    path = (store or FileStore()).path(WEIGHTS[size])
    network = AttentionModelTSP()
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True)["model"], strict=True)
    return network.eval()


def unit_square(instance: TSPInstance) -> np.ndarray:
    """The points the network reads: the coordinates when they lie in the unit square (its training data), else
    min-max scaled with one factor; without coordinates, a classical multidimensional scaling of the
    symmetrised matrix (the tour is still costed with the instance's own weights)."""
    weights = instance.weights
    if weights.coords is not None:
        points = np.asarray(weights.coords, dtype=np.float64)[:, :2]
    else:
        matrix = weights.full_matrix().astype(np.float64)
        squared = ((matrix + matrix.T) / 2.0) ** 2
        centre = np.eye(instance.n) - 1.0 / instance.n
        values, vectors = np.linalg.eigh(-0.5 * centre @ squared @ centre)
        points = vectors[:, -2:] * np.sqrt(np.maximum(values[-2:], 0.0))
    if points.min() >= 0.0 and points.max() <= 1.0:
        return points
    low = points.min(0)
    span = float((points.max(0) - low).max())
    return (points - low) / (span if span > 0 else 1.0)


class AttentionModel(Solver):
    name = "attention-model"
    problems = ("tsp",)
    version = "1"
    requires = {"torch": "torch>=2.2"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())  # the files it needs (tests skip it where none is at hand)

    def setup(self) -> None:
        import torch

        self.torch = torch
        self.samples = int(self.params.get("samples", 0))  # 0: sample until the time limit; PAPER_SAMPLES: the paper's
        self.batch = int(self.params.get("batch", 128))
        self.networks: dict[int, Any] = {}

    def network(self, n: int) -> Any:
        size = 50 if n <= 75 else 100  # the nearer of the trained sizes
        if size not in self.networks:
            self.networks[size] = load_network(size)
        return self.networks[size]

    def solve(self, instance: TSPInstance, budget: Budget) -> Iterator[TSPSolution]:
        torch = self.torch
        torch.set_num_threads(max(1, budget.threads))
        clock = Clock(budget.time_limit, margin=0.05)
        if instance.n <= 3:
            yield TSPSolution(np.arange(instance.n))
            return
        network = self.network(instance.n)
        coords = torch.from_numpy(unit_square(instance)).float()[None]
        generator = torch.Generator().manual_seed(budget.seed)
        with torch.no_grad():
            tour = network.decode(coords)[0].numpy()
            best = instance.weights.path_length(np.append(tour, tour[0]))
            yield TSPSolution(tour)
            drawn = 0
            while not clock.expired() and (self.samples == 0 or drawn < self.samples):
                count = self.batch if self.samples == 0 else min(self.batch, self.samples - drawn)
                tours = network.decode(coords.expand(count, -1, -1), sample=True, generator=generator).numpy()
                drawn += count
                for candidate in tours:
                    length = instance.weights.path_length(np.append(candidate, candidate[0]))
                    if length < best:
                        best, tour = length, candidate
                        yield TSPSolution(tour)
