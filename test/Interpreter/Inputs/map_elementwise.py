import sys
from harness import *

# bench/kernels/map_elementwise.tile in the CPU mode: selu through a
# branching scalar function, and a 2-D map with a broadcast column, fp16
# elements and an fp16 and an i32 result, against NumPy.
tile = sys.argv[1]
r = rng(21)
for n in [1, 300, 1024]:
    x = r.standard_normal(n).astype(np.float32)
    res = run(tile, {"x_ptr": x, "y_ptr": np.full(n, np.nan, np.float32),
                     "n": n, "alpha": 1.5}, kernel="selu")
    xd = x.astype(np.float64)
    check(f"selu n={n}", res["y_ptr"],
          np.where(xd > 0, xd, 1.5 * (np.exp(xd) - 1)), 1e-6)
for M, N in [(40, 70), (32, 64)]:
    stride = N + 3
    x = r.standard_normal((M, stride)).astype(np.float16)
    limit = r.uniform(0.2, 1.5, M).astype(np.float16)
    res = run(tile, {"x_ptr": x, "limit_ptr": limit,
                     "y_ptr": np.full((M, stride), np.nan, np.float16),
                     "c_ptr": np.full((M, stride), -7, np.int32),
                     "M": M, "N": N, "stride": stride}, kernel="clip")
    xs, lim = x[:, :N].astype(np.float64), limit[:, None].astype(np.float64)
    ref_y = np.where(xs > lim, lim, np.where(xs < -lim, -lim, xs * 2))
    ref_c = np.where(xs > lim, 1, np.where(xs < -lim, -1, 0))
    check(f"clip {M}x{N} values", res["y_ptr"][:, :N], ref_y, 1e-3)
    check_true(f"clip {M}x{N} counts", (res["c_ptr"][:, :N] == ref_c).all())
    check_true(f"clip {M}x{N} padding untouched",
               np.isnan(res["y_ptr"][:, N:]).all() and
               (res["c_ptr"][:, N:] == -7).all())
# pack=2 and pack=4 (groups completed by repeats where a block or a
# thread holds fewer elements than the pack).
for kernel in ["affine_sign2", "affine_sign4"]:
    for n in [1, 63, 300]:
        x = r.standard_normal(n).astype(np.float32)
        b = r.standard_normal(n).astype(np.float32)
        res = run(tile, {"x_ptr": x, "b_ptr": b,
                         "y_ptr": np.full(n, np.nan, np.float32),
                         "s_ptr": np.full(n, 7, np.int32), "n": n},
                  kernel=kernel)
        check(f"{kernel} n={n} values", res["y_ptr"],
              x.astype(np.float64) * 2 + b, 1e-6)
        check_true(f"{kernel} n={n} signs",
                   (res["s_ptr"] == np.where(x < 0, -1, 1)).all())
finish()
