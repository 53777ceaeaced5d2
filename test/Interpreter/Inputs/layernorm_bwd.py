import sys
from harness import *

# Layer norm backward (examples/layernorm_bwd.tile): dx per row, dw and db
# through GROUP_SIZE_M lock-guarded partial rows (several rows per group, so
# the accumulation branch runs), then the column sums of the partials.
examples = sys.argv[1]
r = rng(9)
for (M, N, group, block_n, bm, bn) in [(1, 1, 1, 16, 16, 16),
                                       (10, 33, 4, 64, 4, 16),
                                       (7, 300, 2, 512, 2, 128)]:
    x = r.standard_normal((M, N)).astype(np.float16)
    dy = r.standard_normal((M, N)).astype(np.float16)
    w = (r.random(N) + 0.5).astype(np.float16)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=1).astype(np.float32)
    rstd = (1 / np.sqrt(xd.var(axis=1) + 1e-5)).astype(np.float32)
    out = run(f"{examples}/layernorm_bwd.tile",
              {"DX": np.full((M, N), np.nan, dtype=np.float16), "DY": dy,
               "DW": np.zeros((group, N), dtype=np.float16),
               "DB": np.zeros((group, N), dtype=np.float16),
               "X": x, "W": w, "Mean": mean, "Rstd": rstd,
               "Lock": np.zeros(2 * group, dtype=np.int32),
               "stride": N, "N": N, "M": M},
              kernel="layer_norm_bwd_dx_fused",
              defines=[f"GROUP_SIZE_M={group}", f"BLOCK_SIZE_N={block_n}"])
    xhat = (xd - mean[:, None].astype(np.float64)) * rstd[:, None]
    dyd = dy.astype(np.float64)
    wdy = w.astype(np.float64) * dyd
    c1 = (xhat * wdy).mean(axis=1, keepdims=True)
    c2 = wdy.mean(axis=1, keepdims=True)
    dx = (wdy - (xhat * c1 + c2)) * rstd[:, None]
    check(f"layernorm_bwd dx {M}x{N}", out["DX"], dx, 2e-3)
    # Every lock released, every used group counted.
    check(f"layernorm_bwd locks {M}x{N}", out["Lock"][:group], np.zeros(group), 0)
    used = np.zeros(group)
    used[:min(M, group)] = 1
    check(f"layernorm_bwd counts {M}x{N}", out["Lock"][group:], used, 0)
    final = run(f"{examples}/layernorm_bwd.tile",
                {"DW": out["DW"], "DB": out["DB"],
                 "FINAL_DW": np.full(N, np.nan, dtype=np.float16),
                 "FINAL_DB": np.full(N, np.nan, dtype=np.float16),
                 "M": group, "N": N},
                kernel="layer_norm_bwd_dwdb",
                defines=[f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}"])
    # fp16 partial sums: a few fp16 roundings per element.
    check(f"layernorm_bwd dw {M}x{N}", final["FINAL_DW"], (dyd * xhat).sum(axis=0), 3e-3)
    check(f"layernorm_bwd db {M}x{N}", final["FINAL_DB"], dyd.sum(axis=0), 3e-3)
finish()
