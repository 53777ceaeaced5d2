"""fp8 matmul on the GPU: tilec against cuBLAS and Triton, tutorial 03.

Runs on the device machine over what bench/build_matmul_fp8.sh compiled
(.carry/matmul_fp8). For each size and fp8 type: A (M x K) and B (passed
as b.T, K-major, as tutorial 03's fp8 run does) rounded from normal fp32
values; every tilec config checked against a float64 product of the fp8
operands first; then the best config (timed once each, as an autotuner
would) against torch._scaled_mm (cuBLAS's fp8 GEMM with unit scales, fp16
out; e4m3 x e4m3 only) and the same tutorial kernel compiled by Triton
(autotuned over the same configs), in interleaved rounds; ratios are
medians over rounds. An N-major B (fp16 widenings on the tensor cores) is
checked and timed for information.

usage: python3 bench/matmul_fp8_bench.py DIR [--sizes 4096,8192] [--rounds 5]
"""
import argparse
import json
import statistics

import torch
import triton

from matmul_bench import checked_error
from tilelaunch import Kernel, graph_ms, logger, rel_error
from triton_matmul import matmul_args, tuned_matmul

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--sizes", default="4096,8192,2048")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--log")
args = parser.parse_args()
log = logger(args.log)
DTYPES = {"fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}


def triton_configs():
    """Tutorial 03's configs for fp8 inputs (and the ones matmul_fp8.tile has)."""
    c = triton.Config
    rows = [(128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4),
            (64, 256, 128, 4, 4), (128, 128, 128, 4, 4), (128, 64, 64, 4, 4),
            (64, 128, 64, 4, 4)]
    return [c({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
               "GROUP_SIZE_M": 8}, num_stages=s, num_warps=w)
            for m, n, k, s, w in rows]


triton_matmul = tuned_matmul(triton_configs())


def kernels(name):
    md = json.load(open(f"{args.dir}/{name}.json"))
    out = []
    for i in range(len(md)):
        k = Kernel(args.dir, name, i)
        c = k.md["constexprs"]
        k.label = (f"{c['BLOCK_SIZE_M']}x{c['BLOCK_SIZE_N']}x"
                   f"{c['BLOCK_SIZE_K']} w{k.md['num_warps']} "
                   f"s{k.md['num_stages']}")
        out.append(k)
    return out


def tflops(M, N, K, ms):
    return 2 * M * N * K / ms / 1e9


def best_of(candidates, a, b, c, shape, tol=2e-3):
    """Check every config, time each once; the fastest correct one."""
    ref = a.double() @ b.double()
    timings = {}
    for k in candidates:
        err = checked_error(k, a, b, c, ref)
        log(f"  check {shape} {k.label:22s} rel_err={err:.2e} "
            f"{'ok' if err <= tol else 'FAIL'} (tol {tol:.2e})")
        if err <= tol:
            timings[k] = graph_ms(k.bind(*matmul_args(a, b, c)), reps=5)
    if len(timings) != len(candidates):
        return None, None
    best = min(timings, key=timings.get)
    return best, timings[best]


def bench(M, N, K, fp8):
    dtype = DTYPES[fp8]
    torch.manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda").to(dtype)
    b = torch.randn(N, K, device="cuda").to(dtype).t()  # K-major, as b.T
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    shape = f"{fp8} {M}x{N}x{K}"
    # The libraries first: Hopper's fp8 tensor cores accumulate with fewer
    # mantissa bits than fp32, so every implementation's error grows with
    # K (above 2e-3 at K = 8192); ours must then be within 1.25x of theirs.
    ref = a.double() @ b.double()
    c_t = torch.empty_like(c)
    triton_matmul(a, b, c_t)
    baselines = {"Triton": lambda: triton_matmul(a, b, c_t)}
    lib_errs = [rel_error(c_t, ref)]
    errs = f"triton rel_err={lib_errs[0]:.2e}"
    if dtype == torch.float8_e4m3fn:
        one = torch.ones((), device="cuda")
        c_s = torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                               out_dtype=torch.float16)
        lib_errs.append(rel_error(c_s, ref))
        errs += f", cuBLAS rel_err={lib_errs[-1]:.2e}"
        baselines = {"cuBLAS": lambda: torch._scaled_mm(
            a, b, scale_a=one, scale_b=one, out_dtype=torch.float16),
            **baselines}
    torch.cuda.synchronize()
    log(f"  check {shape} {errs}")
    tol = max(2e-3, 1.25 * max(lib_errs))
    best, _ = best_of(kernels(f"matmul_{fp8}_kmajor"), a, b, c, shape, tol)
    if best is None:
        log(f"RESULT {shape} FAILED correctness")
        return
    ours = best.bind(*matmul_args(a, b, c))
    rounds = []
    for _ in range(args.rounds):
        rounds.append([graph_ms(f, reps=10)
                       for f in [ours, *baselines.values()]])
    med = [statistics.median(r[i] for r in rounds) for i in range(len(rounds[0]))]
    text = f"RESULT {shape:22s} tilec {med[0]:7.3f} ms {tflops(M, N, K, med[0]):6.1f}"
    for i, name in enumerate(baselines, start=1):
        ratio = statistics.median(r[i] / r[0] for r in rounds)
        text += (f" | {name} {med[i]:7.3f} ms {tflops(M, N, K, med[i]):6.1f}"
                 f" tilec/{name} {ratio:4.2f}x")
    log(text + f" (TFLOP/s; speed ratios, median of {len(rounds)} rounds) "
        f"[{best.label}]")
    log("  rounds (ms): " + "; ".join(", ".join(f"{x:.4f}" for x in r)
                                      for r in rounds))
    # An N-major B: fp16 widenings (for information).
    b_n = b.contiguous()
    nbest, nms = best_of(kernels(f"matmul_{fp8}_nmajor"), a, b_n, c,
                         shape + " N-major B", tol)
    if nbest:
        log(f"INFO {shape} N-major B: tilec {nms:7.3f} ms "
            f"{tflops(M, N, K, nms):6.1f} TFLOP/s [{nbest.label}]")


for size in [int(s) for s in args.sizes.split(",") if s]:
    for fp8 in DTYPES:
        bench(size, size, size, fp8)
