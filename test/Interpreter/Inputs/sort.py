import sys
from harness import *

# bench/kernels/sort.tile in the CPU mode against NumPy's sort.
kernels = sys.argv[1]
r = rng(7)
M, N, K, L = 4, 256, 16, 2048
x = r.standard_normal((M, N)).astype(np.float32)
x[1, :8] = x[1, 100]  # ties
q = r.integers(-30000, 30000, 64).astype(np.int16)
v = r.standard_normal(L).astype(np.float32)
out = run(f"{kernels}/sort.tile",
          {"x_ptr": x, "q_ptr": q, "v_ptr": v,
           "up": np.full((M, N), np.nan, np.float32),
           "down": np.full((M, N), np.nan, np.float32),
           "top": np.full((M, K), np.nan, np.float32),
           "q_sorted": np.zeros(64, np.int16),
           "v_sorted": np.full(L, np.nan, np.float32)})
check("sort rows", out["up"], np.sort(x, axis=1), 0)
check("sort rows descending", out["down"], -np.sort(-x, axis=1), 0)
check("topk 16", out["top"], -np.sort(-x, axis=1)[:, :K], 0)
check("sort int16", out["q_sorted"], np.sort(q), 0)
check("sort 1-D", out["v_sorted"], np.sort(v), 0)
finish()
