#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics of one tilec matmul config
# and of cuBLAS at one size: tensor-pipe activity, issue slots and the
# warp stall reasons, to see where the gap to cuBLAS goes (bench/NOTES.md).
# Needs .carry/matmul (bench/build_matmul.sh).
# usage: bash bench/profile_matmul.sh [SIZE] [CONFIG]   (default 4096 0)
set -uo pipefail
cd "$(dirname "$0")"
SIZE=${1:-4096}
CONFIG=${2:-0}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
METRICS=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,\
sm__inst_executed.avg.per_cycle_active,\
sm__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__t_sector_hit_rate.pct,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
gpu__time_duration.sum
"$NCU" --metrics "$METRICS" --launch-skip 3 --launch-count 2 \
  python3 - "$SIZE" "$CONFIG" <<'PY'
import sys
import torch
from tilelaunch import Kernel
n, cfg = int(sys.argv[1]), int(sys.argv[2])
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
c = torch.empty(n, n, device="cuda", dtype=torch.float16)
k = Kernel("../.carry/matmul", "matmul_div16", cfg)
print("config", k.md["constexprs"], "warps", k.md["num_warps"],
      "stages", k.md["num_stages"])
for _ in range(4):
    k(a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
      c.stride(0), c.stride(1))
for _ in range(4):
    torch.matmul(a, b, out=c)
torch.cuda.synchronize()
PY
