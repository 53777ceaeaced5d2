#!/usr/bin/env python3
"""Which cuBLAS kernel torch.matmul runs for each matmul shape #12 measures.

The kernel's name says its schedule (tile, cluster, warp specialization,
split-K or stream-K); the trace adds its grid, block, registers and shared
memory. Knowing what the library does at a size says what a tile compiler
must do to match it there.

Usage: python3 bench/cublas_kernels.py [LOG]
"""
import json
import os
import sys
import tempfile

import torch

SHAPES = [(1000, 1000, 1000), (1024, 1024, 1024), (2048, 2048, 2048),
          (2048, 3072, 768), (3072, 3072, 3072), (4096, 4096, 4096),
          (4096, 4096, 4097), (6144, 6144, 6144), (8192, 8192, 8192)]
DTYPES = [("fp16", torch.float16), ("bf16", torch.bfloat16),
          ("tf32", torch.float32)]
TRACE_FIELDS = ["grid", "block", "registers per thread", "shared memory",
                "blocks per SM"]


def kernel_events(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            trace = json.load(f)
    kernels = {}
    for ev in trace.get("traceEvents", []):
        if ev.get("cat") != "kernel":
            continue
        entry = kernels.setdefault(ev["name"], {"durs": [], "args": ev.get("args", {})})
        entry["durs"].append(ev.get("dur", 0.0))
    return kernels


def main():
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else None

    def say(line):
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()

    say(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    torch.backends.cuda.matmul.allow_tf32 = True
    for tag, dtype in DTYPES:
        for m, n, k in SHAPES:
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            kernels = kernel_events(lambda: torch.matmul(a, b))
            for name, entry in kernels.items():
                durs = sorted(entry["durs"])
                med = durs[len(durs) // 2]
                tflops = 2.0 * m * n * k / (med * 1e-6) / 1e12
                facts = ", ".join(f"{f}={entry['args'].get(f)}" for f in TRACE_FIELDS)
                say(f"{tag} {m}x{n}x{k}: {med:.1f} us ({tflops:.0f} TFLOP/s) "
                    f"x{len(durs)} {name[:160]} [{facts}]")


if __name__ == "__main__":
    main()
