"""From a road graph to a city: the largest strongly connected component, N points sampled on road
segments with probability proportional to length (RRNCO's recipe) and inserted into the graph where
they lie, then directed shortest-path distances (km) and fastest travel times (min) between them by
Dijkstra from every point (scipy.sparse.csgraph)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, dijkstra

from frontierco.problems.routing.cities.osm import RoadGraph, travel_minutes

CHUNK = 64


def largest_strong_component(graph: RoadGraph) -> RoadGraph:
    """The subgraph on the largest strongly connected component, nodes renumbered."""
    n = graph.num_nodes
    adjacency = sp.csr_matrix((np.ones(graph.num_edges), (graph.source, graph.target)), shape=(n, n))
    _, labels = connected_components(adjacency, directed=True, connection="strong")
    keep = labels == np.bincount(labels).argmax()
    renumber = np.cumsum(keep) - 1
    inside = keep[graph.source] & keep[graph.target]
    return RoadGraph(
        graph.lat[keep],
        graph.lon[keep],
        renumber[graph.source[inside]],
        renumber[graph.target[inside]],
        graph.length_m[inside],
        graph.speed_kmh[inside],
    )


@dataclass(frozen=True, eq=False)
class SampledNetwork:
    """The road graph with the sampled points inserted; ``points`` are their node indices."""

    graph: RoadGraph
    points: np.ndarray


def sample_points(graph: RoadGraph, count: int, seed: int) -> SampledNetwork:
    """Sample ``count`` points uniformly along the road network (a segment with probability proportional
    to its length, a uniform position on it) and split the segments there, in every direction the road
    may be driven."""
    rng = np.random.default_rng(seed)
    a, b = np.minimum(graph.source, graph.target), np.maximum(graph.source, graph.target)
    segments, first = np.unique(np.stack([a, b], axis=1), axis=0, return_index=True)
    lengths = graph.length_m[first]
    chosen = rng.choice(len(segments), size=count, p=lengths / lengths.sum())
    fractions = rng.random(count)
    on_segment: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for k, (segment, fraction) in enumerate(zip(chosen.tolist(), fractions.tolist(), strict=True)):
        on_segment[segment].append((fraction, k))
    n = graph.num_nodes
    lat, lon = list(graph.lat), list(graph.lon)
    point_nodes = np.empty(count, dtype=np.int64)
    directed = {(int(u), int(v)): k for k, (u, v) in enumerate(zip(graph.source, graph.target, strict=True))}
    drop: set[int] = set()
    source, target, length, speed = [], [], [], []
    for segment, placed in on_segment.items():
        u, v = (int(x) for x in segments[segment])
        placed.sort()
        chain = [u]
        for fraction, k in placed:
            node = n + len(lat) - graph.num_nodes
            lat.append(graph.lat[u] + fraction * (graph.lat[v] - graph.lat[u]))
            lon.append(graph.lon[u] + fraction * (graph.lon[v] - graph.lon[u]))
            point_nodes[k] = node
            chain.append(node)
        chain.append(v)
        offsets = np.array([0.0] + [f for f, _ in placed] + [1.0])
        for start, end, reverse in ((u, v, False), (v, u, True)):
            edge = directed.get((start, end))
            if edge is None:
                continue
            drop.add(edge)
            pieces = np.diff(offsets) * graph.length_m[edge]
            nodes = chain[::-1] if reverse else chain
            pieces = pieces[::-1] if reverse else pieces
            for (x, y), piece in zip(zip(nodes[:-1], nodes[1:], strict=True), pieces, strict=True):
                source.append(x)
                target.append(y)
                length.append(piece)
                speed.append(graph.speed_kmh[edge])
    keep = np.ones(graph.num_edges, dtype=bool)
    keep[list(drop)] = False
    inserted = RoadGraph(
        np.array(lat),
        np.array(lon),
        np.concatenate([graph.source[keep], np.array(source, dtype=np.int64)]),
        np.concatenate([graph.target[keep], np.array(target, dtype=np.int64)]),
        np.concatenate([graph.length_m[keep], np.array(length)]),
        np.concatenate([graph.speed_kmh[keep], np.array(speed)]),
    )
    return SampledNetwork(inserted, point_nodes)


def _matrix(graph: RoadGraph, weights: np.ndarray, points: np.ndarray) -> np.ndarray:
    n = graph.num_nodes
    # duplicate arcs keep their smallest weight: build with the minimum per (u, v)
    order = np.lexsort((weights, graph.target, graph.source))
    u, v, w = graph.source[order], graph.target[order], weights[order]
    first = np.concatenate(([True], (u[1:] != u[:-1]) | (v[1:] != v[:-1])))
    adjacency = sp.csr_matrix((w[first], (u[first], v[first])), shape=(n, n))
    # sources in chunks, keeping only the point columns: memory stays at CHUNK x nodes, not points x nodes
    rows = [dijkstra(adjacency, directed=True, indices=points[k : k + CHUNK])[:, points] for k in range(0, len(points), CHUNK)]
    return np.vstack(rows)


def distance_duration(network: SampledNetwork) -> tuple[np.ndarray, np.ndarray]:
    """Shortest road distance (km) and fastest travel time (min) between every ordered pair of points."""
    graph = network.graph
    distance = _matrix(graph, graph.length_m, network.points) / 1000.0
    duration = _matrix(graph, travel_minutes(graph.length_m, graph.speed_kmh), network.points)
    return distance, duration
