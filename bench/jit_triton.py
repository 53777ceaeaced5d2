"""Triton's side of the JIT comparison (bench/jit_bench.sh runs both).

cold: the tutorial matmul with one fixed config, first call in a fresh
      process with an empty TRITON_CACHE_DIR (compile + load + launch,
      Python import excluded), 5 processes;
warm: host time per launch of an already compiled kernel (256^3);
tune: the tutorial's autotuned kernel (8 configs), first call at 4096^3 in
      a fresh process with an empty cache.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def child(mode):
    import torch
    import triton
    sys.path.insert(0, os.path.dirname(__file__))
    import matmul_bench as mb
    S = 4096 if mode == "tune" else 256
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    b = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c = torch.empty(S, S, device="cuda", dtype=torch.float16)
    torch.cuda.synchronize()
    if mode == "tune":
        t0 = time.perf_counter()
        mb.triton_matmul(a, b, c)
        torch.cuda.synchronize()
        print(time.perf_counter() - t0)
        return
    import triton_matmul
    kernel = triton_matmul.matmul_kernel  # the un-autotuned JIT function
    grid = (triton.cdiv(S, 128) * triton.cdiv(S, 256),)
    args = (a, b, c, S, S, S, S, 1, S, 1, S, 1)
    meta = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                GROUP_SIZE_M=8, num_warps=8, num_stages=3)
    t0 = time.perf_counter()
    kernel[grid](*args, **meta)
    torch.cuda.synchronize()
    cold = time.perf_counter() - t0
    if mode == "cold":
        print(cold)
        return
    per = []
    for _ in range(7):
        for _ in range(20):
            kernel[grid](*args, **meta)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(200):
            kernel[grid](*args, **meta)
        per.append((time.perf_counter() - t0) / 200 * 1e6)
        torch.cuda.synchronize()
    print(statistics.median(per))


def run(mode):
    env = dict(os.environ, TRITON_CACHE_DIR=tempfile.mkdtemp())
    out = subprocess.run([sys.executable, __file__, "--child", mode], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
        sys.exit(0)
    cold = [run("cold") for _ in range(5)]
    print(f"TRITON COLD compile+load+launch tutorial matmul 128x256x64: "
          f"first {cold[0]:.3f} s, median of 5 {statistics.median(cold):.3f} s")
    print(f"TRITON WARM host time per launch (256^3, 12 args): "
          f"{run('warm'):.2f} us")
    print(f"TRITON TUNE first call of the autotuned tutorial matmul (4096^3, "
          f"8 configs): {run('tune'):.3f} s")
