import sys
from harness import *

# examples/cumsum.tile in the CPU mode: rows of several lengths and
# strides against NumPy's cumsum in float64; columns past n_cols untouched.
examples = sys.argv[1]
r = rng(4)
for (rows, cols, stride, block) in [(1, 1, 1, 16), (5, 3, 7, 16),
                                    (7, 100, 100, 128), (3, 781, 800, 1024)]:
    x = r.standard_normal((rows, stride)).astype(np.float32)
    y = np.full((rows, stride), np.nan, dtype=np.float32)
    out = run(f"{examples}/cumsum.tile",
              {"out_ptr": y, "in_ptr": x, "in_row_stride": stride,
               "out_row_stride": stride, "n_rows": rows, "n_cols": cols},
              defines=[f"BLOCK={block}"])["out_ptr"]
    ref = np.cumsum(x[:, :cols].astype(np.float64), axis=1)
    check(f"cumsum {rows}x{cols} stride {stride}", out[:, :cols], ref, 1e-5)
    check_true(f"cumsum {rows}x{cols} padding untouched",
               bool(np.isnan(out[:, cols:]).all()))
finish()
