import sys
from harness import *

# triton_compat.tile in the CPU mode against NumPy, at a size that leaves
# partial blocks in both dimensions.
tile = sys.argv[1]
r = rng(5)
M, N = 7, 13
x = r.standard_normal((M, N)).astype(np.float32)
res = run(tile, {"x_ptr": x, "y_ptr": np.full((M, N), np.nan, np.float32),
                 "f_ptr": np.full(M * N + 1, 7, np.int32), "M": M, "N": N},
          kernel="compat")
check("tanh(2x) through aliases", res["y_ptr"], np.tanh(2 * x.astype(np.float64)), 1e-6)
cols = np.arange(N)[None, :]
ref = np.where((np.abs(x) > 0.5) | (cols % 2 == 0), 1, -1)
check_true("and / or between blocks", (res["f_ptr"][:M * N].reshape(M, N) == ref).all())
check_true("int32's lowest from the dtype predicates", res["f_ptr"][M * N] == -2**31)
h = run(tile, {"x_ptr": x, "h_ptr": np.full((M, N), np.nan, np.float16),
              "M": M, "N": N}, kernel="block_ptr_dtype")["h_ptr"]
check("x.to(block_ptr.dtype.element_ty) stores fp16", h,
      (2 * x).astype(np.float16).astype(np.float64), 0)
finish()
