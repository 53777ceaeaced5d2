"""mma.sync's 8-bit form (m16n8k32) under compute-sanitizer: int8 at 32x64
and 16x64 tiles (K-major operands through ldmatrix, B N-major element by
element) and as written at 64x128 (its paths wgmma does not take); fp8
e4m3 x e5m2 K-major and as written; K = 100, a masked tail. Each result
is checked against float64. Part of bench/sanitize_examples.py, and alone:

usage: python3 bench/sanitize_mma8.py CORRECTNESS_DIR
"""
import sys

import torch

from tilelaunch import Kernel


def small_matmul(cdir, name, a, b, c):
    """bench/kernels/int8_matmul.tile's kernel (or its fp8 copy) on A, B."""
    (M, K), N = a.shape, b.shape[1]
    bm, bn = (int(x) for x in name.rsplit("_", 1)[1].split("x"))
    Kernel(cdir, name).bind(a, b, c, M, N, K, *a.stride(), *b.stride(),
                            *c.stride(), grid=(-(-M // bm) * -(-N // bn),))()
    torch.cuda.synchronize()
    err = (c.double() - a.double() @ b.double()).abs().max().item()
    assert err <= (0 if c.dtype == torch.int32 else 1e-3), (name, err)


def run(cdir):
    for name in ["int8_matmul_32x64", "int8_matmul_kmajor_16x64",
                 "int8_matmul_64x128"]:
        for transposed in [True, False]:
            a = torch.randint(-128, 128, (96, 100), device="cuda",
                              dtype=torch.int8)
            b = torch.randint(-128, 128, (72, 100) if transposed else (100, 72),
                              device="cuda", dtype=torch.int8)
            small_matmul(cdir, name, a, b.t() if transposed else b,
                         torch.empty(96, 72, device="cuda", dtype=torch.int32))
            if "kmajor" in name:
                break
    a = torch.randn(96, 100, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(72, 100, device="cuda").to(torch.float8_e5m2)
    for name in ["fp8_small_matmul_kmajor_32x64", "fp8_small_matmul_16x64"]:
        small_matmul(cdir, name, a, b.t(), torch.empty(96, 72, device="cuda"))


if __name__ == "__main__":
    run(sys.argv[1])
    print("sanitize_mma8: all launches done")
