import sys
from harness import *

# bench/kernels/cuda_helpers.tile in the CPU mode: the timer does not go
# backwards, every program is on SM 0, 4 warps of 32 threads.
kernels = sys.argv[1]
out = run(f"{kernels}/cuda_helpers.tile",
          {"times": np.zeros(8, np.int64), "sms": np.full(4, -1, np.int32),
           "sizes": np.zeros(2, np.int32)})
t = out["times"].reshape(4, 2)
check_true("globaltimer is set and does not go backwards",
           bool((t[:, 0] > 0).all() and (t[:, 1] >= t[:, 0]).all()))
check("smid", out["sms"], np.zeros(4), 0)
check("num_threads, num_warps", out["sizes"], np.array([128, 4]), 0)
finish()
