"""Tutorial 09's persistent kernels whose tiles became TMA boxes (stop 51),
for compute-sanitizer: the pointer kernel as written (fast and general
paths) and with the JIT's div16 facts, at shapes whose last tiles clamp
rows and columns and mask K, and the descriptor kernel. Every output is
checked against float64.

usage: python3 bench/sanitize_persistent_tma.py DIR
(DIR: matmul_persistent, matmul_div16 and matmul_descriptor builds)
"""
import sys

import torch

from tilelaunch import Kernel

DIR = sys.argv[1]
torch.manual_seed(0)


def check(c, a, b):
    torch.cuda.synchronize()
    err = (c.double() - a.double() @ b.double()).abs().max().item()
    assert err < 0.1, err


for i in range(2):
    for name, (M, N, K) in [("matmul_persistent", (200, 264, 136)),
                            ("matmul_div16", (208, 272, 144))]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.full((M, N), float("nan"), device="cuda",
                       dtype=torch.float16)
        Kernel(DIR, name, i)(a, b, c, M, N, K, *a.stride(), *b.stride(),
                             *c.stride())
        check(c, a, b)
    # Every stride 2: the general path.
    a2 = torch.randn(200, 272, device="cuda", dtype=torch.float16)[:, ::2]
    b2 = torch.randn(136, 528, device="cuda", dtype=torch.float16)[:, ::2]
    c2 = torch.empty(200, 528, device="cuda", dtype=torch.float16)[:, ::2]
    Kernel(DIR, "matmul_persistent", i)(a2, b2, c2, 200, 264, 136,
                                        *a2.stride(), *b2.stride(),
                                        *c2.stride())
    check(c2, a2, b2)
for i in range(3):
    a = torch.randn(520, 136, device="cuda", dtype=torch.float16)
    b = torch.randn(392, 136, device="cuda", dtype=torch.float16)
    c = torch.full((520, 392), float("nan"), device="cuda",
                   dtype=torch.float16)
    Kernel(DIR, "matmul_descriptor", i)(a, b, c, 520, 392, 136)
    check(c, a, b.t())
print("all launches checked")
