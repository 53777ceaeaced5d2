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
source ./ncu_metrics.sh
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
