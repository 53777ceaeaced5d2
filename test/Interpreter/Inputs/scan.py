import sys
from harness import *

# bench/kernels/scan.tile in the CPU mode: cumsum, cumprod (reversed),
# a running (max, index) pair, int8 sums in int32 and a long 1-D scan,
# against NumPy in float64.
kernels = sys.argv[1]
r = rng(5)
M, N, L = 32, 64, 4096
x = (r.uniform(0.9, 1.1, (M, N)) * r.choice([-1, 1], (M, N))).astype(np.float32)
q = r.integers(-128, 128, (M, N)).astype(np.int8)
v = r.standard_normal(L).astype(np.float32)
out = run(f"{kernels}/scan.tile", kernel="scans", args=
          {"x_ptr": x, "q_ptr": q, "v_ptr": v,
           "row_sums": np.full((M, N), np.nan, np.float32),
           "col_prods": np.full((M, N), np.nan, np.float32),
           "run_max": np.full((M, N), np.nan, np.float32),
           "run_index": np.full((M, N), -1, np.int32),
           "q_sums": np.zeros((M, N), np.int32),
           "v_sums": np.full(L, np.nan, np.float32),
           "v_rev_sums": np.full(L, np.nan, np.float32)})
xd = x.astype(np.float64)
check("cumsum rows", out["row_sums"], np.cumsum(xd, axis=1), 1e-5)
check("cumprod columns reversed", out["col_prods"],
      np.cumprod(xd[::-1], axis=0)[::-1], 1e-5)
run_max = np.maximum.accumulate(x, axis=1)
# The index of the latest element equal to the running maximum.
last = np.where(x == run_max, np.arange(N)[None, :], -1)
check("running max", out["run_max"], run_max, 0)
check("running max index", out["run_index"], np.maximum.accumulate(last, axis=1), 0)
check("int8 cumsum in int32", out["q_sums"], np.cumsum(q.astype(np.int64), axis=1), 0)
vd = v.astype(np.float64)
check("cumsum 1-D", out["v_sums"], np.cumsum(vd), 1e-4)
check("cumsum 1-D reversed", out["v_rev_sums"], np.cumsum(vd[::-1])[::-1], 1e-4)
S = 32
a = r.standard_normal((S, S)).astype(np.float16)
b = r.standard_normal((S, S)).astype(np.float16)
out = run(f"{kernels}/scan.tile", kernel="scan_of_dot",
          args={"a_ptr": a, "b_ptr": b, "c_ptr": np.full((S, S), np.nan, np.float32)})
c = a.astype(np.float64) @ b.astype(np.float64)
check("cumsum of a dot, reversed", out["c_ptr"], np.cumsum(c[::-1], axis=0)[::-1], 1e-4)
finish()
