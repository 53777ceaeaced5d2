import sys
from harness import *

examples = sys.argv[1]
r = rng(4)
for (M, N, block) in [(1, 1, 16), (3, 33, 16), (4, 1000, 256), (2, 1151, 1024)]:
    x = r.standard_normal((M, N)).astype(np.float16)
    w = (r.random(N) + 0.5).astype(np.float16)
    b = r.standard_normal(N).astype(np.float16)
    y = np.full((M, N), np.nan, dtype=np.float16)
    mean = np.full(M, np.nan, dtype=np.float32)
    rstd = np.full(M, np.nan, dtype=np.float32)
    eps = 1e-5
    out = run(f"{examples}/layernorm.tile",
              {"x_ptr": x, "y_ptr": y, "w_ptr": w, "b_ptr": b,
               "mean_ptr": mean, "rstd_ptr": rstd, "stride": N, "M": M,
               "N": N, "eps": eps}, defines=[f"BLOCK={block}"])
    xd = x.astype(np.float64)
    mu = xd.mean(axis=1)
    r_ = 1 / np.sqrt(xd.var(axis=1) + eps)
    ref = (xd - mu[:, None]) * r_[:, None] * w.astype(np.float64) + b
    check(f"layernorm y {M}x{N}", out["y_ptr"], ref, 2e-3)
    check(f"layernorm mean {M}x{N}", out["mean_ptr"], mu, 1e-6)
    check(f"layernorm rstd {M}x{N}", out["rstd_ptr"], r_, 1e-5)
finish()
