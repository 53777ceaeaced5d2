#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): why attention at
# N = 1024 runs further behind SDPA than at 4096. The time over N against
# SDPA (bench/attention_length_probe.py), then Nsight Compute on the
# head-dim-128 128x64 8-warp config and on SDPA's kernel at N = 1024 and
# 4096. Needs .carry/kernels (bench/build_kernels.sh). Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
for c in "" "--causal"; do
  (cd bench && python3 attention_length_probe.py ../.carry/kernels --d 128 --config 1 $c) \
    2>&1 | grep -v Warn | tee -a "$LOG/length.log"
done
source bench/ncu_metrics.sh
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
for n in 1024 4096; do
  (cd bench && "$NCU" -k "regex:attn_fwd|flash|fmha|sdpa|cudnn|attention" --launch-count 4 --metrics \
    "$METRICS,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,lts__t_bytes.sum,sm__cycles_active.avg" \
    python3 profile_attention_fwd.py ../.carry/kernels --d 128 --n $n --config 1) > "$LOG/ncu_$n.log" 2>&1
  echo "== N=$n"; grep -E "^  [a-zA-Z_].*\(|gpu__time|inst_executed|warps_active|grid_size|block_size|waves|registers_per|dram__bytes|lts__t_bytes|cycles_active.avg|stalled_(wait|barrier|long|math|dispatch)" "$LOG/ncu_$n.log" | sed -E 's/ +/ /g' | cut -c1-140
done
