"""Steiner tree heuristics shared by the STP solvers (the shortest-path heuristic of ``stp-sph``, the start of
``stp-scip``): trees are arrays of the instance's edge indices.

- ``shortest_path_tree``: Takahashi and Matsuyama (1980): from a root terminal, join the terminal nearest to
  the tree by a shortest path, again and again. Distances to the tree are kept between steps: after a path
  joins, Dijkstra runs from its new vertices only (scipy, ``min_only``) and a vertex takes the new distance
  and predecessor where it is strictly shorter, which keeps every predecessor chain a shortest path to the
  tree; the search stops at the farthest terminal still outside, beyond which no distance matters.
- ``mst_prune``: the minimum spanning tree of the subgraph induced by a vertex set, with non-terminal leaves
  removed until none is left (the clean-up of Takahashi-Matsuyama and of Kou, Markowsky and Berman).
- ``improve``: Steiner-vertex insertion and elimination (Minoux 1990; Uchoa and Werneck 2010 call these the
  vertex-insertion and key-vertex neighbourhoods): a vertex next to the tree joins when the spanning tree of
  the tree's edges and its own, pruned, costs less; a non-terminal of degree three or more leaves when the
  pruned spanning tree of the induced subgraph without it costs less. First improvement, until neither
  move helps or the time is up.

Searches run on float weights in which a zero weight becomes a tiny positive one (scipy's sparse graphs
cannot hold a zero-weight edge); a tree's cost is always the instance's own sum.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterator

import numpy as np
from numba import njit
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from frontierco.problems.steiner.stp import STPInstance, edge_keys


def search_weights(instance: STPInstance, noise: float = 0.0, rng: np.random.Generator | None = None) -> np.ndarray:
    """The weights the searches use: positive floats, each multiplied by a factor in [1, 1 + noise) when
    ``noise`` (ties broken differently for each draw of ``rng``)."""
    weights = instance.weights.astype(np.float64)
    positive = weights[weights > 0]
    weights[weights <= 0] = (positive.min() if positive.size else 1.0) * 1e-6
    if noise and rng is not None:
        weights *= 1.0 + noise * rng.random(len(weights))
    return weights


def _matrix(n: int, edges: np.ndarray, weights: np.ndarray) -> csr_matrix:
    both = np.concatenate([edges, edges[:, ::-1]])
    return coo_matrix((np.concatenate([weights, weights]), (both[:, 0], both[:, 1])), shape=(n, n)).tocsr()


def adjacency(instance: STPInstance) -> csr_matrix:
    """The graph's adjacency in CSR form, both directions of every edge (data: the edge weights)."""
    return _matrix(instance.n, instance.edges, instance.weights.astype(np.float64))


def tree_cost(instance: STPInstance, tree: np.ndarray) -> float:
    """The instance's cost of these edge indices (exact for integer weights)."""
    chosen = instance.weights[tree]
    return float(int(chosen.sum())) if instance.integer_weights else float(np.sum(chosen))


def edge_index(instance: STPInstance, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The instance's index of each edge u-v (both must be edges)."""
    return np.searchsorted(instance.keys, edge_keys(instance.n, np.stack([u, v], axis=1)))


def shortest_path_tree(instance: STPInstance, root: int, weights: np.ndarray) -> np.ndarray:
    """Takahashi-Matsuyama from ``root`` on ``weights``: the vertices of the tree, as a boolean mask."""
    n = instance.n
    graph = _matrix(n, instance.edges, weights)
    inside = np.zeros(n, dtype=bool)
    inside[root] = True
    distance = np.full(n, np.inf)
    predecessor = np.full(n, -9999, dtype=np.int64)
    distance[root] = 0.0
    waiting = instance.terminals[instance.terminals != root]
    new = np.array([root])
    while waiting.size:
        limit = float(distance[waiting].max()) if np.isfinite(distance[waiting]).all() else np.inf
        fresh, parents, _ = dijkstra(graph, indices=new, min_only=True, return_predecessors=True, limit=limit)
        better = fresh < distance
        distance[better] = fresh[better]
        predecessor[better] = parents[better]
        nearest = int(waiting[np.argmin(distance[waiting])])
        path = []
        v = nearest
        while not inside[v]:
            path.append(v)
            v = int(predecessor[v])
        new = np.array(path, dtype=np.int64)
        inside[new] = True
        distance[new] = 0.0
        predecessor[new] = -9999
        waiting = waiting[~inside[waiting]]
    return inside


@njit(cache=True)
def _root(parent: np.ndarray, v: int) -> int:
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@njit(cache=True)
def _prune_kernel(n: int, ends: np.ndarray, chosen: np.ndarray, terminal: np.ndarray) -> np.ndarray:
    """The chosen edges less those that non-terminal leaves hang by, repeatedly."""
    k = len(chosen)
    degree = np.zeros(n, np.int64)
    start = np.zeros(n + 1, np.int64)
    for j in range(k):
        degree[ends[chosen[j], 0]] += 1
        degree[ends[chosen[j], 1]] += 1
    for v in range(n):
        start[v + 1] = start[v] + degree[v]
    fill = start[:-1].copy()
    incident = np.empty(2 * k, np.int64)
    for j in range(k):
        for side in range(2):
            v = ends[chosen[j], side]
            incident[fill[v]] = j
            fill[v] += 1
    alive = np.ones(k, np.bool_)
    stack = [v for v in range(n) if degree[v] == 1 and not terminal[v]]
    while stack:
        v = stack.pop()
        if degree[v] != 1:
            continue
        for t in range(start[v], start[v + 1]):
            j = incident[t]
            if alive[j]:
                alive[j] = False
                u = ends[chosen[j], 0] if ends[chosen[j], 1] == v else ends[chosen[j], 1]
                degree[u] -= 1
                degree[v] -= 1
                if degree[u] == 1 and not terminal[u]:
                    stack.append(u)
                break
    return chosen[alive]


@njit(cache=True)
def _kruskal_kernel(n: int, ends: np.ndarray, order: np.ndarray, banned: int) -> np.ndarray:
    """Kruskal over the edges in ``order`` (by increasing weight), skipping those at vertex ``banned``."""
    parent = np.arange(n)
    chosen = np.empty(len(order), np.int64)
    count = 0
    for e in order:
        u, v = ends[e, 0], ends[e, 1]
        if u == banned or v == banned:
            continue
        ru, rv = _root(parent, u), _root(parent, v)
        if ru != rv:
            parent[ru] = rv
            chosen[count] = e
            count += 1
    return chosen[:count]


def prune(instance: STPInstance, tree: np.ndarray) -> np.ndarray:
    """Remove non-terminal leaves (and the edges that made them leaves) until none is left."""
    return _prune_kernel(instance.n, instance.edges, np.asarray(tree, dtype=np.int64), _terminal_mask(instance))


def _terminal_mask(instance: STPInstance) -> np.ndarray:
    terminal = np.zeros(instance.n, dtype=bool)
    terminal[instance.terminals] = True
    return terminal


def _mst(instance: STPInstance, candidates: np.ndarray, weights: np.ndarray, banned: int = -1) -> np.ndarray:
    """The minimum spanning forest over these edge indices (on ``weights``; none at vertex ``banned``)."""
    candidates = np.asarray(candidates, dtype=np.int64)
    return _kruskal_kernel(instance.n, instance.edges, candidates[np.argsort(weights[candidates], kind="stable")], banned)


def induced_edges(instance: STPInstance, inside: np.ndarray) -> np.ndarray:
    """Indices of the edges with both ends in the vertex mask."""
    return np.flatnonzero(inside[instance.edges[:, 0]] & inside[instance.edges[:, 1]])


def mst_prune(instance: STPInstance, inside: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The pruned minimum spanning tree of the subgraph induced by the vertex mask (which must connect the terminals)."""
    if len(instance.terminals) < 2:
        return np.zeros(0, dtype=np.int64)
    return prune(instance, _mst(instance, induced_edges(instance, inside), weights))


def vertices_of(instance: STPInstance, tree: np.ndarray) -> np.ndarray:
    inside = np.zeros(instance.n, dtype=bool)
    inside[instance.edges[tree].reshape(-1)] = True
    inside[instance.terminals] = True
    return inside


def _insertions(instance: STPInstance, tree: np.ndarray, weights: np.ndarray, incident: csr_matrix, deadline: float) -> np.ndarray:
    """One pass of vertex insertion: each vertex next to the tree (by two edges or more) joins when the spanning
    tree of the tree's edges and its own costs less than the tree."""
    best = float(weights[tree].sum())
    inside = vertices_of(instance, tree)
    touching = np.unique(incident[np.flatnonzero(inside)].indices)
    for v in touching[~inside[touching]].tolist():
        if time.monotonic() >= deadline:
            break
        lo, hi = incident.indptr[v], incident.indptr[v + 1]
        links = (incident.data[lo:hi].astype(np.int64) - 1)[inside[incident.indices[lo:hi]]]
        if len(links) < 2:
            continue
        candidate = prune(instance, _mst(instance, np.concatenate([tree, links]), weights))
        if float(weights[candidate].sum()) < best:
            tree, best = candidate, float(weights[candidate].sum())
            inside = vertices_of(instance, tree)
    return tree


def _eliminations(instance: STPInstance, tree: np.ndarray, weights: np.ndarray, deadline: float) -> np.ndarray:
    """One pass of vertex elimination: a non-terminal of degree three or more leaves when the spanning tree of
    the subgraph induced by the other vertices connects them and, pruned, costs less."""
    best = float(weights[tree].sum())
    terminal = _terminal_mask(instance)
    degree = np.bincount(instance.edges[tree].reshape(-1), minlength=instance.n)
    inside = vertices_of(instance, tree)
    order = induced_edges(instance, inside)
    order = order[np.argsort(weights[order], kind="stable")]
    for v in np.flatnonzero((degree >= 3) & ~terminal).tolist():
        if time.monotonic() >= deadline:
            break
        if not inside[v]:
            continue
        spanning = _kruskal_kernel(instance.n, instance.edges, order, v)
        if len(spanning) == int(inside.sum()) - 2:  # connects the other vertices
            candidate = prune(instance, spanning)
            if float(weights[candidate].sum()) < best:
                tree, best = candidate, float(weights[candidate].sum())
                inside = vertices_of(instance, tree)
                order = induced_edges(instance, inside)
                order = order[np.argsort(weights[order], kind="stable")]
    return tree


def key_paths(instance: STPInstance, tree: np.ndarray) -> list[tuple[np.ndarray, int, int]]:
    """The tree's key paths: maximal paths whose inner vertices are non-terminals of degree two, as (edge
    indices, one end, the other end)."""
    ends = instance.edges[tree]
    degree = np.bincount(ends.reshape(-1), minlength=instance.n)
    crucial = degree >= 3
    crucial[instance.terminals] = True
    incident: dict[int, list[int]] = {}
    for k, (u, v) in enumerate(ends.tolist()):
        incident.setdefault(u, []).append(k)
        incident.setdefault(v, []).append(k)
    seen = np.zeros(len(tree), dtype=bool)
    paths = []
    for start in np.flatnonzero(crucial).tolist():
        for first in incident.get(start, []):
            if seen[first]:
                continue
            path, k, v = [], first, start
            while True:
                seen[k] = True
                path.append(k)
                v = int(ends[k, 0] if ends[k, 1] == v else ends[k, 1])
                if crucial[v]:
                    break
                k = next(j for j in incident[v] if j != k)
            paths.append((tree[np.array(path)], start, v))
    return paths


@njit(cache=True)
def _piece(ends: np.ndarray, tree_ptr: np.ndarray, tree_edge: np.ndarray, dead: np.ndarray, start: int, n: int) -> np.ndarray:
    """The vertices the tree connects to ``start`` once its ``dead`` edges are gone."""
    side = np.zeros(n, np.bool_)
    side[start] = True
    queue = [start]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for t in range(tree_ptr[v], tree_ptr[v + 1]):
            e = tree_edge[t]
            if dead[e]:
                continue
            w = ends[e, 0] if ends[e, 1] == v else ends[e, 1]
            if not side[w]:
                side[w] = True
                queue.append(w)
    return side


@njit(cache=True)
def _reconnect(
    indptr: np.ndarray,
    indices: np.ndarray,
    data: np.ndarray,
    ends: np.ndarray,
    tree_ptr: np.ndarray,
    tree_edge: np.ndarray,
    dead: np.ndarray,
    start: int,
    end: int,
    inside: np.ndarray,
    inner: np.ndarray,
    limit: float,
) -> np.ndarray:
    """A path shorter than ``limit`` that joins the two pieces the tree falls into once its ``dead`` edges (a
    key path from ``start`` to ``end``) are gone: Dijkstra from the smaller piece to the nearest tree vertex
    outside it and outside ``inner``; its vertices from there back to the piece (empty when there is none).
    Tree adjacency: the edges at v are ``tree_edge[tree_ptr[v]:tree_ptr[v+1]]``."""
    n = len(indptr) - 1
    side = _piece(ends, tree_ptr, tree_edge, dead, start, n)
    other = _piece(ends, tree_ptr, tree_edge, dead, end, n)
    if other.sum() < side.sum():  # search from the smaller piece
        side = other
    queue = np.flatnonzero(side)
    distance = np.full(n, np.inf)
    parent = np.full(n, -1, np.int64)
    heap = [(0.0, v) for v in queue]
    for v in queue:
        distance[v] = 0.0
    heapq.heapify(heap)
    while heap:
        d, v = heapq.heappop(heap)
        if d > distance[v]:
            continue
        if inside[v] and not side[v] and not inner[v]:
            path = [v]
            while not side[path[-1]]:
                path.append(parent[path[-1]])
            return np.array(path, np.int64)
        for t in range(indptr[v], indptr[v + 1]):
            w = np.int64(indices[t])
            nd = d + data[t]
            if nd < distance[w] and nd < limit:
                distance[w] = nd
                parent[w] = v
                heapq.heappush(heap, (nd, w))
    return np.zeros(0, np.int64)


def _tree_adjacency(instance: STPInstance, tree: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ends = instance.edges[tree]
    vertex = ends.reshape(-1)
    order = np.argsort(vertex, kind="stable")
    pointer = np.concatenate([[0], np.cumsum(np.bincount(vertex, minlength=instance.n))])
    return pointer.astype(np.int64), np.repeat(tree, 2)[order].astype(np.int64)


def _key_path_exchanges(instance: STPInstance, tree: np.ndarray, weights: np.ndarray, graph: csr_matrix, deadline: float) -> np.ndarray:
    """One pass of key-path exchange: a key path leaves when a shorter path (on ``weights``) joins the two
    pieces of the tree it held together and the tree, pruned, costs less."""
    best = float(weights[tree].sum())
    n, m = instance.n, instance.m
    in_tree = np.zeros(m, dtype=bool)
    in_tree[tree] = True
    degree = np.bincount(instance.edges[tree].reshape(-1), minlength=n)
    pointer, incident = _tree_adjacency(instance, tree)
    inside = vertices_of(instance, tree)
    for path, start, end in key_paths(instance, tree):
        if time.monotonic() >= deadline:
            break
        touched = instance.edges[path].reshape(-1)
        inner = np.zeros(n, dtype=bool)
        inner[touched] = True
        inner[[start, end]] = False
        if not in_tree[path].all() or np.any(degree[inner] != 2):
            continue  # an earlier exchange of this pass changed this part of the tree
        dead = np.zeros(m, dtype=bool)
        dead[path] = True
        joined = _reconnect(
            graph.indptr,
            graph.indices,
            graph.data,
            instance.edges,
            pointer,
            incident,
            dead,
            start,
            end,
            inside,
            inner,
            float(weights[path].sum()),
        )
        if not len(joined):
            continue
        candidate = prune(instance, np.concatenate([tree[~dead[tree]], edge_index(instance, joined[1:], joined[:-1])]))
        if float(weights[candidate].sum()) < best:
            tree, best = candidate, float(weights[candidate].sum())
            in_tree[:] = False
            in_tree[tree] = True
            degree = np.bincount(instance.edges[tree].reshape(-1), minlength=n)
            pointer, incident = _tree_adjacency(instance, tree)
            inside = vertices_of(instance, tree)
    return tree


def improve(instance: STPInstance, tree: np.ndarray, weights: np.ndarray, deadline: float) -> np.ndarray:
    """Key-path exchange, vertex insertion and vertex elimination passes from ``tree`` until none improves
    (by ``weights``: the caller judges the result by the instance's own cost) or ``time.monotonic()`` passes
    ``deadline``."""
    if len(instance.terminals) < 2:
        return tree
    incident = _matrix(instance.n, instance.edges, np.arange(1, instance.m + 1, dtype=np.float64))  # edge index + 1
    graph = _matrix(instance.n, instance.edges, weights)
    while time.monotonic() < deadline:
        before = float(weights[tree].sum())
        tree = _key_path_exchanges(instance, tree, weights, graph, deadline)
        tree = _insertions(instance, tree, weights, incident, deadline)
        tree = _eliminations(instance, tree, weights, deadline)
        if float(weights[tree].sum()) >= before - 1e-12 * abs(before):
            break
    return tree


def spanning_tree_within(instance: STPInstance, candidates: np.ndarray, weights: np.ndarray) -> np.ndarray | None:
    """The pruned minimum spanning tree of the graph made of these edge indices, or None when it does not
    connect the terminals (turns any connected edge set into a tree that costs no more)."""
    if len(instance.terminals) < 2:
        return np.zeros(0, dtype=np.int64)
    forest = _mst(instance, np.unique(candidates), weights)
    ends = instance.edges[forest]
    labels = connected_components(coo_matrix((np.ones(len(forest)), (ends[:, 0], ends[:, 1])), shape=(instance.n,) * 2), directed=False)[1]
    if np.any(labels[instance.terminals] != labels[instance.terminals[0]]):
        return None
    return prune(instance, forest[labels[ends[:, 0]] == labels[instance.terminals[0]]])


def heuristic_tree(instance: STPInstance, root: int, weights: np.ndarray) -> np.ndarray:
    """Takahashi-Matsuyama from ``root``, then the pruned spanning tree of its vertices."""
    if len(instance.terminals) < 2:
        return np.zeros(0, dtype=np.int64)
    return mst_prune(instance, shortest_path_tree(instance, root, weights), weights)


def iterated_search(instance: STPInstance, seed: int, deadline: float, noise: float = 0.05) -> Iterator[np.ndarray]:
    """Yield better and better trees: Takahashi-Matsuyama from a terminal, improved; then, again and again, the
    local search on weights perturbed by up to ``noise`` (so that ties and near-ties break anew), started
    alternately from the best tree so far (kept when it costs no more: a walk over plateaus) and from a new
    shortest-path tree of another root. Ends at ``deadline`` or after ``max(50, 10 k)`` starts in a row without
    a better tree (k terminals)."""
    rng = np.random.default_rng(seed)
    roots = rng.permutation(instance.terminals).tolist()
    weights = search_weights(instance)
    best_tree = heuristic_tree(instance, roots[0], weights)
    best = tree_cost(instance, best_tree)
    yield best_tree
    if len(instance.terminals) <= 2:
        return
    stall, patience, start = 0, max(50, 10 * len(instance.terminals)), 0
    while stall < patience and time.monotonic() < deadline:
        if start:
            weights = search_weights(instance, noise, rng)
        origin = best_tree if start % 2 == 0 else heuristic_tree(instance, roots[(start // 2 + 1) % len(roots)], weights)
        tree = improve(instance, origin, weights, deadline)
        cost = tree_cost(instance, tree)
        stall = 0 if cost < best else stall + 1
        if cost < best:
            yield tree
        if cost <= best:
            best_tree, best = tree, cost
        start += 1


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk; a fresh cache takes seconds): for a solver's setup."""
    instance = STPInstance.build("warm", 4, [[0, 1], [1, 2], [2, 3], [0, 3], [0, 2]], [1, 1, 1, 1, 3], [0, 1, 3])
    weights = search_weights(instance)
    improve(instance, heuristic_tree(instance, 0, weights), weights, time.monotonic() + 30.0)
