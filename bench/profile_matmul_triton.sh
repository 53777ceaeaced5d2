#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics of tilec's matmul (one
# config of a bench/build_matmul_variant.sh build) and of Triton's tutorial
# kernel at the same tile, warps and stages, at one size: where the time
# goes in each at the same (locked) clock (bench/NOTES.md).
# usage: bash bench/profile_matmul_triton.sh DIR [SIZE] [CONFIG]
set -uo pipefail
cd "$(dirname "$0")"
DIR=$1
SIZE=${2:-8192}
CONFIG=${3:-0}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
source ./ncu_metrics.sh
"$NCU" --metrics "$METRICS,smsp__inst_executed.sum,launch__registers_per_thread,sm__cycles_elapsed.avg,lts__t_bytes.sum,dram__bytes_read.sum" \
  --kernel-name regex:matmul --launch-skip 2 --launch-count 4 python3 - "$DIR" "$SIZE" "$CONFIG" <<'PY' 2>&1 |
import sys
import torch
import triton
from tilelaunch import Kernel
from triton_matmul import matmul_args, tuned_matmul
d, n, cfg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
c = torch.empty(n, n, device="cuda", dtype=torch.float16)
k = Kernel(d, "matmul_div16", cfg)
m = k.md["constexprs"]
tri = tuned_matmul([triton.Config(
    {"BLOCK_SIZE_M": m["BLOCK_M"], "BLOCK_SIZE_N": m["BLOCK_N"],
     "BLOCK_SIZE_K": m["BLOCK_K"], "GROUP_SIZE_M": m["GROUP_M"]},
    num_warps=k.md["num_warps"], num_stages=k.md["num_stages"])])
tri(a, b, c)  # compiles (launches 1, 2 are skipped: this and the next)
k(*matmul_args(a, b, c))
for _ in range(2):
    k(*matmul_args(a, b, c))
    tri(a, b, c)
torch.cuda.synchronize()
PY
  grep -E "matmul|\.(pct|ratio|sum|avg|per_cycle)|registers"
