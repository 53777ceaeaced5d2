"""tritonbench's int4 GEMM (bench/kernels/probe_tritonbench.tile's
matmul_kernel: bf16 A times B packed two int4 per byte, unpacked in the
kernel by join / permute / reshape) under tilec (PTX from
bench/build_int4.sh, one or two builds) against the same source under
Triton 3.6 at the same config, and torch.matmul on the unpacked bf16
weight (what a user without the kernel would call). Every contender is
checked against the float64 product first (exact small-integer inputs);
CUDA-graph timing, medians of 5 interleaved rounds.

usage: python3 bench/int4_bench.py DIR [LOG] [--baseline DIR2]
"""
import importlib
import os
import statistics
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_generality_triton as pgt  # noqa: E402
import probe_tritonbench_cpu as pt  # noqa: E402
from tilelaunch import Kernel, graph_ms, logger  # noqa: E402

# The .tile imports tritonbench's host helpers; this module stubs them.
importlib.import_module("probe_tritonbench_triton")

argv = sys.argv[1:]
baseline = None
if "--baseline" in argv:
    i = argv.index("--baseline")
    baseline = argv[i + 1]
    del argv[i:i + 2]
DIR = argv[0]
log = logger(argv[1] if len(argv) > 1 else None)
torch.manual_seed(0)
triton_kernel = pgt.as_python(pt.TILE, tempfile.mkdtemp()).matmul_kernel.fn
CONFIGS = [(16, 128, 256, 4, 4), (64, 128, 128, 4, 4)]
SIZES = [(16, 4096, 4096), (64, 8192, 4096), (256, 4096, 4096),
         (1024, 8192, 4096)]

for M, N, K in SIZES:
    a = torch.randint(-8, 8, (M, K), device="cuda").to(torch.bfloat16)
    packed = torch.randint(-128, 128, (K // 2, N), device="cuda",
                           dtype=torch.int8)
    wide = packed.to(torch.int32)
    b = torch.stack([(wide << 28) >> 28, wide >> 4], 1).reshape(K, N)
    b16 = b.to(torch.bfloat16)
    want = a.double() @ b.double()
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    args = (a, packed, c, M, N, K, a.stride(0), a.stride(1), packed.stride(0),
            packed.stride(1), c.stride(0), c.stride(1))
    runs = {}
    for bm, bn, bk, w, s in CONFIGS:
        grid = (-(-M // bm) * -(-N // bn),)
        name = f"{bm}x{bn}x{bk}w{w}"
        runs[f"tilec {name}"] = Kernel(DIR, f"int4_{name}").bind(*args,
                                                                grid=grid)
        if baseline:
            runs[f"base {name}"] = Kernel(baseline, f"int4_{name}").bind(
                *args, grid=grid)
        runs[f"triton {name}"] = (
            lambda grid=grid, bm=bm, bn=bn, bk=bk, w=w, s=s: triton_kernel[
                grid](*args, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                      BLOCK_SIZE_K=bk, GROUP_SIZE_M=32, num_warps=w,
                      num_stages=s))
    runs["torch bf16"] = lambda: torch.matmul(a, b16)
    for name, run in runs.items():
        c.fill_(float("nan"))
        out = run()
        torch.cuda.synchronize()
        got = out if name == "torch bf16" else c
        err = ((got.double() - want).norm() / want.norm()).item()
        log(f"check {M}x{N}x{K} {name}: relative error {err:.2e}")
        assert err < 8e-3, name
    times = {k: [] for k in runs}
    for _ in range(5):
        for k, run in runs.items():
            times[k].append(graph_ms(run))
    tops = {k: 2 * M * N * K / statistics.median(t) / 1e9
            for k, t in times.items()}
    ratio = lambda x, y: statistics.median(
        o / t for t, o in zip(times[x], times[y]))
    log(f"{M}x{N}x{K}: " + "; ".join(f"{k} {v:.0f}" for k, v in tops.items())
        + " TFLOP/s")
    for bm, bn, bk, w, s in CONFIGS:
        name = f"{bm}x{bn}x{bk}w{w}"
        line = (f"  {name}: tilec vs triton {ratio(f'tilec {name}', f'triton {name}'):.2f}x, "
                f"vs torch bf16 {ratio(f'tilec {name}', 'torch bf16'):.2f}x")
        if baseline:
            line += f", vs base {ratio(f'tilec {name}', f'base {name}'):.2f}x"
        log(line)
