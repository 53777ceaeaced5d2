#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): tensor maps built
# by a warp-specialized producer's warp, two placements against the
# compiler before: "before" builds them before the producer gives its
# registers away (setmaxnreg.dec), "after" after it (two temporary
# compilers, neither kept: bench/NOTES.md, stop 49). Needs .carry/{kernels,
# desc,a06}_{old,before,after}, .carry/variants/var_tma_{old,before,after}
# and .carry/tl/timeline_{old,before,after}.{ptx,json} (/tmp builds of
# bench/build_kernels.sh, build_descriptor.sh, build_attention06.sh,
# build_matmul_variant.sh on bench/kernels/matmul_tma_variant.tile, and
# bench/kernels/attention_timeline.tile). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
C=../.carry
for v in old before after; do
  python3 attention_timeline.py $C/tl --name timeline_$v --config 1 --ns 1024,4096 2>&1 |
    grep -v Warn | sed "s/^N=/$v N=/" | tee -a "$LOG/timeline.log" | grep -E "N=|start -> after|end -> next|after loop"
done
for v in before after; do
  for n in 1024 4096; do
    python3 attention_configs.py $C/kernels_$v --baseline $C/kernels_old --d 64,128 --n $n \
      --rounds 7 > "$LOG/attention_configs_${v}_$n.log" 2>&1
    echo "== $v N=$n"; grep "baseline" "$LOG/attention_configs_${v}_$n.log"
  done
  python3 attention06_bench.py $C/a06_$v "$LOG/attention06_$v.log" --baseline $C/a06_old \
    --head-dim 128 2>&1 | grep -vi "warn\|bind\|run()" | tail -10
  python3 descriptor_bench.py $C/desc_$v "$LOG/descriptor_$v.log" --baseline $C/desc_old 2>&1 | tail -8
done
python3 matmul_variants.py "$LOG/variants.log" $C/variants/var_tma_old $C/variants/var_tma_before \
  $C/variants/var_tma_after --configs 0,1,2 --rounds 5 \
  --sizes 1024x1024x1024,2048x3072x768,4096x4096x4096 2>&1 |
  grep -E "^VARIANT|FAIL" | grep -v "Triton\|cuBLAS  " | sed 's/..\/.carry\/variants\///g' | cut -c1-125
