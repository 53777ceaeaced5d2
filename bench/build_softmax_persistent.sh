#!/usr/bin/env bash
# Compile Triton's tutorial-02 persistent softmax
# (bench/kernels/softmax_persistent.tile) as the tutorial launches it:
# BLOCK_SIZE the next power of two of the row, 8 warps, num_stages 4 (the
# tutorial's choice where shared memory exceeds 200 KB). Two builds per
# size: the parameters typed only (as tilec compiles a kernel without
# hints: a guarded fast path beside the general one), and with the facts
# the JIT would give these arguments. Runs here; the GPU part is
# bench/softmax_persistent_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/softmax_persistent}
rm -rf "$OUT" && mkdir -p "$OUT"
TYPES="output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_cols=i32"
FACTS="output_ptr=*fp32:16,input_ptr=*fp32:16,input_row_stride=i32:16,output_row_stride=i32:16,n_rows=i32:16,n_cols=i32:16"
for n in 256 1024 4096 16384; do
  for variant in written jit; do
    sig=$TYPES
    [ $variant = jit ] && sig=$FACTS
    "$TILEC" bench/kernels/softmax_persistent.tile -D BLOCK_SIZE=$n \
      -D num_stages=4 --num-warps 8 --signature "$sig" \
      -o "$OUT/softmax_${variant}_$n.ptx"
    /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/softmax_${variant}_$n.ptx" \
      -o "$OUT/softmax_${variant}_$n.cubin" 2> "$OUT/softmax_${variant}_$n.ptxas.txt"
  done
done
