import sys
from harness import *

# bench/kernels/gather.tile in the CPU mode against NumPy's take_along_axis.
kernels = sys.argv[1]
r = rng(9)
M, N, K, L = 32, 64, 16, 1024
x = r.standard_normal((M, N)).astype(np.float32)
col_idx = r.integers(0, N, (M, K)).astype(np.int32)
row_idx = r.integers(0, M, (K, N)).astype(np.int64)
perm = r.permutation(L).astype(np.int16)
v = r.standard_normal(L).astype(np.float32)
out = run(f"{kernels}/gather.tile",
          {"x_ptr": x, "col_idx": col_idx, "row_idx": row_idx, "perm_ptr": perm,
           "v_ptr": v, "by_col": np.full((M, K), np.nan, np.float32),
           "by_row": np.full((K, N), np.nan, np.float32),
           "permuted": np.full(L, np.nan, np.float32)})
check("gather along rows", out["by_col"], np.take_along_axis(x, col_idx, 1), 0)
check("gather along columns", out["by_row"], np.take_along_axis(x, row_idx, 0), 0)
check("gather a permutation", out["permuted"], v[perm], 0)
finish()
