#!/usr/bin/env bash
# The first committed results (issue 4): classical solvers on the real collections, resumable.
# Run from the project root with the virtual environment active; re-running skips finished runs.
set -euo pipefail
JOBS=${JOBS:-2}
run() { frontierco run --jobs "$JOBS" "$@" >/dev/null; echo "done: $*"; }

for solver in scip highs; do run --solver "$solver" --problem milp --collection miplib-small --time-limit 60; done
for solver in savings pyvrp hgs ortools; do run --solver "$solver" --problem cvrp --collection cvrplib-x --max-size 301 --time-limit 30; done
for solver in nn-2opt lkh ortools; do run --solver "$solver" --problem tsp --collection tsplib --max-size 1002 --time-limit 30; done
for solver in greedy chils cpsat; do run --solver "$solver" --problem mis --collection bhoslib --max-size 945 --time-limit 30; done
for solver in greedy chils cpsat; do run --solver "$solver" --problem mis --collection satlib-mis --limit 40 --time-limit 30; done
for solver in nn-2opt lkh ortools; do run --solver "$solver" --problem tsp --collection tsplib --max-size 2000 --time-limit 30; done
