import sys
from harness import *

# bench/kernels/descriptor.tile in the CPU mode against NumPy: tensor
# descriptors read zeros (or NaN) outside the tensor on every side and
# write nothing there.
kernels = sys.argv[1] + "/descriptor.tile"
r = rng(11)
M, N, BM, BN = 50, 70, 16, 32
stride_x, stride_y = 72, 80
x = r.standard_normal((M, stride_x)).astype(np.float32)
sentinel = np.float16(-7.0)
y = np.full((M + 3, stride_y), sentinel, np.float16)
out = run(kernels, {"x_ptr": x, "y_ptr": y, "M": M, "N": N,
                    "stride_x": stride_x, "stride_y": stride_y},
          kernel="desc_shifted_copy")
ref = np.full((M + 3, stride_y), sentinel, np.float64)
ref[:, :N + 5] = 0
ref[3:, 5:N + 5] = 2 * x[:, :N].astype(np.float64)
check("shifted copy across every edge", out["y_ptr"], ref, 1e-3)

sums = np.full(M, np.nan, np.float32)
out = run(kernels, {"x_ptr": x, "out_ptr": sums, "M": M, "N": N,
                    "stride": stride_x}, kernel="desc_row_sums")
check("row sums over a loop of loads", out["out_ptr"],
      x[:, :N].astype(np.float64).sum(1), 1e-6)

A, B, C = 3, 5, 12
x3 = r.standard_normal((A, B, C)).astype(np.float32)
y3 = np.full((2, 4, 8), -1, np.float32)
z = np.full((A * B, C), -1, np.float32)
out = run(kernels, {"x_ptr": x3, "y_ptr": y3, "z_ptr": z, "A": A, "B": B,
                    "C": C}, kernel="desc_corner")
ref3 = np.full((2, 4, 8), np.nan)
ref3[:1, :2, :4] = x3[A - 1:, B - 2:, C - 4:]
got = out["y_ptr"]
check_true("3-D corner padded with NaN",
           np.array_equal(np.isnan(got), np.isnan(ref3)) and
           np.array_equal(got[~np.isnan(got)], ref3[~np.isnan(ref3)]))
refz = np.full((A * B, C), -1.0)
refz[1:5, 2:6] = 3 * x3.reshape(A * B, C)[1:5, 2:6]
check("descriptors through a helper", out["z_ptr"], refz, 1e-7)
finish()
