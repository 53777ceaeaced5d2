"""A whole 2^17- or 2^18-element block summed by each program of 4 warps
(bench/kernels/large_block_sum.tile, built by bench/build_large_block_sum.sh)
against the same source under Triton 3.6 and torch.sum, and against a
baseline build (--baseline DIR) where it has the kernel. Every contender
is checked against a float64 sum of fresh random data first; tilec and
Triton zero the 4-byte output before each launch (inside the timed
graph), torch.sum writes it. Medians of interleaved rounds.

usage: python3 bench/large_block_sum_bench.py DIR [LOG] [--baseline DIR2] [--once]
"""
import argparse
import os

import torch
import triton

from tilelaunch import BandwidthComparison, Kernel, logger, triton_from_tile

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--baseline", default="")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--once", action="store_true",
                    help="launch each tilec kernel once and check it (for "
                    "compute-sanitizer), no timing")
args = parser.parse_args()
log = logger(args.log)


# The same source under Triton.
sum_kernel = triton_from_tile(
    os.path.join(os.path.dirname(os.path.abspath(__file__)),
                 "kernels/large_block_sum.tile"),
    "kernel sum_kernel").sum_kernel


comparison = BandwidthComparison(log, rounds=args.rounds)
for block in (131072, 262144):
    for n in (1 << 27, (1 << 27) - 12345):
        x = torch.rand(n, device="cuda", dtype=torch.float32) - 0.25
        out = torch.zeros(1, device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(n, block),)
        fns = {}

        def tilec_fn(folder):
            k = Kernel(folder, f"sum_{block}").bind(x, out, n)

            def run():
                out.zero_()
                k()
            return run

        if not os.path.exists(f"{args.dir}/sum_{block}.json"):
            log(f"sum {block}: not built ({args.dir})")
            continue
        fns["tilec"] = tilec_fn(args.dir)
        if args.baseline and os.path.exists(f"{args.baseline}/sum_{block}.json"):
            fns["old"] = tilec_fn(args.baseline)

        def run_triton():
            out.zero_()
            sum_kernel[grid](x, out, n, BLOCK=block, num_warps=4)
        fns["triton"] = run_triton
        fns["torch"] = lambda: torch.sum(x, 0, keepdim=True, out=out)

        def check(name):
            x.copy_(torch.rand(n, device="cuda", dtype=torch.float32) - 0.25)
            fns[name]()
            torch.cuda.synchronize()
            ref = x.double().sum().item()
            return abs(out.item() - ref) / abs(ref)

        if args.once:
            err = check("tilec")
            log(f"sum {block}-blocks n={n}: rel_err={err:.2e} "
                f"{'ok' if err <= 1e-4 else 'FAIL'}")
            continue
        comparison.compare(f"sum {block}-blocks n={n}", fns, 4 * n, check,
                           tol=1e-4)
log(f"failed checks: {comparison.failures or 'none'}")
