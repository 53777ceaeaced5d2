#!/usr/bin/env bash
# On the device machine: Nsight Compute memory and stall metrics of tilec's
# layernorm as written and of Triton's kernel of the same source, at one N
# (M = 4096), to see where the gap to Triton goes (bench/NOTES.md).
# Needs .carry/kernels (bench/build_kernels.sh).
# usage: bash bench/profile_layernorm.sh [N]   (default 16384)
set -uo pipefail
cd "$(dirname "$0")"
N=${1:-16384}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
METRICS=gpu__time_duration.sum,\
launch__registers_per_thread,\
launch__shared_mem_config_size,\
launch__shared_mem_per_block_static,\
launch__shared_mem_per_block_dynamic,\
launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,\
sm__warps_active.avg.pct_of_peak_sustained_active,\
dram__bytes_read.sum,\
dram__bytes_write.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__t_sector_hit_rate.pct,\
lts__t_sectors_srcunit_tex_op_read.sum,\
l1tex__t_sector_hit_rate.pct,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
smsp__inst_executed.sum,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
"$NCU" --metrics "$METRICS" -k regex:layer --launch-skip 2 --launch-count 2 \
  python3 - "$N" <<'PY'
import sys
N = int(sys.argv[1])
sys.argv = [sys.argv[0], "../.carry/kernels", "--only", ""]
import kernels_bench as kb  # noqa: E402  (the Triton kernel)
import torch  # noqa: E402
import triton  # noqa: E402
from tilelaunch import Kernel  # noqa: E402
M = 4096
block = min(65536 // 2, triton.next_power_of_2(N))
warps = min(max(block // 256, 1), 8)
x = torch.randn(M, N, device="cuda", dtype=torch.float16)
w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
b = torch.randn(N, device="cuda", dtype=torch.float16)
y = torch.empty_like(x)
mean = torch.empty(M, device="cuda")
rstd = torch.empty(M, device="cuda")
k = Kernel("../.carry/kernels", f"layernorm_{block}")
run = k.bind(x, y, w, b, mean, rstd, x.stride(0), M, N, 1e-5)
# Two launches each are skipped (warm-up), two profiled: tilec, Triton.
run()
kb.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                        BLOCK_SIZE=block, num_warps=warps)
run()
kb.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                        BLOCK_SIZE=block, num_warps=warps)
torch.cuda.synchronize()
PY
