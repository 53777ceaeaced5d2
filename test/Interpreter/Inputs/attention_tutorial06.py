import sys
from harness import *

# examples/attention_tutorial06.tile (Triton's tutorial 06 forward, tensor
# descriptors made in the kernel, K transposed with .T) in the CPU mode
# against a float64 softmax(Q K^T) V, full and causal.
examples = sys.argv[1]
r = rng(8)
Z, H = 2, 2
for (n, d, stage, bm, bn) in [(64, 16, 1, 32, 16), (64, 32, 3, 16, 16),
                              (96, 16, 3, 32, 16)]:
    q, k, v = (r.standard_normal((Z, H, n, d)).astype(np.float16)
               for _ in range(3))
    out = np.full((Z, H, n, d), np.nan, dtype=np.float16)
    lse = np.full((Z * H, n), np.nan, dtype=np.float32)
    scale = d ** -0.5
    res = run(f"{examples}/attention_tutorial06.tile",
              {"sm_scale": scale, "M": lse, "Z": Z, "H": H, "desc_q": q,
               "desc_k": k, "desc_v": v, "desc_o": out, "N_CTX": n},
              defines=[f"HEAD_DIM={d}", f"BLOCK_M={bm}", f"BLOCK_N={bn}",
                       "FP8_OUTPUT=False", f"STAGE={stage}",
                       "warp_specialize=False", "IS_HOPPER=True"])
    ref, ref_lse = attention_reference(q, k, v, scale, stage == 3)
    name = (f"tutorial 06 attention N={n} D={d} "
            f"{'causal' if stage == 3 else 'full'}")
    check(name, res["desc_o"], ref, 3e-3)
    check(name + " lse", res["M"], ref_lse.reshape(Z * H, n), 1e-3)
finish()
