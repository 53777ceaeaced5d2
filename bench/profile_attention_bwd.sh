#!/usr/bin/env bash
# On the device machine: Nsight Compute tensor-pipe, issue and stall
# metrics of tutorial 06's _attn_bwd compiled by tilec and by Triton (D=64,
# N=4096, Z=4, H=32, 4 warps), to see where the gap goes (bench/NOTES.md).
# Needs .carry/attention06_bwd (bench/build_attention06_bwd.sh).
set -uo pipefail
cd "$(dirname "$0")"
source ./ncu_metrics.sh
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
"$NCU" --kernel-name regex:'^_attn_bwd$' --metrics \
  "$METRICS,launch__registers_per_thread,launch__occupancy_limit_registers,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio" \
  python3 attention06_bwd_bench.py ../.carry/attention06_bwd --profile 2>&1 |
  grep -E "_attn_bwd|\.(pct|ratio|sum|avg|per_cycle)|registers|occupancy"
