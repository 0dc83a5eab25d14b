#!/usr/bin/env bash
# The recipe of the shipped RRNCO checkpoints: the four checkpoints train side by side (one process each), each
# first at 50 customers (nodes for atsp) for PHASE1 seconds, then at 100 from those weights for PHASE2 seconds.
# The final checkpoints, cards, logs and curves go to EXPORT. Run from the project root; GPU when present.
set -euo pipefail
PHASE1=${PHASE1:-150}
PHASE2=${PHASE2:-270}
OUTDIR=${OUTDIR:-runs/rrnco}
EXPORT=${EXPORT:-solvers/rrnco/checkpoints}
BATCH1=${BATCH1:-256}
BATCH2=${BATCH2:-128}
EXTRA=${EXTRA:-}
train() { python3 -c 'import sys; from frontierco.solver import load_solver_module; load_solver_module("rrnco", "train").main(sys.argv[1:])' "$@"; }
one() {
  local name=$1
  train --problem "$name" --size 50 --batch "$BATCH1" --epochs 1000 --steps 50 --time-budget "$PHASE1" --out "$OUTDIR/phase1" --export "$OUTDIR/phase1" $EXTRA
  train --problem "$name" --size 100 --batch "$BATCH2" --epochs 1000 --steps 50 --time-budget "$PHASE2" --out "$OUTDIR" --init "$OUTDIR/phase1/$name/state.pt" --export "$EXPORT" $EXTRA
}
mkdir -p "$OUTDIR"
for name in ${NAMES:-acvrp atsp cvrp acvrptw}; do
  one "$name" > "$OUTDIR/$name.log" 2>&1 &
done
wait
