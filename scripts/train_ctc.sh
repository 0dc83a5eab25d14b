#!/usr/bin/env bash
# The recipe of the shipped CTC checkpoints: per family, label 24 training and 4 dev instances with SCIP
# (20 s each, kept in runs/ctc/FAMILY/labels-v2), then train 20 epochs on one CPU thread. Two families at once.
set -euo pipefail
EPOCHS=${EPOCHS:-20}
train() { frontierco train ctc --family "$1" --train 24 --dev 4 --label-time 20 --epochs "$EPOCHS" "${@:2}"; }
mkdir -p runs/ctc
(train setcover > runs/ctc/setcover.log 2>&1; train cauction > runs/ctc/cauction.log 2>&1) &
(train facility > runs/ctc/facility.log 2>&1; train indset > runs/ctc/indset.log 2>&1) &
wait
tail -n 1 runs/ctc/*.log
