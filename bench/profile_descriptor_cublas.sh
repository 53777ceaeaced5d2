#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics, at the locked clock, of
# tilec's tensor-descriptor persistent matmul (its config 0 from a
# bench/build_descriptor.sh build, the one the autotuner picks at the large
# sizes) and of cuBLAS's kernel (torch.matmul(a, b.T)) at one size, to see
# whether the gap between them is in the tensor pipe's activity at equal
# clocks or only under the power limit (bench/NOTES.md).
# usage: bash bench/profile_descriptor_cublas.sh DIR [MxNxK] [CONFIG]
set -uo pipefail
cd "$(dirname "$0")"
DIR=$1
SIZE=${2:-4096x4096x16384}
CONFIG=${3:-0}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
source ./ncu_metrics.sh
"$NCU" --metrics "$METRICS,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,launch__cluster_dim_x,sm__cycles_elapsed.avg,lts__t_bytes.sum,dram__bytes_read.sum" \
  --kernel-name regex:"matmul|nvjet|gemm" --launch-skip 2 --launch-count 4 python3 - "$DIR" "$SIZE" "$CONFIG" <<'PY' 2>&1 |
import sys
import torch
from tilelaunch import Kernel
d, size, cfg = sys.argv[1], sys.argv[2], int(sys.argv[3])
M, N, K = map(int, size.split("x"))
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(N, K, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
k = Kernel(d, "matmul_descriptor", cfg)
for _ in range(3):
    k(a, b, c, M, N, K)
    torch.matmul(a, b.T, out=c)
torch.cuda.synchronize()
PY
  grep -E "matmul|nvjet|gemm|\.(pct|ratio|sum|avg|per_cycle)|registers|grid_size|cluster_dim"
