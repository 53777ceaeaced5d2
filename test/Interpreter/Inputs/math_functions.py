import math
import sys
from harness import *

# math_functions.tile in the CPU mode against NumPy in float64.
inputs = sys.argv[1]
REFS = [np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh, np.tan, np.arcsinh,
        lambda x: np.arccosh(x + 2), np.arctanh, np.log1p, np.expm1,
        lambda x: np.log10(x + 1), np.cbrt,
        lambda x: np.array([math.erfc(v) for v in x]),
        lambda x: np.trunc(x * 4),
        lambda x: np.sign(x * 4) * np.floor(np.abs(x * 4) + 0.5),
        lambda x: np.rint(x * 4), lambda x: np.power(x + 1, x),
        lambda x: np.arctan2(x, x + 1.5), lambda x: np.fmod(x * 4, 0.75),
        lambda x: np.copysign(x, -x)]
r = rng(11)
for n in [1, 100, 1000]:
    x = r.uniform(-0.9, 0.9, n).astype(np.float32)
    out = run(f"{inputs}/math_functions.tile",
              {"x_ptr": x, "out": np.full(len(REFS) * n, np.nan, np.float32),
               "n": n})["out"].reshape(len(REFS), n)
    xd = x.astype(np.float64)
    for i, ref in enumerate(REFS):
        check(f"math function {i} n={n}", out[i], ref(xd), 1e-6)
finish()
