#!/usr/bin/env bash
# Compile tritonbench's int4 GEMM (bench/kernels/probe_tritonbench.tile's
# matmul_kernel: bf16 A times int4 B packed two per byte, unpacked in the
# kernel by join / permute / reshape) with the facts the JIT would give
# bench/int4_bench.py's arguments, at tritonbench's small-M config and a
# 64-row one (wgmma). Runs here; outputs to .carry/int4 (OUT=...,
# TILEC=... for another build).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/int4}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="a_ptr=*bf16:16,b_ptr=*i8:16,c_ptr=*bf16:16,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:16,stride_bn=i32:1,stride_cm=i32:16,stride_cn=i32:1"
for cfg in "16 128 256 4 4" "64 128 128 4 4"; do
  set -- $cfg
  name="int4_$1x$2x$3w$4"
  "$TILEC" bench/kernels/probe_tritonbench.tile -k matmul_kernel \
    -D BLOCK_SIZE_M=$1 -D BLOCK_SIZE_N=$2 -D BLOCK_SIZE_K=$3 \
    -D GROUP_SIZE_M=32 --num-warps $4 --num-stages $5 --signature "$SIG" \
    -o "$OUT/$name.ptx"
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/$name.ptx" \
    -o /dev/null 2>&1 | grep -E "spill|Used" | sed "s/^/$name: /"
done
