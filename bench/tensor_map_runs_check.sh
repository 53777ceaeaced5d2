#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): correctness and
# compute-sanitizer for tensor maps built at the same time by several warps.
# Needs, under .carry: correctness, kernels and their *_noturns builds
# (bench/sanitize.sh), a06_new and a06_noturns (bench/build_attention06.sh,
# the second with --warpgroup-turns=false, for racecheck) and
# variants/var_tma_new (bench/build_matmul_variant.sh on
# bench/kernels/matmul_tma_variant.tile). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
for tool in memcheck racecheck synccheck; do
  (cd bench && $CS --tool $tool --error-exitcode 3 python3 tma_ring_sanitize.py \
    ../.carry/variants/var_tma_new) > "$LOG/variant_$tool.log" 2>&1
  echo "variant $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "$LOG/variant_$tool.log" | tr '\n' ' ')"
  a06=../.carry/a06_new; [ $tool = racecheck ] && a06=../.carry/a06_noturns
  (cd bench && $CS --tool $tool --error-exitcode 3 python3 attention06_sanitize.py \
    $a06) > "$LOG/attention06_$tool.log" 2>&1
  echo "tutorial 06 $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "$LOG/attention06_$tool.log" | tr '\n' ' ')"
done
bash bench/sanitize.sh
