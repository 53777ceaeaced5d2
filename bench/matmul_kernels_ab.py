"""Several tilec matmul builds of the tutorial signature (a, b, c, M, N,
K, six strides), e.g. tutorial 03's one-tile kernel and tutorial 09's
persistent one at the same tile, against cuBLAS in the same interleaved
rounds. Each kernel is checked against float64 first; then medians of
CUDA-graph timings per round, ratios as medians of per-round ratios.

usage: python3 bench/matmul_kernels_ab.py LABEL=DIR:NAME:INDEX ...
       [--sizes MxNxK,...] [--rounds 5] [--log FILE]
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
args = parser.parse_args()
log = logger(args.log)
log(f"device: {torch.cuda.get_device_name()}")

specs = []
for spec in args.kernels:
    label, where = spec.split("=", 1)
    directory, name, index = where.split(":")
    specs.append((label, Kernel(directory, name, int(index))))

for size in args.sizes.split(","):
    M, N, K, a, b, ref = seeded_problem(size)
    contenders = {}
    for label, kernel in specs:
        out = torch.empty(M, N, device="cuda", dtype=torch.float16)
        contenders[label] = (kernel.bind(*matmul_args(a, b, out)), out)
    cublas_out = torch.empty(M, N, device="cuda", dtype=torch.float16)
    contenders["cuBLAS"] = (lambda: torch.matmul(a, b, out=cublas_out),
                            cublas_out)
    check_and_time(log, size, contenders, ref, args.rounds, 2 * M * N * K)
