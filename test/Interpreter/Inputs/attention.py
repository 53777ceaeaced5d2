import sys
from harness import *

examples = sys.argv[1]
r = rng(6)
Z, H = 1, 2
for (n, d, stage, bm, bn) in [(64, 16, 1, 32, 16), (64, 32, 3, 16, 16),
                              (48, 16, 3, 16, 16)]:
    q, k, v = (r.standard_normal((Z, H, n, d)).astype(np.float16)
               for _ in range(3))
    out = np.full((Z, H, n, d), np.nan, dtype=np.float16)
    lse = np.full((Z * H, n), np.nan, dtype=np.float32)
    scale = d ** -0.5
    strides = []
    for t in (q, k, v, out):
        strides += [s // t.itemsize for s in t.strides]
    names = ["stride_qz", "stride_qh", "stride_qm", "stride_qk",
             "stride_kz", "stride_kh", "stride_kn", "stride_kk",
             "stride_vz", "stride_vh", "stride_vk", "stride_vn",
             "stride_oz", "stride_oh", "stride_om", "stride_on"]
    args = {"Q": q, "K": k, "V": v, "sm_scale": scale, "M": lse, "Out": out,
            **dict(zip(names, strides)), "Z": Z, "H": H, "N_CTX": n}
    res = run(f"{examples}/attention_fwd.tile", args,
              defines=[f"HEAD_DIM={d}", f"STAGE={stage}", f"BLOCK_M={bm}",
                       f"BLOCK_N={bn}"])
    ref, ref_lse = attention_reference(q, k, v, scale, stage == 3)
    name = f"attention N={n} D={d} {'causal' if stage == 3 else 'full'}"
    check(name, res["Out"], ref, 3e-3)
    check(name + " lse", res["M"], ref_lse.reshape(Z * H, n), 1e-3)
finish()
