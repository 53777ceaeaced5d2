#!/usr/bin/env bash
# Build bench/kernels/exchange_rounds.tile for bench/exchange_rounds_check.py:
# the load's unit stride along rows and the store's along columns, stated
# with --signature so that the one path converts the tile between them.
# Runs here; outputs in ${OUT:-.carry/rounds}.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/rounds}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="in_ptr=*fp16:16,out_ptr=*fp16:16,n_rows=i32,n_cols=i32,s_in=i32:1,s_in_f=i32:16,s_out=i32:16,s_out_f=i32:1"
for cfg in "4 32768 32" "16 16384 32" "8 4096 8" "4 1024 4"; do
  set -- $cfg
  "$TILEC" bench/kernels/exchange_rounds.tile -D BM=$1 -D BN=$2 --num-warps $3 \
    --signature "$SIG" --version-arguments=false -o "$OUT/r_$1_$2.ptx"
done
