import sys
from harness import *

examples = sys.argv[1]
r = rng(3)
for (rows, cols, stride, block) in [(1, 1, 1, 16), (5, 3, 7, 16),
                                    (7, 100, 100, 128), (3, 781, 800, 1024)]:
    x = r.standard_normal((rows, stride)).astype(np.float32) * 4
    y = np.full((rows, stride), np.nan, dtype=np.float32)
    out = run(f"{examples}/softmax.tile",
              {"out_ptr": y, "in_ptr": x, "in_row_stride": stride,
               "out_row_stride": stride, "n_rows": rows, "n_cols": cols},
              defines=[f"BLOCK={block}"])["out_ptr"]
    xd = x[:, :cols].astype(np.float64)
    e = np.exp(xd - xd.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    check(f"softmax {rows}x{cols} stride {stride}", out[:, :cols], ref, 1e-5)
    # Columns past n_cols are never written.
    check_true(f"softmax {rows}x{cols} padding untouched",
               bool(np.isnan(out[:, cols:]).all()))
finish()
