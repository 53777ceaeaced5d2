#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics of tutorial 08's grouped
# GEMM (4 GEMMs of SIZE^3, fp16), tilec's config CONFIG against the same
# source under Triton, to see where the per-tile time goes
# (bench/NOTES.md). Needs .carry/correctness (bench/build_correctness.sh),
# or DIR=... a folder with grouped_matmul_tma.{ptx,json} of another build.
# usage: bash bench/profile_grouped.sh [SIZE] [CONFIG]   (default 1024 0)
set -uo pipefail
cd "$(dirname "$0")"
SIZE=${1:-1024}
CONFIG=${2:-0}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
source ./ncu_metrics.sh
DIR=${DIR:-../.carry/correctness}
"$NCU" --metrics "$METRICS,smsp__inst_executed.sum,launch__registers_per_thread,launch__block_size" --nvtx --nvtx-include "tilec/" \
  --nvtx-include "triton/" python3 - "$SIZE" "$CONFIG" "$DIR" <<'PY'
import sys
import torch
from tilelaunch import Kernel
import grouped_bench as gb
n, cfg = int(sys.argv[1]), int(sys.argv[2])
sizes = [(n, n, n)] * 4
A = [torch.randn(n, n, device="cuda", dtype=torch.float16) for _ in sizes]
B = [torch.randn(n, n, device="cuda", dtype=torch.float16) for _ in sizes]
C = [torch.empty(n, n, device="cuda", dtype=torch.float16) for _ in sizes]
addrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda")
         for ts in (A, B, C)]
dims = torch.tensor(sizes, device="cuda", dtype=torch.int32)
lds = torch.tensor([(n, n, n)] * 4, device="cuda", dtype=torch.int32)
k = Kernel(sys.argv[3], "grouped_matmul_tma", cfg)
run = {"tilec": lambda: k(*addrs, dims, lds, len(sizes)),
       "triton": lambda: gb.grouped_matmul_tma_kernel[(gb.NUM_SM,)](
           *addrs, dims, lds, len(sizes), NUM_SM=gb.NUM_SM, FP8=False)}
for name, fn in run.items():
    fn()  # compiles and autotunes outside the profiled range
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(name)
    fn()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
PY
