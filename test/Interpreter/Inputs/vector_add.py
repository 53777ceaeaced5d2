import sys
from harness import *

examples = sys.argv[1]
r = rng(1)
for n in [1, 7, 1000, 4097]:
    x = r.standard_normal(n).astype(np.float32)
    y = r.standard_normal(n).astype(np.float32)
    z = np.full(n, np.nan, dtype=np.float32)
    out = run(f"{examples}/vector_add.tile",
              {"x_ptr": x, "y_ptr": y, "z_ptr": z, "n": n})
    # fp32 addition is exact to rounding: compare bit for bit.
    check_true(f"vector_add n={n} exact", np.array_equal(out["z_ptr"], x + y))
finish()
