#!/usr/bin/env bash
# DeepSeek-V3's fp8_gemm_kernel (bench/kernels/probe_generality2.tile, body
# as published) at some of its own configs (8 warps, BLOCK_SIZE_K 128), as
# written (no --signature), for bench/fp8_gemm_bench.py.
#   OUT=.carry/fp8_gemm N=4096 K=7168 bash bench/build_fp8_gemm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.carry/fp8_gemm}
N=${N:-4096}
K=${K:-7168}
TILEC=${TILEC:-build/bin/tilec}
rm -rf "$OUT" && mkdir -p "$OUT"
for cfg in "64 128 4" "64 128 6" "32 128 4" "64 64 4"; do
  set -- $cfg
  "$TILEC" bench/kernels/probe_generality2.tile -k fp8_gemm_kernel \
    -D N=$N -D K=$K -D BLOCK_SIZE_M=$1 -D BLOCK_SIZE_N=$2 -D BLOCK_SIZE_K=128 \
    --num-warps 8 --num-stages $3 -o "$OUT/fp8_gemm_${1}x${2}_s$3.ptx"
done
for f in "$OUT"/*.ptx; do
  printf '%s: ' "$(basename "$f")"
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 |
    grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' '
  grep -oE "wgmma.mma_async.sync.aligned.m64n[0-9]+k32|mma.sync.aligned.m16n8k(16|32)" "$f" | sort | uniq -c | tr '\n' ' '
  echo
done
