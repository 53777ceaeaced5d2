import sys
from harness import *

# libdevice_extra.tile in the CPU mode against NumPy: x holds NaN, infinities,
# -0.0, ties (x * 4 = k + 0.5) and random values; y is finite.
tile = sys.argv[1]
r = rng(13)
special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.625, -0.625, 0.375,
                    -0.875, 1.125], np.float32)
for n in [len(special), 100, 1000]:
    x = r.uniform(-3, 3, n).astype(np.float32)
    x[:len(special)] = special[:n]
    y = r.uniform(-2, 2, n).astype(np.float32)
    y[0] = -0.0
    res = run(tile, {"x_ptr": x, "y_ptr": y,
                     "ints": np.full(3 * n, -7, np.int64),
                     "flags": np.full(5 * n, -7, np.int32),
                     "floats": np.full(9 * n, np.nan, np.float32), "n": n})
    ints = res["ints"].reshape(3, n)
    flags = res["flags"].reshape(5, n)
    floats = res["floats"].reshape(9, n)
    fin = np.isfinite(x)
    x4 = x.astype(np.float64) * 4
    check_true(f"llrint (ties to even) n={n}",
               (ints[0][fin] == np.rint(x4[fin])).all())
    away = np.sign(x4) * np.floor(np.abs(x4) + 0.5)
    check_true(f"llround (ties away) n={n}", (ints[1][fin] == away[fin]).all())
    check_true(f"lrint n={n}", (ints[2][fin] == np.rint(x4[fin])).all())
    check_true(f"isnan n={n}", (flags[0] == np.isnan(x)).all())
    check_true(f"isinf n={n}", (flags[1] == np.isinf(x)).all())
    check_true(f"finitef n={n}", (flags[2] == np.isfinite(x)).all())
    check_true(f"signbit n={n}", (flags[3] == np.signbit(x)).all())
    check_true(f"float_as_int n={n}", (flags[4] == y.view(np.int32)).all())
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    # exact, with the infinities (y is never NaN)
    check_true(f"fmax (NaN ignored) n={n}",
               np.array_equal(floats[0], np.fmax(x, y)))
    check_true(f"fmin (NaN ignored) n={n}",
               np.array_equal(floats[1], np.fmin(x, y)))
    check(f"saturatef n={n}", floats[2], np.clip(yd, 0, 1), 0)
    check(f"exp10 n={n}", floats[3], 10 ** yd, 1e-6)
    check(f"fast_expf n={n}", floats[4], np.exp(yd), 1e-6)
    check(f"fast_logf n={n}", floats[5], np.log(np.abs(yd) + 1), 1e-6)
    check(f"fast_dividef n={n}", floats[6], yd / 3, 1e-6)
    check(f"fast_powf n={n}", floats[7], (np.abs(yd) + 1) ** yd, 1e-6)
    check(f"int_as_float(float_as_int(y) ^ sign) n={n}", floats[8], -yd, 0)
finish()
