#!/usr/bin/env bash
# Compile Triton 3.2's tutorial kernels (bench/kernels/tutorials_triton32.tile)
# for bench/tutorials_triton32_bench.py: tutorial 09's flat persistent
# matmuls at the tutorial's fp16 config (pointers, host-made and in-kernel
# descriptors) and tutorial 06's _attn_fwd_tma at a few of its
# configs for each N_CTX (a constexpr there), head dim and stage. Runs on the
# development machine; the outputs go to ${OUT:-.carry/tutorials_triton32}.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/tutorials_triton32}
SRC=bench/kernels/tutorials_triton32.tile
rm -rf "$OUT" && mkdir -p "$OUT"
MATMUL="-D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=256 -D BLOCK_SIZE_K=64
        -D GROUP_SIZE_M=8 -D NUM_SMS=132 --num-warps 8 --num-stages 3"
"$TILEC" $SRC -k matmul_kernel_persistent $MATMUL -o "$OUT/pointers.ptx"
"$TILEC" $SRC -k matmul_kernel_tma_persistent $MATMUL -D FP8_OUTPUT=False \
  -o "$OUT/host.ptx"
"$TILEC" $SRC -k matmul_kernel_device_tma_persistent $MATMUL \
  -D tiles_per_update=1 -o "$OUT/device.ptx"
for n in ${ATTN_N:-1024 4096}; do
  for d in 64 128; do
    for stage in 1 3; do
      for cfg in "128 128 8 3" "128 64 4 3" "64 64 4 4"; do
        set -- $cfg
        # tl.static_assert(BLOCK_N <= HEAD_DIM): Triton skips the config.
        [ "$2" -le "$d" ] || continue
        "$TILEC" $SRC -k _attn_fwd_tma -D N_CTX=$n -D HEAD_DIM=$d \
          -D BLOCK_M=$1 -D BLOCK_N=$2 -D FP8_OUTPUT=False -D STAGE=$stage \
          --num-warps $3 --num-stages $4 \
          -o "$OUT/attn_n${n}_d${d}_s${stage}_${1}x${2}w${3}.ptx"
      done
    done
  done
done
for f in "$OUT"/*.ptx; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a "$f" -o /dev/null
done
ls "$OUT" | wc -l
