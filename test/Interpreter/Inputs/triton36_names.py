import sys
from harness import *

# triton36_names.tile in the CPU mode against NumPy.
tile = sys.argv[1]
r = rng(17)
B = 16
for trial in range(3):
    x = r.integers(0, 1 << 20, (B, B)).astype(np.int32)
    # bitonic rows: a sorted rising half, then a sorted falling half
    z = r.standard_normal((B, B)).astype(np.float32)
    z = np.concatenate([np.sort(z[:, :B // 2], 1),
                        np.sort(z[:, B // 2:], 1)[:, ::-1]], 1).copy()
    res = run(tile, {"x_ptr": x, "y_ptr": np.full(2 * B + 2, -1, np.int32),
                     "z_ptr": z, "w_ptr": np.full(2 * B * B, np.nan, np.float32)},
              kernel="triton36_names")
    y, w = res["y_ptr"], res["w_ptr"].reshape(2, B, B)
    rows = np.bitwise_or.reduce(x, 1)
    cols = np.bitwise_or.reduce(x, 0)
    check_true(f"reduce_or rows + 3 * cols (method) #{trial}",
               (y[:B] == rows + 3 * cols).all())
    check_true(f"sub under cuda_capability_geq(9) #{trial}",
               (y[B:2 * B] == rows - cols).all())
    check_true(f"bitonic_merge ascending #{trial}",
               np.array_equal(w[0], np.sort(z, 1)))
    check_true(f"bitonic_merge descending #{trial}",
               np.array_equal(w[1], np.sort(z, 1)[:, ::-1]))
    check_true(f"while tl.condition(...) #{trial}", y[2 * B] == rows.max() % 7)
    check_true(f"TRITON_MAX_TENSOR_NUMEL #{trial}", y[2 * B + 1] == 1048576)
    v = r.standard_normal(64).astype(np.float32)
    out = run(tile, {"x_ptr": v, "y_ptr": np.full(64, np.nan, np.float32)},
              kernel="gdc")["y_ptr"]
    check_true(f"gdc_wait / gdc_launch_dependents around a copy #{trial}",
               np.array_equal(out, 2 * v))
    res = run(tile, {"x_ptr": v[:16].copy(), "y_ptr": np.full(64, np.nan, np.float32),
                     "c_ptr": np.array([5, 2], np.int32), "n": 10 + trial},
              kernel="members")
    y, c, x = res["y_ptr"], res["c_ptr"], v[:16].astype(np.float64)
    e = np.exp(x - x.max())
    check_true(f"x.flip(0) #{trial}", np.array_equal(y[:16], v[:16][::-1]))
    check_true(f"x.reshape(8, 2).split() #{trial}",
               np.array_equal(y[16:24], v[0:16:2] + v[1:16:2]))
    check(f"x.softmax() #{trial}", y[24:40], e / e.sum(), 1e-6)
    check(f"x.sqrt_rn() #{trial}", y[40:56], np.sqrt(np.abs(x)), 1e-7)
    check_true(f"block pointer .advance() #{trial}",
               np.array_equal(y[56:64], v[8:16]))
    check_true(f"ptr.atomic_add(n.cdiv(4)), ptr.atomic_max(n) #{trial}",
               list(c) == [5 + -(-(10 + trial) // 4), 10 + trial])
finish()
