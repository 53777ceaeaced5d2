#!/usr/bin/env bash
# Compile the large-block sum of bench/large_block_sum_bench.py (a whole
# 2^17 or 2^18-element block summed by one program of 4 warps, as
# tritonbench's scalar-result sum launches it) as written, with ptxas's
# report beside each. OUT (default .carry/large_sum) and TILEC build a
# baseline elsewhere (a build before the change: only the sizes it accepts).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
OUT=${OUT:-.carry/large_sum}
rm -rf "$OUT" && mkdir -p "$OUT"
for block in 131072 262144; do
  if "$TILEC" bench/kernels/large_block_sum.tile -D BLOCK=$block --num-warps 4 \
      -o "$OUT/sum_$block.ptx" 2> "$OUT/sum_$block.err"; then
    "$PTXAS" -arch=sm_90a -v "$OUT/sum_$block.ptx" -o "$OUT/sum_$block.cubin" 2>&1 |
      grep -E "spill|Used" | tee "$OUT/sum_$block.ptxas.txt"
  else
    echo "sum_$block: $(head -1 "$OUT/sum_$block.err")"
  fi
done
