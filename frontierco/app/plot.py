"""``frontierco plot RUN_ID``: draw an instance with a run's stored best solution (tour or routes over
the points or the city's latitude/longitude, the independent set on the graph)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontierco.app.verify import verify_run
from frontierco.errors import UsageError
from frontierco.problems import CVRPSolution, Instance, MISInstance, MISSolution, Solution, TSPSolution
from frontierco.registry import Registry
from frontierco.results import ResultStore

LAYOUT_LIMIT = 3000


def _points(instance: Instance) -> np.ndarray:
    coords = getattr(getattr(instance, "weights", None), "coords", None)
    if coords is None:
        raise UsageError(f"{instance.name} has no coordinates to draw")
    return coords[:, ::-1] if getattr(instance.weights, "rule", "") == "EXPLICIT" else coords  # type: ignore[union-attr]  # lat/lon -> x=lon


def draw(instance: Instance, solution: Solution, title: str, out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 7))
    if isinstance(solution, TSPSolution):
        xy = _points(instance)
        tour = np.append(solution.tour, solution.tour[:1])
        axis.plot(xy[tour, 0], xy[tour, 1], "-", lw=0.8)
        axis.scatter(xy[:, 0], xy[:, 1], s=6, zorder=3)
    elif isinstance(solution, CVRPSolution):
        xy = _points(instance)
        for k, route in enumerate(solution.routes):
            path = np.concatenate(([0], route, [0]))
            axis.plot(xy[path, 0], xy[path, 1], "-", lw=0.8, color=plt.cm.tab20(k % 20))
        axis.scatter(xy[1:, 0], xy[1:, 1], s=6, zorder=3, color="black")
        axis.scatter(xy[:1, 0], xy[:1, 1], s=80, marker="s", zorder=4, color="red", label="depot")
        axis.legend()
    elif isinstance(solution, MISSolution) and isinstance(instance, MISInstance):
        if instance.n > LAYOUT_LIMIT:
            raise UsageError(f"{instance.n} vertices are too many to lay out (at most {LAYOUT_LIMIT})")
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(instance.n))
        graph.add_edges_from(instance.edges.tolist())
        position = nx.spring_layout(graph, seed=0)
        chosen = np.zeros(instance.n, dtype=bool)
        chosen[solution.vertices] = True
        nx.draw_networkx_edges(graph, position, ax=axis, alpha=0.15, width=0.5)
        nx.draw_networkx_nodes(graph, position, ax=axis, node_size=12, node_color=np.where(chosen, "crimson", "lightgray"))
    else:
        raise UsageError("only routing tours/routes and independent sets can be drawn")
    axis.set_title(title)
    axis.set_aspect("equal", adjustable="datalim")
    figure.savefig(out, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return out


def plot_run(store: ResultStore, run_id: str, out: Path, registry: Registry) -> Path:
    """Draw a stored run's best solution, after re-verifying it."""
    check = verify_run(store, run_id, registry)
    record = check.record
    title = f"{record.solver} on {record.instance}: {record.problem} objective {check.evaluation.objective:.6g} ({record.status})"
    return draw(check.instance, check.solution, title, out)
