"""Batched routing environments: B instances x P rollouts each, stepped together with exact feasibility masks.

- ``tsp``: rollout p starts at node ``starts[p]``; every step visits an unvisited node; the tour closes
  back to the start, whose leg is added when the last node is visited.
- ``cvrp``: rollouts start at the depot (node 0) and their first move is forced to customer ``starts[p]``
  (POMO's multiple starts). A customer is allowed when unvisited and its demand fits the remaining
  capacity; the depot when the vehicle is not at the depot (no empty routes), or when every customer is
  served (then only the depot, at no cost: the rollout is finished).
- ``cvrptw``: as cvrp, plus time: service at a customer starts at max(arrival, window open); a customer is
  allowed when the vehicle arrives before its window closes and can still serve it and get back to the
  depot before the depot closes; each route starts when the depot opens. This is exactly the schedule
  ``frontierco.problems.routing.cvrptw.evaluate`` checks, so a finished rollout is always feasible.
"""

from __future__ import annotations

import torch

from .data import RoutingBatch


class RoutingEnv:
    def __init__(self, batch: RoutingBatch, starts: torch.Tensor):
        """``starts``: node indices (customers 1.. for cvrp kinds), (P,) shared by every instance or (B, P)."""
        self.batch = batch
        self.kind = batch.kind
        b, n = batch.size, batch.nodes
        p = int(starts.shape[-1])
        device = batch.distance.device
        self.rows = torch.arange(b, device=device)[:, None].expand(b, p)
        self.visited = torch.zeros(b, p, n, dtype=torch.bool, device=device)
        self.cost = torch.zeros(b, p, dtype=batch.distance.dtype, device=device)
        self.first = starts.to(device).expand(b, p).clone()
        if self.kind == "tsp":
            self.current = self.first.clone()
            self.visited[self.rows, torch.arange(p, device=device)[None, :].expand(b, p), self.current] = True
        else:
            assert batch.demand is not None and batch.capacity is not None
            self.current = torch.zeros(b, p, dtype=torch.long, device=device)
            self.visited[:, :, 0] = True
            self.load = torch.zeros(b, p, dtype=batch.distance.dtype, device=device)
            if self.kind == "cvrptw":
                assert batch.windows is not None
                self.time = batch.windows[:, 0, 0][:, None].expand(b, p).clone()
            self.step(self.first)

    @property
    def pomo(self) -> int:
        return int(self.current.shape[1])

    def done(self) -> torch.Tensor:
        """(B, P): every node visited (and, for vehicles, back at the depot)."""
        complete = self.visited.all(-1)
        return complete if self.kind == "tsp" else complete & (self.current == 0)

    def _at(self, matrix: torch.Tensor) -> torch.Tensor:
        """(B, P, N): the rows of ``matrix`` (B, N, N) at each rollout's current node."""
        return matrix[self.rows, self.current]

    def mask(self) -> torch.Tensor:
        """(B, P, N) True where the next node is allowed; a finished rollout may only stay where it is."""
        allowed = ~self.visited
        if self.kind == "tsp":
            finished = self.visited.all(-1, keepdim=True)
            return allowed | (finished & (torch.arange(allowed.shape[-1], device=allowed.device) == self.current[..., None]))
        batch = self.batch
        assert batch.demand is not None and batch.capacity is not None
        room = batch.capacity[:, None, None] - self.load[..., None]
        allowed &= batch.demand[:, None, :] <= room
        if self.kind == "cvrptw":
            allowed &= self._in_time()
        all_served = self.visited[..., 1:].all(-1)
        allowed[..., 0] = (self.current != 0) | all_served
        return allowed

    def _in_time(self) -> torch.Tensor:
        batch = self.batch
        assert batch.duration is not None and batch.windows is not None and batch.service is not None
        service_here = batch.service[self.rows, self.current][..., None]
        arrival = self.time[..., None] + service_here + self._at(batch.duration)
        begin = torch.maximum(arrival, batch.windows[:, None, :, 0])
        back = begin + batch.service[:, None, :] + batch.duration[:, :, 0][:, None, :]
        return (arrival <= batch.windows[:, None, :, 1]) & (back <= batch.windows[:, 0, 1][:, None, None])

    def step(self, action: torch.Tensor) -> None:
        """Move every rollout to ``action`` (B, P); finished rollouts are given their current node."""
        batch = self.batch
        leg = batch.distance[self.rows, self.current, action]
        if self.kind == "tsp":
            self.visited[self.rows, torch.arange(self.pomo, device=action.device)[None, :].expand_as(action), action] = True
            closing = self.visited.all(-1) & (action != self.current)
            leg = leg + torch.where(closing, batch.distance[self.rows, action, self.first], torch.zeros_like(leg))
            self.cost += torch.where(action != self.current, leg, torch.zeros_like(leg))
            self.current = action
            return
        assert batch.demand is not None
        moving = action != self.current
        self.cost += torch.where(moving, leg, torch.zeros_like(leg))
        to_depot = action == 0
        if self.kind == "cvrptw":
            assert batch.duration is not None and batch.windows is not None and batch.service is not None
            arrival = self.time + batch.service[self.rows, self.current] + batch.duration[self.rows, self.current, action]
            begin = torch.maximum(arrival, batch.windows[self.rows, action, 0])
            self.time = torch.where(to_depot, batch.windows[:, 0, 0][:, None].expand_as(begin), begin)
        self.load = torch.where(to_depot, torch.zeros_like(self.load), self.load + batch.demand[self.rows, action])
        self.visited[self.rows, torch.arange(self.pomo, device=action.device)[None, :].expand_as(action), action] = True
        self.current = action

    def state_features(self) -> torch.Tensor:
        """(B, P, F) what the decoder context adds to the node embeddings: remaining capacity (and time)."""
        batch = self.batch
        if self.kind == "tsp":
            return self.cost.new_zeros(*self.current.shape, 0)
        assert batch.capacity is not None
        features = [1.0 - self.load / batch.capacity[:, None]]
        if self.kind == "cvrptw":
            assert batch.windows is not None
            features.append(self.time / batch.windows[:, 0, 1][:, None].clamp_min(1e-12))
        return torch.stack(features, -1)


def routes_of(kind: str, first: int, actions: list[int]) -> list[list[int]]:
    """A rollout's node sequence as the suite's solution: one tour, or customers split at the depot."""
    if kind == "tsp":
        tour = [first]
        for node in actions:
            if node != tour[-1]:
                tour.append(node)
        return [tour]
    routes: list[list[int]] = [[]]
    for node in [first, *actions]:
        if node == 0:
            if routes[-1]:
                routes.append([])
        else:
            routes[-1].append(node)
    return [r for r in routes if r]
