"""Several tilec matmul builds of the tutorial signature (a, b, c, M, N,
K, six strides), e.g. tutorial 03's one-tile kernel and tutorial 09's
persistent one at the same tile, against cuBLAS in the same interleaved
rounds. Each kernel is checked against float64 first; then medians of
CUDA-graph timings per round, ratios as medians of per-round ratios.

With --dtype fp32, A, B and C are fp32 and cuBLAS runs on the tf32 tensor
cores (as tilec's tl.dot does by default).

usage: python3 bench/matmul_kernels_ab.py LABEL=DIR:NAME:INDEX ...
       [--sizes MxNxK,...] [--rounds 5] [--log FILE] [--dtype fp16|fp32]
"""
import argparse
import torch

from tilelaunch import Kernel, check_and_time, logger
from triton_matmul import matmul_args, seeded_problem

parser = argparse.ArgumentParser()
parser.add_argument("kernels", nargs="+")
parser.add_argument("--sizes", default="4096x4096x4096,8192x8192x8192")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--log")
parser.add_argument("--dtype", default="fp16", choices=["fp16", "fp32"])
args = parser.parse_args()
dtype = {"fp16": torch.float16, "fp32": torch.float32}[args.dtype]
torch.backends.cuda.matmul.allow_tf32 = args.dtype == "fp32"
log = logger(args.log)
log(f"device: {torch.cuda.get_device_name()}")

specs = []
for spec in args.kernels:
    label, where = spec.split("=", 1)
    directory, name, index = where.split(":")
    specs.append((label, Kernel(directory, name, int(index))))

for size in args.sizes.split(","):
    M, N, K, a, b, ref = seeded_problem(size, dtype)
    contenders = {}
    for label, kernel in specs:
        out = torch.empty(M, N, device="cuda", dtype=dtype)
        contenders[label] = (kernel.bind(*matmul_args(a, b, out)), out)
    cublas_out = torch.empty(M, N, device="cuda", dtype=dtype)
    contenders["cuBLAS"] = (lambda: torch.matmul(a, b, out=cublas_out),
                            cublas_out)
    check_and_time(log, size, contenders, ref, args.rounds, 2 * M * N * K,
                   tol=4e-3 if args.dtype == "fp32" else 2e-3)
