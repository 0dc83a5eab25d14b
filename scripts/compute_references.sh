#!/usr/bin/env bash
# Reference values for the generated collections: the strongest solver per problem at 100 s per instance
# (10x the default benchmark limit of `frontierco run`), seed 0, written into the manifests with provenance.
# Resumable: runs already in leaderboards/references/ are not redone. Run from the project root.
set -euo pipefail
JOBS=${JOBS:-2}
ref() { frontierco reference compute "$1" --solver "$2" --time-limit 100 --jobs "$JOBS"; }

ref tsp-uniform-100 exact-tsp
ref mis-er-700 chils
ref milp-setcover-easy scip
ref milp-cauction-easy scip
ref milp-indset-easy scip
ref milp-facility-easy scip
ref milp-setcover-medium scip
ref milp-indset-medium scip
ref milp-cauction-medium scip
ref tsp-uniform-500 lkh
ref tsp-uniform-1000 lkh
ref cvrp-uniform-50 pyvrp
ref cvrp-uniform-100 pyvrp
ref cvrp-xlike-200 pyvrp
for family in atsp acvrp acvrptw; do
  for n in 50 100; do
    if [ "$family" = atsp ]; then ref "realcity-$family-$n" lkh; else ref "realcity-$family-$n" pyvrp; fi
  done
done
