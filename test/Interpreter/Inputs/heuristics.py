import sys
from harness import *

# heuristics.tile in the CPU mode against NumPy: tile-run evaluates the
# kernels' @heuristics with each run's arguments (a None pointer included),
# so one source covers power-of-two and odd sizes, with and without bias.
tile = sys.argv[1]
r = rng(11)
for N in (64, 100, 1000):
    M = 3
    x = r.standard_normal((M, N)).astype(np.float32)
    b = r.standard_normal(N).astype(np.float32)
    ref = x.astype(np.float64) / np.abs(x.astype(np.float64)).max(1, keepdims=True)
    out = run(tile, {"x_ptr": x, "b_ptr": b, "y_ptr": np.full((M, N), np.nan, np.float32),
                     "M": M, "N": N}, kernel="row_scale", grid=(M,))["y_ptr"]
    check(f"row_scale N={N} with bias", out, ref + b.astype(np.float64), 1e-6)
    out = run(tile, {"x_ptr": x, "b_ptr": None, "y_ptr": np.full((M, N), np.nan, np.float32),
                     "M": M, "N": N}, kernel="row_scale", grid=(M,))["y_ptr"]
    check(f"row_scale N={N}, b_ptr=None", out, ref, 1e-6)

for K in (48, 40):
    M = 20
    a = r.standard_normal((M, K)).astype(np.float32)
    x = r.standard_normal(K).astype(np.float32)
    out = run(tile, {"a_ptr": a, "x_ptr": x, "y_ptr": np.full(M, np.nan, np.float32),
                     "M": M, "K": K}, kernel="matvec", defines=["BLOCK_M=8"],
              grid=(3,))["y_ptr"]
    check(f"matvec K={K} (EVEN_K={K % 16 == 0})", out,
          a.astype(np.float64) @ x.astype(np.float64), 1e-5)
finish()
