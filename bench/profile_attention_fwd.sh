#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics of tilec's attention
# forward (examples/attention_fwd.tile as written, .carry/kernels from
# bench/build_kernels.sh) beside torch's SDPA kernel at the same shape: the
# tensor pipe, shared-memory traffic and the stall reasons, to see what
# bounds the loop (bench/NOTES.md). Extra arguments go to
# profile_attention_fwd.py (--d, --n, --config, --causal).
set -uo pipefail
cd "$(dirname "$0")"
source ./ncu_metrics.sh
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
"$NCU" --launch-skip 2 --launch-count 2 --metrics \
  "$METRICS,launch__registers_per_thread,launch__occupancy_limit_registers,launch__grid_size,launch__block_size,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active" \
  python3 profile_attention_fwd.py ../.carry/kernels "$@" 2>&1 |
  grep -vE "^==PROF==|DeprecationWarning|ExternalStream|^\s+launch\(\)$"
