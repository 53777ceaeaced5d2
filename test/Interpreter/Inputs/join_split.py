import sys
from harness import *

# bench/kernels/join_split.tile in the CPU mode against NumPy.
kernels = sys.argv[1]
r = rng(8)
N, BM, BN, BK = 64, 64, 64, 32
a = r.standard_normal(N).astype(np.float32)
b = r.standard_normal(N).astype(np.float32)
x = r.standard_normal((BM, BK)).astype(np.float16)
y = r.standard_normal((BK, BN)).astype(np.float16)
out = run(f"{kernels}/join_split.tile",
          {"a_ptr": a, "b_ptr": b, "joined": np.full(2 * N, np.nan, np.float32),
           "mixed": np.full(2 * N, np.nan, np.float32),
           "first": np.full(N, np.nan, np.float32),
           "second": np.full(N, np.nan, np.float32), "x_ptr": x, "y_ptr": y,
           "halves": np.full(BM * BN, np.nan, np.float32)}, kernel="join_split")
check("join", out["joined"], np.stack([a, b], axis=1).reshape(-1), 0)
check("interleave", out["mixed"], np.stack([a, b], axis=1).reshape(-1), 0)
check("split first", out["first"], 2 * a, 0)
check("split second", out["second"], 2 * b, 0)
check("tutorial 09 epilogue split", out["halves"].reshape(BM, BN),
      x.astype(np.float64) @ y.astype(np.float64), 1e-5)
a2 = r.standard_normal((16, 4)).astype(np.float32)
b2 = r.standard_normal((16, 4)).astype(np.float32)
cat = run(f"{kernels}/join_split.tile",
          {"a_ptr": a2, "b_ptr": b2, "out": np.full(128, np.nan, np.float32)},
          kernel="concatenate")
check("cat", cat["out"], np.concatenate([a2, b2]).reshape(-1), 0)
x2 = r.standard_normal((16, 8)).astype(np.float32)
fl = run(f"{kernels}/join_split.tile",
         {"x_ptr": x2, "rows": np.full(128, np.nan, np.float32),
          "cols": np.full(128, np.nan, np.float32),
          "flat": np.full(128, np.nan, np.float32)}, kernel="flips")
check("flip last dim", fl["cols"], x2[:, ::-1].reshape(-1), 0)
check("flip dim 0", fl["rows"], x2[::-1, :].reshape(-1), 0)
check("flip 1-D", fl["flat"], x2.reshape(-1)[::-1], 0)
finish()
