"""int8 x int8 -> int32 matmul (bench/kernels/int8_matmul.tile, A @ W^T
with W an N x K int8 weight) against torch._int_mm (cuBLASLt) and the same
source under Triton 3.6, each checked exactly against the float64 product
first; CUDA-graph timing, medians of 5 interleaved rounds. DIR holds the
PTX bench/build_int8.sh made.

With --small: tiles under 64 rows (mma.sync's s8 form, IMMA.16832) at
decode-like shapes (M of 32 and 64 rows).

usage: python3 bench/int8_bench.py DIR [LOG] [--small]
"""
import statistics
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, logger


@triton.jit
def matmul_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
              stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_n
    pid_n = pid % num_n
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


SMALL = "--small" in sys.argv
argv = [a for a in sys.argv[1:] if a != "--small"]
DIR = argv[0]
log = logger(argv[1] if len(argv) > 1 else None)
torch.manual_seed(0)
CONFIGS = [(128, 256, 128, 8, 3), (128, 128, 128, 8, 4), (128, 128, 64, 4, 4)]
SIZES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 3072, 768)]
if SMALL:
    CONFIGS = [(32, 128, 128, 4, 4), (32, 64, 128, 4, 4), (16, 128, 128, 4, 4)]
    SIZES = [(32, 4096, 4096), (64, 8192, 4096), (64, 4096, 14336)]

for M, N, K in SIZES:
    a = torch.randint(-128, 128, (M, K), device="cuda", dtype=torch.int8)
    w = torch.randint(-128, 128, (N, K), device="cuda", dtype=torch.int8)
    b = w.t()
    want = a.double() @ b.double()
    c = torch.empty(M, N, device="cuda", dtype=torch.int32)
    args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
            b.stride(1), c.stride(0), c.stride(1))
    runs = {}
    for bm, bn, bk, w_, s in CONFIGS:
        grid = (-(-M // bm) * -(-N // bn),)
        name = f"{bm}x{bn}x{bk}w{w_}"
        runs[f"tilec {name}"] = Kernel(DIR, f"int8_{name}").bind(*args,
                                                                grid=grid)
        runs[f"triton {name}"] = (
            lambda grid=grid, bm=bm, bn=bn, bk=bk, w_=w_, s=s: matmul_i8[grid](
                *args, bm, bn, bk, num_warps=w_, num_stages=s))
    runs["torch._int_mm"] = lambda: torch._int_mm(a, b)
    for name, run in runs.items():
        c.fill_(-7)
        out = run()
        torch.cuda.synchronize()
        got = out if name == "torch._int_mm" else c
        err = (got.double() - want).abs().max().item()
        log(f"check {M}x{N}x{K} {name}: max abs error {err}")
        assert err == 0, name
    times = {k: [] for k in runs}
    for _ in range(5):
        for k, run in runs.items():
            times[k].append(graph_ms(run))
    tops = {k: 2 * M * N * K / statistics.median(t) / 1e9
            for k, t in times.items()}
    best = max((k for k in runs if k.startswith("tilec")), key=tops.get)
    tri = max((k for k in runs if k.startswith("triton")), key=tops.get)
    line = f"{M}x{N}x{K}: " + "; ".join(f"{k} {v:.0f}" for k, v in tops.items())
    ratio = lambda other: statistics.median(
        o / t for t, o in zip(times[best], times[other]))
    log(line + f" TOP/s | best tilec ({best}) vs torch._int_mm "
        f"{ratio('torch._int_mm'):.2f}x, vs best triton ({tri}) "
        f"{ratio(tri):.2f}x")
