import sys
from harness import *

# bench/kernels/histogram.tile in the CPU mode against NumPy's bincount.
kernels = sys.argv[1]
r = rng(6)
N, B, n = 4096, 64, 3000
x = r.integers(-8, B + 8, N).astype(np.int32)
u = r.integers(0, 256, N).astype(np.uint8)
small = r.integers(0, 20, 64).astype(np.int32)
out = run(f"{kernels}/histogram.tile",
          {"x_ptr": x, "u_ptr": u, "small_ptr": small, "n": n,
           "counts": np.full(B, -1, np.int32),
           "u_counts": np.full(256, -1, np.int32),
           "small_counts": np.full(16, -1, np.int32)})
def bincount(v, bins):
    v = v[(v >= 0) & (v < bins)]
    return np.bincount(v, minlength=bins)
check("histogram masked, out of range ignored", out["counts"], bincount(x[:n], B), 0)
check("histogram of uint8", out["u_counts"], bincount(u.astype(np.int64), 256), 0)
check("histogram of a small block", out["small_counts"], bincount(small, 16), 0)
finish()
