"""Launches every config of a matmul_variants build (bench/build_matmul_variant.sh)
at small sizes (fewer k-steps than stages, a few more) and checks each
against float64, for compute-sanitizer: `compute-sanitizer --tool racecheck
python3 bench/tma_ring_sanitize.py DIR [DIR...]`. The TMA ring refilled
after the dot's wait (2026-11-29) runs here with one warpgroup.

usage: python3 bench/tma_ring_sanitize.py DIR...
"""
import sys

import torch

from matmul_bench import checked_error
from tilelaunch import Kernel

SIZES = [(128, 128, 64), (256, 384, 320), (512, 256, 1024)]


def main():
    failures = 0
    for d in sys.argv[1:]:
        for index in range(4):
            try:
                kernel = Kernel(d, "matmul_div16", index)
            except (IndexError, KeyError, FileNotFoundError):
                break
            for M, N, K in SIZES:
                torch.manual_seed(M + N + K)
                a = torch.randn(M, K, device="cuda", dtype=torch.float16)
                b = torch.randn(K, N, device="cuda", dtype=torch.float16)
                c = torch.empty(M, N, device="cuda", dtype=torch.float16)
                err = checked_error(kernel, a, b, c, a.double() @ b.double())
                ok = err <= 2e-3
                failures += not ok
                print(f"{d} config {index} {M}x{N}x{K}: rel_err={err:.2e} "
                      f"{'ok' if ok else 'FAIL'}", flush=True)
    print(f"all launches done, {failures} failures")


main()
