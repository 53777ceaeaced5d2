#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): tensor maps made
# one right after the other built at the same time (tilegpu-group-tensor-maps
# and the lowering), against the compiler before. Needs, under .carry:
# kernels and kernels_old (bench/build_kernels.sh), desc and desc_old
# (build_descriptor.sh), a06_new and a06_old (build_attention06.sh),
# variants/var_tma_{new,old} (build_matmul_variant.sh on
# bench/kernels/matmul_tma_variant.tile), tl (bench/attention_timeline_build.sh)
# with tl/timeline_old.{ptx,json} from the compiler before. Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
C=../.carry
for v in old d128_s1; do
  python3 attention_timeline.py $C/tl --name timeline_$v --config 1 --ns 1024,4096 2>&1 |
    grep -v Warn | sed "s/^N=/$v N=/" | tee -a "$LOG/timeline.log" | grep -E "N=|end -> next"
done
for n in 1024 4096; do
  python3 attention_configs.py $C/kernels --baseline $C/kernels_old --d 64,128 --n $n \
    --rounds 7 > "$LOG/attention_configs_$n.log" 2>&1
  echo "== N=$n"; grep "baseline" "$LOG/attention_configs_$n.log"
done
python3 attention06_bench.py $C/a06_new "$LOG/attention06.log" --baseline $C/a06_old \
  --head-dim 128 2>&1 | grep -vi "warn\|bind\|run()" | tail -8
python3 descriptor_bench.py $C/desc "$LOG/descriptor.log" --baseline $C/desc_old 2>&1 | tail -7
python3 matmul_variants.py "$LOG/variants.log" $C/variants/var_tma_old $C/variants/var_tma_new \
  --configs 0,1,2 --rounds 5 --sizes 1024x1024x1024,2048x3072x768,4096x4096x4096 2>&1 |
  grep -E "^VARIANT.*var_tma_new|FAIL" | sed 's/..\/.carry\/variants\///g' | cut -c1-125
