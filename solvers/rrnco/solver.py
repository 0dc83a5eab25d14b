"""RRNCO, the neural router for real road networks (Son et al., ICLR 2026), trained here: multi-start greedy
decoding, then x8 coordinate augmentation, then sampling until the time limit, yielding each improvement."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from frontierco.problems import CVRPInstance, CVRPSolution, TSPInstance, TSPSolution
from frontierco.solver import Budget, Solver
from frontierco.solverkit import Clock

AUGMENTATIONS = 8
# the (B, N, N, features, bias dim) float tensors of the bias network stay under this many bytes per chunk
CHUNK_BYTES = 256 * 2**20


def augmented_coords(coords: Any) -> Any:
    """The 8 symmetries of the unit square applied to (1, N, 2) coordinates -> (8, N, 2) (POMO's x8)."""
    import torch

    x, y = coords[..., 0], coords[..., 1]
    variants = [(x, y), (y, x), (1 - x, y), (y, 1 - x), (x, 1 - y), (1 - y, x), (1 - x, 1 - y), (1 - y, 1 - x)]
    return torch.cat([torch.stack(v, -1) for v in variants], 0)


class RRNCOSolver(Solver):
    name = "rrnco"
    problems = ("tsp", "cvrp", "cvrptw")
    version = "1"
    requires = {"torch": "torch>=2.2"}
    deterministic = True

    def setup(self) -> None:
        import torch

        from .checkpoint import SHIPPED, load

        self.torch = torch
        self.models = {path.stem: load(path) for path in sorted(SHIPPED.glob("*.pt"))}
        self.pomo = int(self.params.get("pomo", 100))
        self.sampling = bool(self.params.get("sampling", True))

    def _model(self, instance: Any) -> Any:
        from .checkpoint import SHIPPED, MissingCheckpoint, checkpoint_name

        problem = "cvrptw" if hasattr(instance, "time_windows") else "cvrp" if isinstance(instance, CVRPInstance) else "tsp"
        matrix = instance.weights.full_matrix()
        name = checkpoint_name(problem, not np.array_equal(matrix, matrix.T))
        if name not in self.models:
            raise MissingCheckpoint(f"rrnco has no checkpoint {Path(SHIPPED) / (name + '.pt')} for this {problem} instance")
        return self.models[name]

    def solve(self, instance: TSPInstance | CVRPInstance, budget: Budget) -> Iterator[TSPSolution | CVRPSolution]:
        from .data import from_instance
        from .env import routes_of
        from .model import default_starts, rollout

        torch = self.torch
        torch.set_num_threads(max(1, budget.threads))
        clock = Clock(budget.time_limit, margin=0.05)
        is_tsp = isinstance(instance, TSPInstance)
        if (is_tsp and instance.n <= 3) or (not is_tsp and instance.n < 2):
            yield TSPSolution(np.arange(instance.n)) if is_tsp else CVRPSolution(())
            return
        if not is_tsp and np.any(instance.demands > instance.capacity):
            return  # a customer no vehicle can carry: no feasible solution exists
        model = self._model(instance)
        exact = from_instance(instance)
        generator = torch.Generator().manual_seed(budget.seed)
        starts = default_starts(exact.kind, exact.nodes, self.pomo)
        best = float("inf")

        def improved(result: Any) -> Any:
            nonlocal best
            flat = result.cost.flatten()
            k = int(flat.argmin())
            if not float(flat[k]) < best:
                return None
            best = float(flat[k])
            b, p = divmod(k, result.cost.shape[1])
            routes = routes_of(exact.kind, int(starts[p]), result.actions[b, p].tolist())
            if is_tsp:
                return TSPSolution(np.array(routes[0], dtype=np.int64))
            return CVRPSolution(tuple(np.array(r, dtype=np.int64) for r in routes))

        chunk = max(1, min(AUGMENTATIONS, CHUNK_BYTES // (exact.nodes**2 * 3 * model.config.bias_dim * 4)))
        with torch.no_grad():
            single = exact.to("cpu", torch.float32)
            solution = improved(rollout(model, single, starts, cost_batch=exact, generator=generator))
            if solution is not None:
                yield solution
            views = augmented_coords(single.coords)
            encoded = []
            for first in range(0, AUGMENTATIONS, chunk):
                if clock.expired():
                    return
                count = min(chunk, AUGMENTATIONS - first)
                batch = single.repeat(count).with_coords(views[first : first + count])
                encoded.append((batch, model.encode(batch, generator)))
                result = rollout(model, batch, starts, encoded=encoded[-1][1], cost_batch=exact.repeat(count))
                solution = improved(result)
                if solution is not None:
                    yield solution
            while self.sampling and not clock.expired():
                for batch, codes in encoded:
                    result = rollout(
                        model, batch, starts, sample=True, encoded=codes, cost_batch=exact.repeat(batch.size), generator=generator
                    )
                    solution = improved(result)
                    if solution is not None:
                        yield solution
                    if clock.expired():
                        return
