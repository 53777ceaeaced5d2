#!/usr/bin/env bash
# On the device machine, one call (2026-11-28, stop 46): thread-index reads
# after a loop tied to the loop (tilegpu-reads-after-loops), so ptxas
# computes the epilogue's addresses after the loop. Needs
# .carry/{correctness,kernels,kernels_old} from
# bench/build_correctness.sh and build_kernels.sh (kernels_old built the same
# way by the compiler before), and .carry/{kernels,correctness}_noturns
# (the same with TILEC_FLAGS=--warpgroup-turns=false) for racecheck
# (bench/sanitize.sh). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
(cd bench && python3 attention_configs.py ../.carry/kernels \
  --baseline ../.carry/kernels_old --n 4096 --rounds 7) > "$LOG/attention_configs.log" 2>&1
grep -v "^#" "$LOG/attention_configs.log" | tail -40
python3 bench/kernels_bench.py .carry/kernels "$LOG/kernels.log" \
  --only layernorm,attention --baseline .carry/kernels_old \
  | grep -E "baseline|FAIL|torch|SDPA" | tail -40
bash bench/sanitize.sh
