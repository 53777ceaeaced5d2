#!/usr/bin/env bash
# On the device machine, one call: tutorial 03 as published (autotuned over
# its sixteen configs) against cuBLAS and Triton at 4096^3 and 8192^3 in
# bf16, with B transposed (A @ W^T, fp16), and on fp32 inputs (tf32 tensor
# cores against cuBLAS's tf32), 5 interleaved rounds each, every config
# checked against float64 first. Needs .carry/bundle_dtypes.tar.xz holding
# matmul_bf16, matmul_bt and matmul_fp32, built here by
#   MATMUL_SRC=bench/kernels/matmul_tutorial03.tile OUT=.carry/matmul_bf16 DTYPE=bf16 bash bench/build_matmul.sh
#   ... OUT=.carry/matmul_bt LAYOUT=bt ...;  ... OUT=.carry/matmul_fp32 DTYPE=fp32 ...
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
tar xJf .carry/bundle_dtypes.tar.xz -C .carry
SIZES=${SIZES:-4096x4096x4096,8192x8192x8192}
python3 bench/matmul_bench.py .carry/matmul_bf16 "$LOG/matmul_bf16.log" \
  --sizes "$SIZES" --grouping "" --dtype bf16 | grep -E "^RESULT|FAIL|autotuned" | tail -6
python3 bench/matmul_bench.py .carry/matmul_bt "$LOG/matmul_bt.log" \
  --sizes "$SIZES" --grouping "" --bt | grep -E "^RESULT|FAIL|autotuned" | tail -6
python3 bench/matmul_bench.py .carry/matmul_fp32 "$LOG/matmul_tf32.log" \
  --sizes "$SIZES" --grouping "" --dtype fp32 | grep -E "^RESULT|FAIL|autotuned" | tail -6
