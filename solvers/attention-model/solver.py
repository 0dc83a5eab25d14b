"""The Attention Model (Kool, van Hoof, Welling, ICLR 2019) with its authors' published TSP and CVRP weights:
greedy decoding, then batches of sampled solutions until the time limit, yielding each improvement."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from frontierco.filestore import FileStore
from frontierco.kit.solverkit import Clock, depot_routes, refuse_route_limit, unit_square
from frontierco.manifests import FileSource
from frontierco.problems import CVRPInstance, CVRPSolution, TSPInstance, TSPSolution
from frontierco.problems.routing.cvrp import routes_length
from frontierco.solver import Budget, Solver

ORIGIN = "https://raw.githubusercontent.com/wouterkool/attention-learn-to-route/c9abf41/pretrained"
# the authors' released weights (MIT), named by their public origin and sha256; read from the cache, the
# offline mirror or downloaded (frontierco.filestore.FileStore), never copied into this repository
SHA256 = {
    ("tsp", 50): "10e0e882f17a15ae44da04d9d8939ce599d3cf133c0593649a066608ff51ab43",
    ("tsp", 100): "eefdf5496cc1a15e1b95b0a3025e1bcf703279d22aebc19b5b57c80ca8e3200a",
    ("cvrp", 50): "3acc232fa8f985bc0662090d069f1f04b1574b4d2f4572a493acde502f723941",
    ("cvrp", 100): "1282fd64cfb4bb2fb584deac758c7836b437452d0297ddb9668efa71b3f7e3f1",
}
WEIGHTS = {
    (problem, size): FileSource(f"checkpoints/attention-model/{problem}_{size}/epoch-99.pt", f"{ORIGIN}/{problem}_{size}/epoch-99.pt", sha)
    for (problem, size), sha in SHA256.items()
}
PAPER_SAMPLES = 1280  # the paper's sampling setting: the best of 1,280 sampled tours
MAX_NODES = 25_000  # its encoder attends every pair of nodes and each decoding step reads every node: n^2 work
ROLLOUT_NODES = 128 * 1000  # rollouts x nodes decoded at once: a batch of 128 up to 1,000 nodes, fewer above


def load_network(problem: str, size: int, store: FileStore | None = None) -> Any:
    """The published ``problem`` network trained on ``size`` nodes, loaded with strict=True (same names and shapes)."""
    import torch

    from .model import AttentionModelCVRP, AttentionModelTSP

    path = (store or FileStore()).path(WEIGHTS[(problem, size)])
    network = AttentionModelTSP() if problem == "tsp" else AttentionModelCVRP()
    network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True)["model"], strict=True)
    return network.eval()


class AttentionModel(Solver):
    name = "attention-model"
    problems = ("tsp", "cvrp")
    learned = True
    version = "2"  # 2: the encoder runs once per instance, in blocks; sampling batches shrink above 1,000 nodes
    requires = {"torch": "torch>=2.2"}
    deterministic = True
    published_weights = tuple(WEIGHTS.values())  # the files it needs (tests skip it where none is at hand)

    def setup(self) -> None:
        import torch

        self.torch = torch
        self.samples = int(self.params["samples"])  # 0: sample until the time limit; PAPER_SAMPLES: the paper's
        self.batch = int(self.params["batch"])
        self.networks: dict[tuple[str, int], Any] = {}

    def network(self, problem: str, n: int) -> Any:
        size = 50 if n <= 75 else 100  # the nearer of the trained sizes
        if (problem, size) not in self.networks:
            self.networks[(problem, size)] = load_network(problem, size, self.files)
        return self.networks[(problem, size)]

    def solve(self, instance: TSPInstance | CVRPInstance, budget: Budget) -> Iterator[TSPSolution | CVRPSolution]:
        refuse_route_limit(instance, self.name)  # the model builds routes by capacity alone
        if instance.n > MAX_NODES:
            raise ValueError(
                f"attention-model serves up to {MAX_NODES:,} nodes: its encoder attends every pair of nodes and each decoding"
                f" step reads every node (n^2 work; its greedy tour takes minutes on a CPU core from 20,000 nodes), and the"
                f" paper has no scheme for larger instances; this one has {instance.n:,}"
            )
        torch = self.torch
        torch.set_num_threads(max(1, budget.threads))
        clock = Clock(budget.time_limit, margin=0.05)
        is_tsp = isinstance(instance, TSPInstance)
        if is_tsp and instance.n <= 3:
            yield TSPSolution(np.arange(instance.n))
            return
        if not is_tsp and instance.n < 2:
            yield CVRPSolution(())
            return
        if isinstance(instance, CVRPInstance) and np.any(instance.demands > instance.capacity):
            return  # a customer no vehicle can carry: no feasible solution exists
        device = torch.device(budget.device)
        network = self.network("tsp" if is_tsp else "cvrp", instance.n).to(device)
        coords = torch.from_numpy(unit_square(instance)).float()[None].to(device)
        demand = None
        if isinstance(instance, CVRPInstance):
            demand = torch.from_numpy(instance.demands / instance.capacity).float()[None].to(device)
        generator = torch.Generator(device=device).manual_seed(budget.seed)
        batch = max(1, min(self.batch, ROLLOUT_NODES // instance.n))

        with torch.no_grad():
            h = network.encode(coords) if demand is None else network.encode(coords, demand)  # once: every rollout shares it

        def decode(count: int, sample: bool) -> np.ndarray:
            if demand is None:  # a TSP
                return network.rollout(h, count, sample=sample, generator=generator).cpu().numpy()
            return network.rollout(h, demand.expand(count, -1), sample=sample, generator=generator).cpu().numpy()

        best, greedy, drawn = float("inf"), True, 0
        with torch.no_grad():
            while greedy or (not clock.expired() and (self.samples == 0 or drawn < self.samples)):
                count = 1 if greedy else batch if self.samples == 0 else min(batch, self.samples - drawn)
                for candidate in decode(count, sample=not greedy):
                    solution = TSPSolution(candidate) if is_tsp else routes(candidate)
                    length = cost(instance, solution)
                    if length < best:
                        best = length
                        yield solution
                drawn += 0 if greedy else count
                greedy = False


def routes(visits: np.ndarray) -> CVRPSolution:
    """A CVRP rollout (customers, 0 at each return to the depot) as routes."""
    return CVRPSolution(tuple(depot_routes(visits)))


def cost(instance: TSPInstance | CVRPInstance, solution: TSPSolution | CVRPSolution) -> float:
    """The solution's length with the instance's own weights."""
    if isinstance(solution, TSPSolution):
        return instance.weights.path_length(np.append(solution.tour, solution.tour[0]))
    return routes_length(instance.weights, list(solution.routes))
