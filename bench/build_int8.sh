#!/usr/bin/env bash
# Compile bench/kernels/int8_matmul.tile with the facts the JIT would give
# bench/int8_bench.py's arguments (A row-major, B the transpose of an N x K
# int8 weight, sizes multiples of 16) at three tiles. Runs here; outputs to
# .carry/int8 (OUT=...).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/int8}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="a_ptr=*i8:16,b_ptr=*i8:16,c_ptr=*i32:16,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:1,stride_bn=i32:16,stride_cm=i32:16,stride_cn=i32:1"
# The first three: wgmma's s8 form; the last three (under 64 rows, for
# int8_bench.py --small): mma.sync's m16n8k32.
for cfg in "128 256 128 8 3" "128 128 128 8 4" "128 128 64 4 4" \
           "32 128 128 4 4" "32 64 128 4 4" "16 128 128 4 4"; do
  set -- $cfg
  "$TILEC" bench/kernels/int8_matmul.tile -D BLOCK_M=$1 -D BLOCK_N=$2 \
    -D BLOCK_K=$3 --num-warps $4 --num-stages $5 --signature "$SIG" \
    -o "$OUT/int8_$1x$2x$3w$4.ptx"
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/int8_$1x$2x$3w$4.ptx" \
    -o /dev/null 2>&1 | grep -E "spill|Used" | sed "s/^/$1x$2x$3w$4: /"
done
