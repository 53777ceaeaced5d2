#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 47): pointer tiles as
# TMA boxes (tile-pointer-tensor-maps) and warp specialization beside a
# general path. Needs .carry/{correctness,kernels,kernels_old} from
# bench/build_correctness.sh and build_kernels.sh (kernels_old built the
# same way by the compiler before, or with --pointer-tma=false), and
# .carry/{kernels,correctness}_noturns (TILEC_FLAGS=--warpgroup-turns=false)
# for racecheck (bench/sanitize.sh), and .carry/a06_{new,old}
# (bench/build_attention06.sh by both compilers). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
(cd bench && python3 attention_strides_check.py ../.carry/kernels) \
  > "$LOG/strides.log" 2>&1
grep -E "FAIL|failures" "$LOG/strides.log"
(cd bench && python3 attention_configs.py ../.carry/kernels \
  --baseline ../.carry/kernels_old --n 4096 --rounds 7) > "$LOG/attention_configs.log" 2>&1
grep -v "^#" "$LOG/attention_configs.log" | tail -40
python3 bench/kernels_bench.py .carry/kernels "$LOG/kernels.log" \
  --only attention --baseline .carry/kernels_old \
  | grep -E "baseline|FAIL|torch|SDPA" | tail -40
python3 bench/attention06_bench.py .carry/a06_new "$LOG/attention06.log" \
  --baseline .carry/a06_old 2>&1 | grep -vi "warn\|bind\|run()" | tail -20
bash bench/sanitize.sh
