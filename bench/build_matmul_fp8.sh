#!/usr/bin/env bash
# Compile bench/kernels/matmul_fp8.tile (tutorial 03's fp8 run) for
# bench/matmul_fp8_bench.py: every config, e4m3 and e5m2, with the facts
# Triton's JIT gives the tutorial's arguments at 4096^3 (sizes and strides
# multiples of 16, the unit strides 1: B is K-major); and an N-major B
# (stride_bn = 1), which wgmma's fp8 form cannot read and which therefore
# runs on fp16 widenings. Outputs and ptxas facts go to .carry/matmul_fp8.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/matmul_fp8}
rm -rf "$OUT" && mkdir -p "$OUT"
INTS="M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_cm=i32:16,stride_ak=i32:1,stride_cn=i32:1"
for fp8 in fp8e4nv fp8e5; do
  PTRS="a_ptr=*$fp8:16,b_ptr=*$fp8:16,c_ptr=*fp16:16"
  "$TILEC" bench/kernels/matmul_fp8.tile --all-configs \
    --signature "$PTRS,$INTS,stride_bk=i32:1,stride_bn=i32:16" \
    -o "$OUT/matmul_${fp8}_kmajor.ptx"
  "$TILEC" bench/kernels/matmul_fp8.tile --all-configs \
    --signature "$PTRS,$INTS,stride_bk=i32:16,stride_bn=i32:1" \
    -o "$OUT/matmul_${fp8}_nmajor.ptx"
done
for f in "$OUT"/*.ptx; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null \
    2> "${f%.ptx}.ptxas.txt"
done
grep -H -E "spill" "$OUT"/*.ptxas.txt | grep -v " 0 bytes spill stores" || true
grep -c wgmma.mma_async.sync.aligned.m64n.*k32 "$OUT"/*.ptx
