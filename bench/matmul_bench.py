"""matmul.tile against cuBLAS (torch.matmul) and Triton's tutorial kernel.

Runs on the device machine with the PTX that bench/build_matmul.sh built.
For each size: fresh random inputs (fp16 unless --dtype), a correctness check of every
compiled config against float64 (before any timing), autotuning over the
@autotune configs (as the JIT would: the fastest config for this shape,
among those whose specialization the arguments satisfy), then at least 5
interleaved rounds of (tilec, cuBLAS, Triton); each round times each
contender as the median over CUDA-event timings of a CUDA graph of 20
back-to-back launches (so no contender's host launch overhead counts), and
the reported ratio is the median of the per-round ratios. With
--grouping, also compares examples/matmul_2d.tile compiled with and without
the grouped-program-order pass.

With --baseline DIR2, also compares each config with the same config
compiled by another build (a compiler change's effect on the kernels).

With --dtype bf16 or fp32 (tf32 tensor cores, cuBLAS's tf32 too) and
--bt (B a transposed view of an N x K matrix: A @ W^T) or --at --bt (A
a transposed view too: X^T @ W^T), the same for kernels built with
DTYPE=... LAYOUT=bt (or tt) bash bench/build_matmul.sh.

usage: python3 bench/matmul_bench.py DIR [LOG] [--sizes 4096x4096x4096,...]
       [--baseline DIR2] [--dtype fp16|bf16|fp32] [--at] [--bt]
"""
import argparse
import json
import os
import statistics

import torch
import triton

from tilelaunch import Kernel, graph_ms, rel_error
from triton_matmul import matmul_args, tuned_matmul

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--sizes", default="1024x1024x1024,2048x2048x2048,"
                    "4096x4096x4096,8192x8192x8192,2048x3072x768,1000x1000x1000")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--grouping", default="8192x8192x8192",
                    help="sizes for the grouped-order comparison ('' to skip)")
parser.add_argument("--baseline",
                    help="a DIR of the same kernels from another compiler "
                    "build: each config is compared with its counterpart "
                    "there, interleaved, at the given sizes")
parser.add_argument("--dtype", default="fp16", choices=["fp16", "bf16", "fp32"],
                    help="A, B and C's type (fp32: tf32 tensor cores)")
parser.add_argument("--bt", action="store_true",
                    help="B as the transposed view of an N x K matrix")
parser.add_argument("--at", action="store_true",
                    help="A as the transposed view of a K x M matrix")
args = None
LOG = None
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
# One rounding of C (bf16: 8 bits) or tf32's 10-bit operands dominate.
TOLERANCE = {"fp16": 2e-3, "bf16": 8e-3, "fp32": 4e-3}


def operands(M, N, K, seed):
    """Fresh random A (M x K; with --at the transposed view of a K x M
    matrix), B (K x N; with --bt the transposed view of an N x K matrix), C
    and the float64 reference, in --dtype."""
    torch.manual_seed(seed)
    dtype = DTYPES[args.dtype]
    if args.at:
        a = torch.randn(K, M, device="cuda", dtype=dtype).t()
    else:
        a = torch.randn(M, K, device="cuda", dtype=dtype)
    if args.bt:
        b = torch.randn(N, K, device="cuda", dtype=dtype).t()
    else:
        b = torch.randn(K, N, device="cuda", dtype=dtype)
    c = torch.empty(M, N, device="cuda", dtype=dtype)
    return a, b, c, a.double() @ b.double()


def log(msg):
    print(msg, flush=True)
    if LOG:
        LOG.write(msg + "\n")
        LOG.flush()


# --- Triton's tutorial matmul (03-matrix-multiplication), fp16 ----------
def triton_configs():
    c = triton.Config
    return [
        c({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64,
           "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
        c({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        c({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        c({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        c({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        c({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        c({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=5, num_warps=2),
        c({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
           "GROUP_SIZE_M": 8}, num_stages=5, num_warps=2),
    ]


triton_matmul = tuned_matmul(triton_configs())


# --- tilec kernels -------------------------------------------------------
def load_variants(directory):
    """Every compiled (specialization, config) of matmul.tile."""
    kernels = []
    for spec in ["div16", "div8", "div1"]:
        name = f"matmul_{spec}"
        if not os.path.exists(f"{directory}/{name}.json"):
            continue
        md = json.load(open(f"{directory}/{name}.json"))
        for i in range(len(md) if isinstance(md, list) else 1):
            k = Kernel(directory, name, i)
            c = k.md["constexprs"]
            # examples/matmul.tile's names, or the tutorial's.
            bm, bn, bk = (c.get(f"BLOCK_{d}", c.get(f"BLOCK_SIZE_{d}"))
                          for d in "MNK")
            k.label = (f"{spec} {bm}x{bn}x{bk} "
                       f"w{k.md['num_warps']} s{k.md['num_stages']}")
            kernels.append(k)
    return kernels


def telemetry():
    """SM clock (MHz), power (W) and temperature (C) now, where NVML is
    available: the card throttles under sustained load, which shows in
    the per-round numbers."""
    try:
        return (f"{torch.cuda.clock_rate()} MHz "
                f"{torch.cuda.power_draw() / 1000:.0f} W "
                f"{torch.cuda.temperature()} C")
    except Exception:
        return "no telemetry"


def tflops(M, N, K, ms):
    return 2 * M * N * K / ms / 1e9


def checked_error(kernel, a, b, c, ref):
    """Relative error of one launch of `kernel` on (a, b) into c, filled
    with NaN first (so an unwritten element fails), against `ref`."""
    c.fill_(float("nan"))
    kernel(*matmul_args(a, b, c))
    torch.cuda.synchronize()
    return rel_error(c, ref)


def bench_size(M, N, K, kernels, reps):
    a, b, c, ref = operands(M, N, K, M * 7 + N * 3 + K)
    shape = f"{M}x{N}x{K}"

    # Correctness first: every applicable config, the baselines too.
    usable = [k for k in kernels if k.accepts(*matmul_args(a, b, c))]
    ok = True
    for k in usable:
        err = checked_error(k, a, b, c, ref)
        good = err <= TOLERANCE[args.dtype]
        ok &= good
        log(f"  check {shape} {k.label:32s} rel_err={err:.2e} "
            f"{'ok' if good else 'FAIL'}")
    c_t = torch.empty_like(c)
    triton_matmul(a, b, c_t)
    c_ref = torch.matmul(a, b)
    torch.cuda.synchronize()
    log(f"  check {shape} triton rel_err={rel_error(c_t, ref):.2e}, "
        f"cublas rel_err={rel_error(c_ref, ref):.2e}")
    if not ok:
        return None

    # Autotune over the configs whose specialization applies.
    # (Only the most specialized variant that applies, as a JIT would pick.)
    best_spec = usable[0].label.split()[0]
    candidates = [k for k in usable if k.label.startswith(best_spec + " ")]
    timings = {k.label: graph_ms(k.bind(*matmul_args(a, b, c)), reps=reps)
               for k in candidates}
    for label, ms in sorted(timings.items(), key=lambda x: x[1]):
        log(f"  tune  {shape} {label:32s} {ms:8.3f} ms "
            f"{tflops(M, N, K, ms):7.1f} TFLOP/s")
    best = min(candidates, key=lambda k: timings[k.label])

    ours = best.bind(*matmul_args(a, b, c))
    cublas = lambda: torch.matmul(a, b, out=c_ref)
    trit = lambda: triton_matmul(a, b, c_t)
    rounds, states = [], []
    for _ in range(args.rounds):
        t = []
        for f in (ours, cublas, trit):
            t.append(graph_ms(f, reps=reps))
            states.append(telemetry())
        rounds.append(t)
    r_cublas = statistics.median(r[1] / r[0] for r in rounds)
    r_triton = statistics.median(r[2] / r[0] for r in rounds)
    med = [statistics.median(r[i] for r in rounds) for i in range(3)]
    log(f"RESULT {shape:16s} tilec {med[0]:8.3f} ms {tflops(M, N, K, med[0]):6.1f} "
        f"| cuBLAS {med[1]:8.3f} ms {tflops(M, N, K, med[1]):6.1f} "
        f"| Triton {med[2]:8.3f} ms {tflops(M, N, K, med[2]):6.1f} "
        f"| tilec/cuBLAS {r_cublas:5.2f}x tilec/Triton {r_triton:5.2f}x "
        f"(speed ratios, median of {len(rounds)} rounds) [{best.label}]")
    log("  rounds (ms tilec, cuBLAS, Triton): " +
        "; ".join(", ".join(f"{x:.4f}" for x in r) for r in rounds))
    log("  after each timing: " + "; ".join(states))
    return r_cublas


def bench_grouping(M, N, K, directory, reps):
    """matmul_2d.tile with and without tile-group-program-order: each
    variant autotuned over its configs, then interleaved rounds."""
    a, b, c, ref = operands(M, N, K, 1)
    shape = f"{M}x{N}x{K}"
    kernels = {}
    for variant in ["grouped", "rowmajor"]:
        name = f"matmul_2d_{variant}"
        md = json.load(open(f"{directory}/{name}.json"))
        kernels[variant] = [Kernel(directory, name, i) for i in range(len(md))]
        for k in kernels[variant]:
            err = checked_error(k, a, b, c, ref)
            log(f"  check {shape} {name} {k.md['kernel']} grid={k.md['grid']} "
                f"rel_err={err:.2e} {'ok' if err <= TOLERANCE[args.dtype] else 'FAIL'}")
            if not err <= TOLERANCE[args.dtype]:
                return
    # Each config with and without the pass, interleaved; the autotuned
    # pair is the fastest of each side.
    results = []
    for g_kernel, r_kernel in zip(kernels["grouped"], kernels["rowmajor"]):
        g = g_kernel.bind(*matmul_args(a, b, c))
        r = r_kernel.bind(*matmul_args(a, b, c))
        rounds = [(graph_ms(g, reps=reps), graph_ms(r, reps=reps))
                  for _ in range(args.rounds)]
        cfg = g_kernel.md["constexprs"]
        label = (f"{cfg['BLOCK_M']}x{cfg['BLOCK_N']}x{cfg['BLOCK_K']} "
                 f"w{g_kernel.md['num_warps']}")
        speedup = statistics.median(x[1] / x[0] for x in rounds)
        mg = statistics.median(x[0] for x in rounds)
        mr = statistics.median(x[1] for x in rounds)
        faster = sum(x[0] < x[1] for x in rounds)
        log("  rounds (ms grouped, row-major): " +
            "; ".join(f"{x[0]:.4f}, {x[1]:.4f}" for x in rounds))
        log(f"GROUPING {shape} {label} grouped {mg:.3f} ms "
            f"{tflops(M, N, K, mg):.1f} TFLOP/s | row-major {mr:.3f} ms "
            f"{tflops(M, N, K, mr):.1f} TFLOP/s | grouped speed-up "
            f"{speedup:.3f}x (median of {len(rounds)} rounds, grouped faster "
            f"in {faster})")
        results.append((mg, mr))
    best_g = min(x[0] for x in results)
    best_r = min(x[1] for x in results)
    log(f"GROUPING {shape} autotuned: grouped {best_g:.3f} ms, row-major "
        f"{best_r:.3f} ms, speed-up {best_r / best_g:.3f}x")


def bench_baseline(M, N, K, kernels, baseline, reps):
    """Each config (of the most specialized variant the shape allows)
    against the same config compiled by another build
    (after checking both): the speed ratio of this build over the other,
    median of interleaved rounds."""
    a, b, c, ref = operands(M, N, K, M + N + K)
    shape = f"{M}x{N}x{K}"
    old = {k.label: k for k in baseline}
    usable = [k for k in kernels
              if k.label in old and k.accepts(*matmul_args(a, b, c))]
    if not usable:
        return
    # The most specialized variant that applies, as the tuning picks.
    spec = usable[0].label.split()[0]
    for k in usable:
        if not k.label.startswith(spec + " "):
            continue
        pair = (k, old[k.label])
        for which, kernel in zip(("this", "baseline"), pair):
            err = checked_error(kernel, a, b, c, ref)
            if not err <= TOLERANCE[args.dtype]:
                log(f"  check {shape} {which} {k.label} rel_err={err:.2e} FAIL")
                return
        new_f, old_f = (x.bind(*matmul_args(a, b, c)) for x in pair)
        rounds = [(graph_ms(new_f, reps=reps), graph_ms(old_f, reps=reps))
                  for _ in range(args.rounds)]
        ratio = statistics.median(r[1] / r[0] for r in rounds)
        log(f"BASELINE {shape} {k.label:28s} this "
            f"{statistics.median(r[0] for r in rounds):.3f} ms, baseline "
            f"{statistics.median(r[1] for r in rounds):.3f} ms, speed ratio "
            f"{ratio:.3f}x (median of {len(rounds)} rounds, faster in "
            f"{sum(r[0] < r[1] for r in rounds)})")


def main():
    # cuBLAS's fp32 matmul on the tf32 tensor cores, as tilec's and
    # Triton's fp32 dot (input_precision="tf32").
    torch.backends.cuda.matmul.allow_tf32 = args.dtype == "fp32"
    log(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
        f"triton {triton.__version__}, {args.dtype}{', A transposed' if args.at else ''}{', B transposed' if args.bt else ''}")
    kernels = load_variants(args.dir)
    baseline = load_variants(args.baseline) if args.baseline else None
    for size in args.sizes.split(","):
        M, N, K = (int(x) for x in size.split("x"))
        reps = 10 if M * N * K >= 4096 ** 3 else 30
        bench_size(M, N, K, kernels, reps)
        if baseline:
            bench_baseline(M, N, K, kernels, baseline, reps)
    for size in filter(None, args.grouping.split(",")):
        M, N, K = (int(x) for x in size.split("x"))
        bench_grouping(M, N, K, args.dir, 10)


if __name__ == "__main__":
    args = parser.parse_args()
    LOG = open(args.log, "w") if args.log else None
    main()
