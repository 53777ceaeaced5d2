import sys
from harness import *

# bench/kernels/custom_reduce.tile in the CPU mode: tl.reduce with a
# product, with a (value, index) pair, and tl.xor_sum, against NumPy.
kernels = sys.argv[1]
r = rng(3)
M, N = 32, 64
x = (r.uniform(0.9, 1.1, (M, N)) * r.choice([-1, 1], (M, N))).astype(np.float32)
x[3, 10] = x[3, 20] = 5.0  # a tie: the first index wins
bits = r.integers(-2**31, 2**31 - 1, (M, N), dtype=np.int64).astype(np.int32)
out = run(f"{kernels}/custom_reduce.tile",
          {"x_ptr": x, "bits_ptr": bits, "prod": np.full(M, np.nan, np.float32),
           "best": np.full(M, np.nan, np.float32),
           "best_index": np.full(M, -1, np.int32),
           "xor_rows": np.zeros(M, np.int32), "xor_all": np.zeros(1, np.int32)})
check("reduce product", out["prod"], np.prod(x.astype(np.float64), axis=1), 1e-5)
ref_index = np.abs(x).argmax(axis=1)
check("reduce max |x| index", out["best_index"], ref_index, 0)
check("reduce max |x| value", out["best"], x[np.arange(M), ref_index], 0)
check("xor_sum rows", out["xor_rows"], np.bitwise_xor.reduce(bits, axis=1), 0)
check("xor_sum all", out["xor_all"], np.bitwise_xor.reduce(bits, axis=None).reshape(1), 0)
finish()
