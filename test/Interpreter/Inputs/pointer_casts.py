import sys
from harness import *

# bench/kernels/pointer_casts.tile's round trips in the CPU mode.
kernels = sys.argv[1]
r = rng(8)
N = 256
x = r.standard_normal(N).astype(np.float32)
out = run(f"{kernels}/pointer_casts.tile",
          {"x_ptr": x, "y_ptr": np.full(N, np.nan, np.float32),
           "bits": np.zeros(N, np.int32)}, kernel="round_trips")
check("load through int64 addresses", out["y_ptr"], x + np.float32(1), 0)
check("load through a pointer to int32", out["bits"], x.view(np.int32), 0)
finish()
