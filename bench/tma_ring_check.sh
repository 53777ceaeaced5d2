#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 48): correctness and
# compute-sanitizer for the TMA ring of one slot fewer (refilled after the
# dot's wait where that keeps two programs per SM) and the prefetched
# tensor maps. Needs, under .carry: correctness and kernels (and their
# *_noturns builds, bench/sanitize.sh), grouped_old (tutorial 08's
# grouped_matmul_tma.{ptx,json} from the compiler before) and
# variants/var_tma3 (bench/kernels/matmul_tma_variant.tile,
# bench/build_matmul_variant.sh). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
python3 bench/grouped_bench.py .carry/correctness "$LOG/grouped.log" \
  --baseline .carry/grouped_old 2>&1 | tail -12
for tool in memcheck racecheck synccheck; do
  (cd bench && $CS --tool $tool --error-exitcode 3 python3 tma_ring_sanitize.py \
    ../.carry/variants/var_tma3) > "$LOG/tma_ring_$tool.log" 2>&1
  echo "tma ring $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "$LOG/tma_ring_$tool.log" | tr '\n' ' ')"
done
bash bench/sanitize.sh
