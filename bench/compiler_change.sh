#!/usr/bin/env bash
# On the GPU machine: everything a compiler change must show in one call.
#   1. every example correct against float64 (gpu_correctness.py);
#   2. the matmul configs of this build against the same configs of a
#      baseline build (BASELINE, default .carry/matmul_old: copy
#      .carry/matmul there before rebuilding), interleaved, and against
#      cuBLAS and Triton;
#   3. the JIT's cold compile, warm launch and autotune times next to
#      Triton's (jit_bench.sh).
# Here first: bench/build_correctness.sh, bench/build_matmul.sh,
# bench/build_jit.sh. Logs go to $OUT (or LOGDIR).
set -euo pipefail
cd "$(dirname "$0")/.."
LOGDIR=${OUT:-${LOGDIR:-/tmp}}
BASELINE=${BASELINE:-.carry/matmul_old}
SIZES=${SIZES:-4096x4096x4096,8192x8192x8192,1000x1000x1000}
export PYTHONUNBUFFERED=1
python3 bench/gpu_correctness.py .carry/correctness "$LOGDIR/correctness.log" |
  tail -1
python3 bench/matmul_bench.py .carry/matmul "$LOGDIR/matmul.log" \
  --sizes "$SIZES" --grouping '' --baseline "$BASELINE" |
  grep -E "RESULT|BASELINE|FAIL"
bash bench/jit_bench.sh > "$LOGDIR/jit.log" 2>&1
grep -E "COLD|WARM|TUNE|compiled: tilec|rel diff|TFLOP|FAIL|rror" "$LOGDIR/jit.log"
