#!/usr/bin/env bash
# Compile tutorial 05's layer-norm backward (examples/layernorm_bwd.tile)
# as a user would (no --signature: the guarded fast path decides alignment
# at run time), at the tutorial's launch settings for each N of
# bench/layernorm_bwd_bench.py: BLOCK_SIZE_N = next power of two >= N,
# warps = BLOCK_SIZE_N / 256 clamped to [1, 8], GROUP_SIZE_M = 256 / 128 /
# 96 for N <= 1024 / 4096 / 8192; the dw/db kernel at 32x128 on 4 warps.
# Outputs in $OUT (default .carry/layernorm_bwd), with ptxas's report.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
OUT=${OUT:-.carry/layernorm_bwd}
rm -rf "$OUT" && mkdir -p "$OUT"
for n in 1024 4096 8192; do
  warps=$((n / 256)); [ $warps -gt 8 ] && warps=8
  group=96; [ $n -le 4096 ] && group=128; [ $n -le 1024 ] && group=256
  $TILEC examples/layernorm_bwd.tile -k layer_norm_bwd_dx_fused \
    -D BLOCK_SIZE_N=$n -D GROUP_SIZE_M=$group --num-warps $warps \
    -o "$OUT/dx_$n.ptx"
done
$TILEC examples/layernorm_bwd.tile -k layer_norm_bwd_dwdb --num-warps 4 \
  -o "$OUT/dwdb.ptx"
for f in "$OUT"/*.ptx; do
  $PTXAS -arch=sm_90a -v "$f" -o "${f%.ptx}.cubin" 2>&1 |
    grep -E "spill|Used" > "${f%.ptx}.ptxas.txt"
done
grep -H "" "$OUT"/*.ptxas.txt
