"""pyvrp-decomp's routes per subproblem, iterations per subproblem and savings shapes on large generated CVRPs (issue 40): the dev
instances that chose its defaults, never FrontierCO's XXL set. One in-process run per instance and setting;
prints the final length and its ratio to savings and to the best of the settings on that instance.

    python benchmarks/cvrp_decomp_ladder.py --seconds 60 --n 5000 --settings 10:100:3200:1 10:100:3200:4
"""

from __future__ import annotations

import argparse
import time

from frontierco.problems.routing.cvrp import routes_length
from frontierco.problems.routing.generators import cvrp_xlike
from frontierco.solver import Budget, get_solver

# dev instances: X recipe (Uchoa et al. 2017) at XXL sizes, short (r = 15) and long (r = 90) routes, depot
# central and eccentric, as the Belgian XXL set mixes them
DEV = (("C", "R", 15.0, 1), ("E", "RC", 90.0, 2), ("C", "C", 90.0, 3), ("E", "R", 15.0, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--settings", nargs="+", default=["10:100:3200:4"], help="routes:iterations:max_iterations:shapes")
    args = parser.parse_args()
    solver_class = get_solver("pyvrp-decomp").load()
    for depot, customers, route_size, seed in DEV:
        instance = cvrp_xlike(f"dev-{seed}", seed, args.n, depot, customers, "1-100", route_size).instance
        lengths: dict[str, float] = {}
        first = None
        for setting in args.settings:
            size, iterations, most, shapes = (int(x) for x in setting.split(":"))
            solver = solver_class(routes=size, iterations=iterations, max_iterations=most, shapes=shapes)
            started = time.perf_counter()
            last = None
            for count, solution in enumerate(solver.solve(instance, Budget(args.seconds, seed=1))):
                last = solution
                if count == 0:
                    first = routes_length(instance.weights, list(solution.routes))
            assert last is not None and first is not None
            lengths[setting] = routes_length(instance.weights, list(last.routes))
            print(
                f"{instance.name} depot {depot} {customers} r={route_size:g} {setting}: {time.perf_counter() - started:.0f} s, "
                f"{lengths[setting]:.0f} ({100 * (lengths[setting] / first - 1):+.2f}% on savings)",
                flush=True,
            )
        best = min(lengths.values())
        print(instance.name, " ".join(f"{s} {100 * (v / best - 1):+.2f}%" for s, v in lengths.items()), flush=True)


if __name__ == "__main__":
    main()
