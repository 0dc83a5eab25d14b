"""mis-search's three searches alone, per instance: the ladder that chose which of them take turns where.

Each search starts from the same local optimum (ARW's local search from the greedy set) and runs alone for the
given CPU seconds (process time, so that a loaded machine changes how far a search gets, not what it is
charged): ``exact`` the branch and bound on the complement, ``arw`` the iterated local search, ``numvc`` NuMVC,
``pls`` the phased local search on the complement.
Prints the largest set each found, when (CPU seconds), the leaderboard's gap |f - f*| / max(f, f*) to the
collection's reference, and whether the branch and bound finished (proved its set optimal).

    python benchmarks/mis_search_ladder.py --collection dimacs-mis --seconds 20 --instances brock400_2 C500.9
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from frontierco.kit import independent_set_search as ils
from frontierco.kit.solverkit import static_greedy_independent_set
from frontierco.problems import MISInstance
from frontierco.registry import Registry
from frontierco.solver import load_solver_module
from frontierco.workspace import Context

clique = load_solver_module("mis-search", "clique")
numvc = load_solver_module("mis-search", "numvc")
pls = load_solver_module("mis-search", "pls")
solver = load_solver_module("mis-search", "solver")
SEARCHES = ["exact", "arw", "numvc", "pls"]


def run_exact(instance: MISInstance, start: int, seconds: float) -> tuple[int, float, str]:
    began = time.process_time()
    search = clique.Clique(solver.complement(instance), start)
    best, when = start, 0.0
    while time.process_time() - began < seconds:
        status = search.search(solver.NODES)
        if status == clique.IMPROVED:
            best, when = len(search.found), time.process_time() - began
        if status == clique.FINISHED:
            return best, when, "proved"
    return best, when, ""


def run_local(step: Callable[[], bool], size: Callable[[], int], seconds: float) -> tuple[int, float, str]:
    began = time.process_time()
    best, when = size(), 0.0
    while time.process_time() - began < seconds:
        if step():
            best, when = size(), time.process_time() - began
    return best, when, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", default="dimacs-mis")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--searches", nargs="+", default=SEARCHES, choices=SEARCHES)
    parser.add_argument("--instances", nargs="+", required=True)
    args = parser.parse_args()
    for module in (clique, ils, numvc, pls):
        module.warm_up()
    registry = Registry.of(Context.discover())
    collection = registry.collection(args.collection)
    for name in args.instances:
        entry = collection.entry(name)
        instance = registry.load(entry)
        adjacency = instance.adjacency
        arw = ils.LocalSearch(adjacency.indptr, adjacency.indices, static_greedy_independent_set(instance), 0)
        start = arw.solution
        density = 2 * instance.m / max(1, instance.n * (instance.n - 1))
        for search in args.searches:
            if search == "exact":
                best, when, note = run_exact(instance, len(start), args.seconds)
            elif search == "arw":
                local = ils.LocalSearch(adjacency.indptr, adjacency.indices, start, 0)
                best, when, note = run_local(lambda s=local: s.run(64), lambda s=local: s.size, args.seconds)
            elif search == "numvc":
                cover = numvc.CoverSearch(instance.n, instance.edges, start, 0)
                best, when, note = run_local(lambda c=cover: c.run(solver.STEPS), lambda c=cover: c.size, args.seconds)
            else:
                phased = pls.PhasedSearch(solver.complement(instance), start, 0)
                best, when, note = run_local(lambda p=phased: p.run(solver.STEPS), lambda p=phased: p.size, args.seconds)
            reference = entry.require_reference().value
            gap = abs(best - reference) / max(best, reference)
            line = f"{name} n={instance.n} density={density:.2f} {search}: {best} at {when:.1f} s, gap {100 * gap:.2f}% {note}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
