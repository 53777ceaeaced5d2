"""Where the descriptor persistent matmul loses time (bench/NOTES.md): the
same 128x128x64 8-warp tile as (1) the persistent descriptor kernel with
its loops fused (flatten=True), (2) the same without fusion, (3) the
descriptor kernel with one tile per program, and the tutorial matmul with
hints at (4) 128x128 and (5) 128x256, against cuBLAS; fp16 4096^3 and
8192^3, checked against float64, medians of 5 interleaved rounds.

usage: bash bench/build_persistent_probe.sh (here), then on the GPU
       python3 bench/persistent_probe.py .carry/exp [LOG]
"""
import statistics
import sys

import torch

from tilelaunch import Kernel, graph_ms, rel_error, logger

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)



for n in [4096, 8192]:
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    bt = torch.randn(n, n, device="cuda", dtype=torch.float16)  # N x K
    b = bt.t().contiguous()                                       # K x N
    ref = a.double() @ bt.double().T
    c = torch.empty(n, n, device="cuda", dtype=torch.float16)
    fns = {}
    for name in ["fused", "unfused", "nonpersist"]:
        fns[name] = Kernel(DIR, name).bind(a, bt, c, n, n, n)
    for name in ["ptr128", "ptr256"]:
        fns[name] = Kernel(DIR, name).bind(a, b, c, n, n, n, n, 1, n, 1, n, 1)
    fns["cublas"] = lambda: torch.matmul(a, bt.T, out=c)
    for name, fn in fns.items():
        c.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        log(f"check {n}^3 {name}: rel_err={rel_error(c, ref):.2e}")
    times = {name: [] for name in fns}
    for _ in range(5):
        for name, fn in fns.items():
            times[name].append(graph_ms(fn))
    for name in fns:
        ratio = statistics.median(
            cb / t for t, cb in zip(times[name], times["cublas"]))
        ms = statistics.median(times[name])
        log(f"{n}^3 {name:10s} {2 * n**3 / ms / 1e9:6.0f} TFLOP/s "
            f"{ratio:.2f}x cuBLAS")
