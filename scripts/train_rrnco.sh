#!/usr/bin/env bash
# The recipe of the shipped RRNCO checkpoints (issue 13), one checkpoint after another, each in one process:
#   1. teacher solutions for 100-customer training instances (PyVRP / LKH, TEACHER_SECONDS each, WORKERS
#      processes; cached under runs/rrnco/teacher and reused: generate them on a CPU machine beforehand and
#      carry the folder to a GPU machine),
#   2. imitation (teacher forcing) from the weights in EXPORT for IMITATE seconds,
#   3. POMO reinforcement learning from the imitation weights for RL seconds (skipped when RL=0).
# The final checkpoints, cards, logs and curves go to EXPORT. Run from the project root; the GPU when present.
#   NAMES="acvrp atsp" IMITATE=900 RL=0 scripts/train_rrnco.sh            # this CPU: imitation only
#   IMITATE=60 RL=100 BATCH_IL=256 BATCH_RL=1024 EXTRA="--amp --compile" scripts/train_rrnco.sh   # one GPU window
set -euo pipefail
NAMES=${NAMES:-acvrp atsp cvrp acvrptw}
IMITATE=${IMITATE:-900}
RL=${RL:-0}
BATCH_IL=${BATCH_IL:-16}
BATCH_RL=${BATCH_RL:-64}
TEACHER=${TEACHER:-1600}
TEACHER_SECONDS=${TEACHER_SECONDS:-0.5}
WORKERS=${WORKERS:-1}
THREADS=${THREADS:-1}
OUTDIR=${OUTDIR:-runs/rrnco}
EXPORT=${EXPORT:-solvers/rrnco/checkpoints}
PYTHON=${PYTHON:-python3}
EXTRA=${EXTRA:-}  # more options for both training runs, e.g. --amp --compile on a GPU
train() { "$PYTHON" -c 'import sys; from frontierco.solver import load_solver_module; load_solver_module("rrnco", "train").main(sys.argv[1:])' "$@"; }
for name in $NAMES; do
  for shard in $(seq 0 $((WORKERS - 1))); do
    train --problem "$name" --size 100 --teacher-only --teacher-count "$TEACHER" --teacher-time "$TEACHER_SECONDS" --teacher-shard "$shard/$WORKERS" --threads 1 &
  done
  wait
  imitated="$OUTDIR/imitate"
  [ "$RL" = 0 ] && imitated_export="$EXPORT" || imitated_export="$imitated"
  train --problem "$name" --size 100 --imitate --teacher-count "$TEACHER" --teacher-time "$TEACHER_SECONDS" --batch "$BATCH_IL" \
    --epochs 100000 --steps 100 --time-budget "$IMITATE" --threads "$THREADS" --out "$imitated" --init "$EXPORT/$name.pt" --export "$imitated_export" $EXTRA
  if [ "$RL" != 0 ]; then
    train --problem "$name" --size 100 --batch "$BATCH_RL" --epochs 100000 --steps 50 --time-budget "$RL" --threads "$THREADS" \
      --out "$OUTDIR/rl" --init "$imitated/$name/state.pt" --export "$EXPORT" $EXTRA
  fi
done
