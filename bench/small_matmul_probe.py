"""Where a small matmul's time goes (issue 12: 1000^3 at 0.64-0.70x
cuBLAS): every config of a bench/build_matmul.sh (or
build_matmul_variant.sh) build against cuBLAS, each checked against
float64 first, graph-replayed launches (no host launch cost), medians of
5 interleaved rounds; per config its time and its speed over cuBLAS's
(median of the per-round ratios). Over K at M = N = 1000 the time at
K = 64 is about the fixed cost (launch, prologue, epilogue) and the slope
the main loop's.

usage: python3 bench/small_matmul_probe.py DIR [--kernel matmul_div8]
           [--sizes 1000x1000x64,...]
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
args = parser.parse_args()
configs = json.load(open(f"{args.dir}/{args.kernel}.json"))
torch.manual_seed(0)
for size in args.sizes.split(","):
    M, N, K = (int(x) for x in size.split("x"))
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    ref = a.double() @ b.double()
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
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
    c2 = torch.empty_like(c)
    names.append("cuBLAS")
    fns.append(lambda: torch.matmul(a, b, out=c2))
    rounds = [[graph_ms(f) * 1000 for f in fns] for _ in range(5)]
    for i, name in enumerate(names):
        us = statistics.median(r[i] for r in rounds)
        vs = statistics.median(r[-1] / r[i] for r in rounds)
        print(f"{size:16s} {name:22s} {us:8.2f} us "
              f"{2 * M * N * K / us / 1e6:6.1f} TFLOP/s  vs cuBLAS {vs:.3f}x",
              flush=True)
