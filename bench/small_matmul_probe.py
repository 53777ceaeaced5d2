"""Where a small matmul's time goes (issue 12: 1000^3 at 0.64-0.70x
cuBLAS): every config of a bench/build_matmul.sh (or
build_matmul_variant.sh) build against cuBLAS, each checked against
float64 first, graph-replayed launches (no host launch cost), medians of
5 interleaved rounds; per config its time and its speed over cuBLAS's
(median of the per-round ratios). Over K at M = N = 1000 the time at
K = 64 is about the fixed cost (launch, prologue, epilogue) and the slope
the main loop's.

With --pad P, A, B and C are views of matrices whose rows are padded to
a multiple of P elements (rows then start at the same offset in every
cache line; cuBLAS gets the same views).

usage: python3 bench/small_matmul_probe.py DIR [--kernel matmul_div8]
           [--sizes 1000x1000x64,...] [--pad 64]
"""
import argparse
import json
import statistics

import torch

from tilelaunch import Kernel, graph_ms, rel_error

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--kernel", default="matmul_div8")
parser.add_argument("--sizes", default=",".join(
    f"1000x1000x{k}" for k in (64, 256, 1000, 2000, 4000)))
parser.add_argument("--pad", type=int, default=0)
parser.add_argument("--pad-which", default="abc",
                    help="which of A, B and C get padded rows")
args = parser.parse_args()


def matrix(rows, cols, which):
    """rows x cols fp16, its rows padded to a multiple of --pad."""
    pad = args.pad if which in args.pad_which else 0
    ld = -(-cols // pad) * pad if pad else cols
    return torch.randn(rows, ld, device="cuda", dtype=torch.float16)[:, :cols]


configs = json.load(open(f"{args.dir}/{args.kernel}.json"))
torch.manual_seed(0)
for size in args.sizes.split(","):
    M, N, K = (int(x) for x in size.split("x"))
    a, b = matrix(M, K, "a"), matrix(K, N, "b")
    ref = a.double() @ b.double()
    c = matrix(M, N, "c")
    fns, names = [], []
    for i, md in enumerate(configs):
        k = Kernel(args.dir, args.kernel, i)
        call = (a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
        c.fill_(float("nan"))
        k(*call)
        torch.cuda.synchronize()
        err = rel_error(c, ref)
        assert err < 2e-3, (i, size, err)
        cx = md["constexprs"]
        names.append(f"{cx['BLOCK_M']}x{cx['BLOCK_N']}x{cx['BLOCK_K']} "
                     f"w{md['num_warps']} s{md['num_stages']}")
        fns.append(k.bind(*call))
    c2 = matrix(M, N, "c")
    names.append("cuBLAS")
    # A padded C is no contiguous out= tensor: cuBLAS then writes its own.
    fns.append((lambda: torch.matmul(a, b, out=c2)) if c2.is_contiguous()
               else (lambda: torch.matmul(a, b)))
    rounds = [[graph_ms(f) * 1000 for f in fns] for _ in range(5)]
    for i, name in enumerate(names):
        us = statistics.median(r[i] for r in rounds)
        vs = statistics.median(r[-1] / r[i] for r in rounds)
        print(f"{size:16s} {name:22s} {us:8.2f} us "
              f"{2 * M * N * K / us / 1e6:6.1f} TFLOP/s  vs cuBLAS {vs:.3f}x",
              flush=True)
