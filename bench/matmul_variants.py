"""Several compiler builds of examples/matmul.tile's configs against each
other, cuBLAS and Triton's tutorial kernel at the same config, interleaved.

For a compiler experiment with more than one candidate: each DIR holds the
output of bench/build_matmul_variant.sh (the div16 specialization, every
config). For each size and config index: every variant checked against
float64 first, then `--rounds` rounds, each timing every variant, cuBLAS
and Triton (fixed to the same tile, warps and stages) once in turn; the
ratios are medians of the per-round ratios.

usage: python3 bench/matmul_variants.py LOG DIR... [--sizes ...] [--configs 0,1]
"""
import argparse
import statistics

import torch
import triton

from matmul_bench import checked_error, telemetry, tflops
from tilelaunch import Kernel, graph_ms, rel_error
from triton_matmul import matmul_args, seeded_problem, tuned_matmul

parser = argparse.ArgumentParser()
parser.add_argument("log")
parser.add_argument("dirs", nargs="+")
parser.add_argument("--sizes", default="4096x4096x4096,8192x8192x8192")
parser.add_argument("--configs", default="0")
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
LOG = open(args.log, "w")


def log(msg):
    print(msg, flush=True)
    LOG.write(msg + "\n")
    LOG.flush()


def triton_at(md):
    c = tile_of(md)
    cfg = triton.Config({"BLOCK_SIZE_M": c["BLOCK_M"], "BLOCK_SIZE_N": c["BLOCK_N"],
                         "BLOCK_SIZE_K": c["BLOCK_K"], "GROUP_SIZE_M": c["GROUP_M"]},
                        num_warps=md["num_warps"], num_stages=md["num_stages"])
    return tuned_matmul([cfg])


def tile_of(md):
    """The tile constexprs under tutorial 03's names (BLOCK_M, ...), also
    for tutorial 09's kernels (BLOCK_SIZE_M, ...)."""
    c = md["constexprs"]
    return {k: c.get(k, c.get(k.replace("BLOCK_", "BLOCK_SIZE_").replace(
        "GROUP_M", "GROUP_SIZE_M"))) for k in
        ("BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M")}


def main():
    log(f"device: {torch.cuda.get_device_name()}, variants: {args.dirs}")
    for size in args.sizes.split(","):
        M, N, K, a, b, ref = seeded_problem(size)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        reps = 10 if M * N * K >= 4096 ** 3 else 30
        for index in (int(i) for i in args.configs.split(",")):
            kernels = [Kernel(d, "matmul_div16", index) for d in args.dirs]
            md = kernels[0].md
            t = tile_of(md)
            label = (f"{size} {t['BLOCK_M']}x{t['BLOCK_N']}x{t['BLOCK_K']} "
                     f"w{md['num_warps']} s{md['num_stages']}")
            for d, k in zip(args.dirs, kernels):
                err = checked_error(k, a, b, c, ref)
                log(f"  check {label} {d} rel_err={err:.2e} "
                    f"{'ok' if err <= 2e-3 else 'FAIL'}")
                if not err <= 2e-3:
                    return
            tri = triton_at(md)
            c_t = torch.empty_like(c)
            tri(a, b, c_t)
            torch.cuda.synchronize()
            log(f"  check {label} triton rel_err={rel_error(c_t, ref):.2e}")
            fns = [k.bind(*matmul_args(a, b, c)) for k in kernels]
            fns.append(lambda: torch.matmul(a, b, out=c_t))
            fns.append(lambda: tri(a, b, c_t))
            names = list(args.dirs) + ["cuBLAS", "Triton"]
            rounds, states = [], []
            for _ in range(args.rounds):
                rounds.append([graph_ms(f, reps=reps) for f in fns])
                states.append(telemetry())
            med = [statistics.median(r[i] for r in rounds) for i in range(len(fns))]
            for i, name in enumerate(names):
                vs_cublas = statistics.median(r[-2] / r[i] for r in rounds)
                vs_first = statistics.median(r[0] / r[i] for r in rounds)
                log(f"VARIANT {label} {name:28s} {med[i]:.4f} ms "
                    f"{tflops(M, N, K, med[i]):6.1f} TFLOP/s  vs cuBLAS {vs_cublas:.3f}x "
                    f" vs {names[0]} {vs_first:.3f}x")
            log("  telemetry: " + "; ".join(states))


main()
