"""Tutorial 09's persistent pointer matmul (examples/matmul_persistent.tile,
as written) on its general path: every operand a view of every other
column, so no access is contiguous. Two builds (each a bench/build_correctness.sh
output holding matmul_persistent) against each other at 4096^3: checked
against float64 first, then medians of 5 interleaved rounds.

usage: python3 bench/persistent_general_bench.py NEW_DIR OLD_DIR
"""
import statistics
import sys

import torch

from tilelaunch import Kernel, median_ms, rel_error

NEW, OLD = sys.argv[1], sys.argv[2]
M = N = K = 4096
torch.manual_seed(0)
for i in range(2):
    a = torch.randn(M, 2 * K, device="cuda", dtype=torch.float16)[:, ::2]
    b = torch.randn(K, 2 * N, device="cuda", dtype=torch.float16)[:, ::2]
    c = torch.empty(M, 2 * N, device="cuda", dtype=torch.float16)[:, ::2]
    ref = a.double() @ b.double()
    kernels = [Kernel(d, "matmul_persistent", i) for d in (NEW, OLD)]
    args = (a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
    for d, k in zip((NEW, OLD), kernels):
        c.fill_(float("nan"))
        k(*args)
        torch.cuda.synchronize()
        err = rel_error(c, ref)
        print(f"check cfg {i} {d} rel_err={err:.2e} {'ok' if err < 2e-3 else 'FAIL'}")
        if not err < 2e-3:
            sys.exit(1)
    rounds = [[median_ms(lambda: k(*args), reps=5) for k in kernels]
              for _ in range(5)]
    new = statistics.median(r[0] for r in rounds)
    old = statistics.median(r[1] for r in rounds)
    speedup = statistics.median(r[1] / r[0] for r in rounds)
    print(f"cfg {i} strided {M}^3 general path: new {new:.3f} ms "
          f"({2 * M * N * K / new / 1e9:.1f} TFLOP/s), old {old:.3f} ms, "
          f"new/old {speedup:.3f}x")
