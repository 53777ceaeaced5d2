"""Tutorial 09's matmul_kernel_tma (host-made tensor descriptors) on the GPU:
tilec's port (examples/matmul_tma.tile, compiled by
bench/build_correctness.sh into .carry/correctness) against the same
kernel under Triton 3.6 (TensorDescriptor.from_tensor arguments, the same
two configs, autotuned) and cuBLAS (torch.matmul(a, b.T)), fp16, C = A @ B.T.
Correct against float64 first; then the fastest tilec config, medians of
interleaved rounds.

usage: python3 bench/matmul_tma_bench.py DIR [--sizes 4096,8192] [--rounds 5]
           [--baseline DIR2]
With --baseline, DIR2's build of the same kernel (another compiler or
flags) is checked too and its fastest config joins the interleaved rounds:
the log then gives tilec/baseline as well.
"""
import argparse
import json
import statistics

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from tilelaunch import Kernel, descriptor_parts, graph_ms, logger, rel_error

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--sizes", default="4096,8192")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--log")
parser.add_argument("--baseline")
args = parser.parse_args()
log = logger(args.log)


def set_block_sizes(nargs):
    bm, bn, bk = nargs["BLOCK_SIZE_M"], nargs["BLOCK_SIZE_N"], nargs["BLOCK_SIZE_K"]
    nargs["a_desc"].block_shape = [bm, bk]
    nargs["b_desc"].block_shape = [bn, bk]
    nargs["c_desc"].block_shape = [bm, bn]


CONFIGS = [triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256,
                          "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8},
                         num_stages=3, num_warps=8, pre_hook=set_block_sizes),
           triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128,
                          "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8},
                         num_stages=4, num_warps=4, pre_hook=set_block_sizes)]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def matmul_kernel_tma(a_desc, b_desc, c_desc, M, N, K,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                      BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(k_tiles):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_bn, offs_k])
        accumulator = tl.dot(a, b.T, accumulator)
    c_desc.store([offs_am, offs_bn], accumulator.to(tl.float16))


def triton_tma(a, b, c):
    M, K = a.shape
    N = b.shape[0]
    dummy = [1, 1]
    descs = [TensorDescriptor.from_tensor(x, dummy) for x in (a, b, c)]
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) *
                         triton.cdiv(N, META["BLOCK_SIZE_N"]),)
    matmul_kernel_tma[grid](*descs, M, N, K)


def tflops(M, N, K, ms):
    return 2 * M * N * K / ms / 1e9


def one_tile_kernels(build):
    md = json.load(open(f"{build}/matmul_tma.json"))
    return [Kernel(build, "matmul_tma", i) for i, m in enumerate(md)
            if m["kernel"].startswith("matmul_kernel_tma_")
            and "persistent" not in m["kernel"]]


def fastest_checked(kernels, kargs, c, ref, label):
    """The fastest of `kernels` after each is checked against float64;
    None if one fails."""
    timings = {}
    for k in kernels:
        c.fill_(float("nan"))
        k(*kargs)
        torch.cuda.synchronize()
        err = rel_error(c, ref)
        log(f"  check {label} {k.md['kernel']} grid={k.md['grid'][0]} "
            f"rel_err={err:.2e}")
        if err <= 2e-3:
            timings[k] = graph_ms(k.bind(*kargs), reps=5)
    if len(timings) != len(kernels):
        return None
    return min(timings, key=timings.get)


ours = one_tile_kernels(args.dir)
base = one_tile_kernels(args.baseline) if args.baseline else []
for size in [int(s) for s in args.sizes.split(",") if s]:
    M = N = K = size
    torch.manual_seed(size)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    ref = a.double() @ b.double().T
    kargs = (*descriptor_parts(a), *descriptor_parts(b), *descriptor_parts(c),
             M, N, K)
    best = fastest_checked(ours, kargs, c, ref, f"{size}^3")
    best_base = (fastest_checked(base, kargs, c, ref, f"{size}^3 baseline")
                 if base else None)
    if best is None or (base and best_base is None):
        log(f"RESULT {size}^3 FAILED correctness")
        continue
    c_t = torch.empty_like(c)
    triton_tma(a, b, c_t)
    c_b = torch.matmul(a, b.T)
    torch.cuda.synchronize()
    log(f"  check {size}^3 triton rel_err={rel_error(c_t, ref):.2e} "
        f"cublas rel_err={rel_error(c_b, ref):.2e}")
    fns = [best.bind(*kargs),
           lambda: torch.matmul(a, b.T, out=c_b), lambda: triton_tma(a, b, c_t)]
    if best_base:
        fns.append(best_base.bind(*kargs))
    rounds = [[graph_ms(f, reps=10) for f in fns] for _ in range(args.rounds)]
    med = [statistics.median(r[i] for r in rounds) for i in range(3)]
    rc = statistics.median(r[1] / r[0] for r in rounds)
    rt = statistics.median(r[2] / r[0] for r in rounds)
    if best_base:
        rb = statistics.median(r[3] / r[0] for r in rounds)
        log(f"RESULT {size}^3 tilec/baseline {rb:5.3f}x "
            f"[{best.md['kernel']} vs {best_base.md['kernel']}]")
    log(f"RESULT {size}^3 tilec {tflops(M, N, K, med[0]):6.1f} | cuBLAS "
        f"{tflops(M, N, K, med[1]):6.1f} | Triton {tflops(M, N, K, med[2]):6.1f} "
        f"TFLOP/s | tilec/cuBLAS {rc:4.2f}x tilec/Triton {rt:4.2f}x "
        f"(median of {len(rounds)} rounds) [{best.md['kernel']}]")
