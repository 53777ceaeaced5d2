#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): what the K loop's
# tail masks cost the tutorial matmul. Needs, under .carry/variants:
# var_base (bench/build_matmul_variant.sh on examples/matmul.tile) and
# var_nomask (the same kernel with the two loads' masks removed:
#   sed 's/, mask=offs_k\[None, :\] < K - k \* BLOCK_K, other=0.0//;
#        s/, mask=offs_k\[:, None\] < K - k \* BLOCK_K, other=0.0//'
# then MATMUL_SRC=that bench/build_matmul_variant.sh; K is a multiple of
# BLOCK_K at every size measured, so both compute the same).
# Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
(cd bench && python3 matmul_variants.py "$LOG/variants.log" ../.carry/variants/var_base \
  ../.carry/variants/var_nomask --configs 0,1,2 --rounds 7 \
  --sizes 2048x3072x768,4096x4096x4096,8192x8192x8192) 2>&1 |
  grep -E "^VARIANT|FAIL" | sed 's/..\/.carry\/variants\///g' | cut -c1-125
