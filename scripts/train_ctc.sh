#!/usr/bin/env bash
# The recipe of the shipped CTC checkpoints (one CPU thread each, two families at once):
# - setcover: 24 training and 4 dev instances at the milp-setcover-easy size, labelled by SCIP (20 s each,
#   kept in runs/ctc/setcover/labels-v2), 20 epochs, the half convolutions' MLP message;
# - indset (version 6): 40 training and 4 dev instances at the milp-indset-hard size (BA 1500, 4), labelled by
#   SCIP (30 s each, runs/ctc/indset/labels-v2-hard), 30 epochs, linear messages;
# - cauction, facility (version 7): 40 training and 4 dev instances at the hard sizes, labelled by two SCIP
#   solves of 20 s each (seed shifts 0 and 1, pooled: runs/ctc/FAMILY/labels-v2-hard-s2), 30 epochs, linear;
# then each is calibrated on the dev split of its milp-FAMILY-hard collection (the best stored reference runs)
# and its trust tuned there by ctc-scip's primal integral (60 s runs under the harness: 16 to 20 per family).
set -euo pipefail
easy() { frontierco train ctc --family "$1" --train 24 --dev 4 --label-time 20 --epochs 20 --message mlp; }
hard() { frontierco train ctc --family "$1" --size hard --train 40 --dev 4 --label-time "$2" --label-seeds "$3" --epochs 30 --message linear; }
calibrate() { frontierco train ctc --family "$1" --calibrate "milp-$1-hard" && frontierco train ctc --family "$1" --tune "milp-$1-hard"; }
mkdir -p runs/ctc
(easy setcover > runs/ctc/setcover.log 2>&1; hard cauction 20 2 > runs/ctc/cauction.log 2>&1) &
(hard facility 20 2 > runs/ctc/facility.log 2>&1; hard indset 30 1 > runs/ctc/indset.log 2>&1) &
wait
for family in setcover indset cauction facility; do calibrate "$family"; done
tail -n 1 runs/ctc/*.log
