#!/usr/bin/env bash
# The recipe of the shipped CTC checkpoints (one CPU thread each, two families at once):
# - setcover, cauction, facility: 24 training and 4 dev instances at the milp-FAMILY-easy sizes, labelled by
#   SCIP (20 s each, kept in runs/ctc/FAMILY/labels-v2), 20 epochs, the half convolutions' MLP message;
# - indset (version 6): 40 training and 4 dev instances at the milp-indset-hard size (BA 1500, 4), labelled by
#   SCIP (30 s each, runs/ctc/indset/labels-v2-hard), 30 epochs, linear messages;
# then each is calibrated on the dev split of its milp-FAMILY-hard collection (the best stored reference runs).
set -euo pipefail
easy() { frontierco train ctc --family "$1" --train 24 --dev 4 --label-time 20 --epochs 20 --message mlp; }
hard() { frontierco train ctc --family "$1" --size hard --train 40 --dev 4 --label-time 30 --epochs 30 --message linear; }
calibrate() { frontierco train ctc --family "$1" --calibrate "milp-$1-hard"; }
mkdir -p runs/ctc
(easy setcover > runs/ctc/setcover.log 2>&1; easy cauction > runs/ctc/cauction.log 2>&1) &
(easy facility > runs/ctc/facility.log 2>&1; hard indset > runs/ctc/indset.log 2>&1) &
wait
for family in setcover indset; do calibrate "$family"; done
tail -n 1 runs/ctc/*.log
