#!/usr/bin/env bash
# Compile the tensor-descriptor matmul (examples/matmul_descriptor.tile,
# every config) for bench/descriptor_bench.py. Runs on the development
# machine; the outputs go to ${OUT:-.carry/descriptor}.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/descriptor}
rm -rf "$OUT" && mkdir -p "$OUT"
"$TILEC" examples/matmul_descriptor.tile --all-configs \
  -o "$OUT/matmul_descriptor.ptx" ${TILEC_FLAGS:-}
/usr/local/cuda/bin/ptxas -arch=sm_90a "$OUT/matmul_descriptor.ptx" -o /dev/null
ls "$OUT"
