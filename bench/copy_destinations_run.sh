#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): cp.async
# destinations as few per-thread bases plus immediates, against the build
# before. Needs, under .carry: matmul and matmul_old (bench/build_matmul.sh),
# kernels and kernels_old (bench/build_kernels.sh), each built by the
# compiler with and without the change (a temporary edit of the cp.async
# lowering to take splitSharedOffsets' bases, not kept: bench/NOTES.md,
# stop 49). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
C=.carry
python3 bench/matmul_bench.py $C/matmul "$LOG/matmul.log" --baseline $C/matmul_old \
  --sizes 1024x1024x1024,2048x3072x768,4096x4096x4096,8192x8192x8192 \
  --grouping "" 2>&1 | grep -v "^#" | tail -40
for n in 1024 4096; do
  (cd bench && python3 attention_configs.py ../$C/kernels --baseline ../$C/kernels_old \
    --d 64,128 --n $n --rounds 7) > "$LOG/attention_configs_$n.log" 2>&1
  grep -v "^#" "$LOG/attention_configs_$n.log" | tail -30
done
