#!/usr/bin/env bash
# On the device machine, one call (2026-11-28): a tile's addresses from one
# offset register a thread (AddPtrLowering's addressesFromFirst). Needs
# .carry/{correctness,kernels,kernels_old,matmul,matmul_old,kernels_noturns}
# from bench/build_correctness.sh, build_kernels.sh and build_matmul.sh
# (the _old folders built the same way with the compiler before). Logs go
# to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
python3 bench/kernels_bench.py .carry/kernels "$LOG/kernels.log" \
  --only attention,matmul --baseline .carry/kernels_old | grep -E "baseline|FAIL|torch|SDPA|cuBLAS" | tail -60
python3 bench/matmul_bench.py .carry/matmul "$LOG/matmul.log" \
  --sizes 4096x4096x4096,8192x8192x8192,2048x3072x768 --grouping '' \
  --baseline .carry/matmul_old | grep -E "RESULT|BASELINE|FAIL"
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck synccheck racecheck; do
  k=.carry/kernels; [ $tool = racecheck ] && k=.carry/kernels_noturns
  (cd bench && $CS --tool $tool --error-exitcode 3 python3 sanitize_examples.py \
    ../$k ../.carry/correctness > "$LOG/sanitize_$tool.log" 2>&1)
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "$LOG/sanitize_$tool.log" | tr '\n' ' ')"
done
