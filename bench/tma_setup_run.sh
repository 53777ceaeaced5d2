#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 48): the TMA path's
# per-program set-up (a prefetched tensor map) and a TMA ring of one slot
# fewer where that keeps two programs per SM. Needs, under .carry:
# variants/{var_base,var_tma,var_tma2} (bench/build_matmul_variant.sh:
# examples/matmul.tile, and bench/kernels/matmul_tma_variant.tile built by
# the compiler before and after), kernels and
# kernels_old (build_kernels.sh), desc and desc_old (build_descriptor.sh),
# a06_new and a06_old (build_attention06.sh). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
C=../.carry
(cd bench && python3 matmul_variants.py "$LOG/variants.log" $C/variants/var_base \
  $C/variants/var_tma $C/variants/var_tma2 --configs 0,1,2 --rounds 7 \
  --sizes 1024x1024x1024,2048x3072x768,4096x4096x4096,8192x8192x8192) 2>&1 |
  grep -E "^VARIANT|FAIL" | grep -v "Triton\|cuBLAS  " | sed 's/..\/.carry\/variants\///g' | cut -c1-125
for n in 1024 4096; do
  (cd bench && python3 attention_configs.py $C/kernels --baseline $C/kernels_old \
    --d 128 --n $n --rounds 7) > "$LOG/attention_configs_$n.log" 2>&1
  grep -v "^#" "$LOG/attention_configs_$n.log" | tail -14
done
python3 bench/attention06_bench.py .carry/a06_new "$LOG/attention06.log" \
  --baseline .carry/a06_old --head-dim 128 2>&1 | grep -vi "warn\|bind\|run()" | tail -16
python3 bench/descriptor_bench.py .carry/desc "$LOG/descriptor.log" \
  --baseline .carry/desc_old 2>&1 | tail -16
