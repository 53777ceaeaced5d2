#!/usr/bin/env bash
# Compile the generality probe (bench/kernels/probe_misc.tile) with the
# facts the JIT would give bench/probe_misc_bench.py's arguments, at the
# launch settings the script uses. Runs here; outputs to .carry/probe.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/probe}
rm -rf "$OUT" && mkdir -p "$OUT"
K=bench/kernels/probe_misc.tile
"$TILEC" $K -k matmul_splitk -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 \
  -D SPLIT_K=4 --num-warps 4 --num-stages 3 \
  --signature "a_ptr=*fp16:16,b_ptr=*fp16:16,c_ptr=*fp32:16,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:16,stride_bn=i32:1,stride_cm=i32:16,stride_cn=i32:1" \
  -o "$OUT/splitk.ptx"
"$TILEC" $K -k rope -D n_heads=32 -D HALF=64 --num-warps 4 \
  --signature "q_ptr=*fp16:16,cos_ptr=*fp16:16,sin_ptr=*fp16:16,q_row_stride=i32:16,cos_row_stride=i32:16,seq_len=i32:16" \
  -o "$OUT/rope.ptx"
"$TILEC" $K -k quantize_rows -D BLOCK=4096 --num-warps 8 \
  --signature "x_ptr=*fp16:16,y_ptr=*i8:16,scale_ptr=*fp32:16,n_cols=i32:16,stride=i32:16" \
  -o "$OUT/quant.ptx"
for f in splitk rope quant; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/$f.ptx" -o "$OUT/$f.cubin" \
    2> "$OUT/$f.ptxas.txt"
done
