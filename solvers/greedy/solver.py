"""Minimum-degree greedy for maximum independent set: the simple baseline."""

from __future__ import annotations

import heapq
from collections.abc import Iterator

import numpy as np

from frontierco.problems import MISInstance, MISSolution
from frontierco.solver import Budget, Solver


class Greedy(Solver):
    name = "greedy"
    problems = ("mis",)
    version = "1"
    deterministic = True

    def solve(self, instance: MISInstance, budget: Budget) -> Iterator[MISSolution]:
        adjacency = instance.adjacency
        degree = adjacency.degrees.astype(np.int64)
        tie = np.random.default_rng(budget.seed).random(instance.n)
        heap = [(int(degree[v]), float(tie[v]), v) for v in range(instance.n)]
        heapq.heapify(heap)
        removed = np.zeros(instance.n, dtype=bool)
        chosen = []
        while heap:
            d, _, v = heapq.heappop(heap)
            if removed[v] or d != degree[v]:
                continue
            chosen.append(v)
            removed[v] = True
            for u in adjacency.neighbours(v):
                if removed[u]:
                    continue
                removed[u] = True
                for w in adjacency.neighbours(u):
                    if not removed[w]:
                        degree[w] -= 1
                        heapq.heappush(heap, (int(degree[w]), float(tie[w]), w))
        yield MISSolution(np.array(sorted(chosen), dtype=np.int64))
