"""DeepSeek-V3's fp8_gemm_kernel (c = a @ b.T, e4m3 inputs, fp32 scales per
row and 128-column block of a and per 128 x 128 block of b, bf16 out; body
as published in bench/kernels/probe_generality2.tile) on the H100: tilec
(bench/build_fp8_gemm.sh) against the same source under Triton 3.6 at the
same config, optionally against a baseline tilec build. Every contender is
checked against float64 first (the product of the decoded inputs); then
medians of interleaved rounds, each a CUDA graph of 20 launches.

usage: python3 bench/fp8_gemm_bench.py DIR [LOG] [--baseline OLD_DIR]
                                       [--m 4096] [--rounds 5]
"""
import argparse
import glob
import os
import re

import torch
import triton

from tilelaunch import (Kernel, interleaved_times, logger, rel_error,
                        speed_ratio, triton_from_tile)

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--baseline", default="")
parser.add_argument("--m", type=int, default=4096)
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
log = logger(args.log)
HERE = os.path.dirname(os.path.abspath(__file__))
src = triton_from_tile(os.path.join(HERE, "kernels/probe_generality2.tile"),
                       "@triton.jit\nkernel fp8_gemm_kernel(")
# The kernel without the port's @autotune line: each config timed alone.
fp8_gemm = src.fp8_gemm_kernel

torch.manual_seed(0)
M = args.m
first = sorted(glob.glob(f"{args.dir}/fp8_gemm_*.json"))[0]
constexprs = __import__("json").load(open(first))["constexprs"]
N, K = constexprs["N"], constexprs["K"]
e4m3 = torch.float8_e4m3fn
a = (torch.randn(M, K, device="cuda") * 2).to(e4m3)
b = (torch.randn(N, K, device="cuda") * 2).to(e4m3)
a_s = torch.rand(M, K // 128, device="cuda") * 0.01 + 1e-3
b_s = torch.rand(N // 128, K // 128, device="cuda") * 0.01 + 1e-3
ref = torch.zeros(M, N, device="cuda", dtype=torch.float64)
for i in range(K // 128):
    ks = slice(i * 128, (i + 1) * 128)
    ref += (a[:, ks].double() @ b[:, ks].double().T) * a_s[:, i:i + 1].double() \
        * b_s[:, i].double().repeat_interleave(128)[None, :]
flops = 2 * M * N * K
log(f"fp8_gemm_kernel M={M} N={N} K={K} (TFLOP/s; speed ratios are medians "
    f"of {args.rounds} interleaved rounds)")
for path in sorted(glob.glob(f"{args.dir}/fp8_gemm_*.ptx")):
    name = os.path.basename(path)[:-4]
    bm, bn, stages = map(int, re.match(r"fp8_gemm_(\d+)x(\d+)_s(\d+)", name)
                         .groups())
    grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
    contenders = {}
    outs = {}
    for label, where in [("tilec", args.dir)] + (
            [("old tilec", args.baseline)] if args.baseline else []):
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        outs[label] = c
        contenders[label] = Kernel(where, name).bind(
            a, b, c, a_s, b_s, M, grid=grid)
    c_t = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    outs["Triton"] = c_t

    def triton_launch(c=c_t, bm=bm, bn=bn, stages=stages, grid=grid):
        fp8_gemm[grid](a, b, c, a_s, b_s, M, N, K, bm, bn, 128,
                       num_warps=8, num_stages=stages)
    contenders["Triton"] = triton_launch
    bad = []
    for label, fn in contenders.items():
        fn()
        torch.cuda.synchronize()
        err = rel_error(outs[label], ref)
        if not err < 8e-3:
            bad.append(f"{label} rel_err {err:.2e}")
    if bad:
        log(f"  {name}: WRONG ({', '.join(bad)}); not timed")
        continue
    times = interleaved_times(contenders, args.rounds)
    rates = {k: flops / (sorted(v)[len(v) // 2] * 1e-3) / 1e12
             for k, v in times.items()}
    line = ", ".join(f"{k} {r:.0f}" for k, r in rates.items())
    ratios = f"tilec/Triton {speed_ratio(times, 'tilec', 'Triton'):.2f}x"
    if args.baseline:
        ratios += f", tilec/old {speed_ratio(times, 'tilec', 'old tilec'):.2f}x"
    log(f"  {name} ({bm}x{bn}, {stages} stages): {line}; {ratios}")
