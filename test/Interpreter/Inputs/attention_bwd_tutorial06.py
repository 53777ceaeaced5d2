import sys
from harness import *

# examples/attention_bwd_tutorial06.tile (Triton's tutorial 06 backward) in
# the CPU mode, driven as the tutorial's host code drives it (K pre-scaled by
# sm_scale / ln 2, M the forward's base-2 log-sum-exp, Delta from the
# preprocess kernel), against float64 gradients of causal attention.
examples = sys.argv[1]
tile = f"{examples}/attention_bwd_tutorial06.tile"
r = rng(6)
RCP_LN2 = 1.4426950408889634


def gradients(q, k, v, do, scale):
    q, k, v, do = (x.astype(np.float64) for x in (q, k, v, do))
    n = q.shape[2]
    s = np.einsum("zhmd,zhnd->zhmn", q, k) * scale
    s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    o = np.einsum("zhmn,zhnd->zhmd", p, v)
    dv = np.einsum("zhmn,zhmd->zhnd", p, do)
    dp = np.einsum("zhmd,zhnd->zhmn", do, v)
    ds = p * (dp - (do * o).sum(axis=-1, keepdims=True))
    dq = np.einsum("zhmn,zhnd->zhmd", ds, k) * scale
    dk = np.einsum("zhmn,zhmd->zhnd", ds, q) * scale
    return o, dq, dk, dv


# (Z, H, N_CTX, HEAD_DIM, BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, FACTOR)
for (Z, H, n, d, m1, n1, m2, n2, factor) in [
        (1, 2, 64, 16, 16, 32, 32, 16, 2),
        (2, 1, 96, 32, 16, 32, 32, 16, 2),
        (1, 1, 64, 16, 8, 32, 32, 8, 4)]:
    q, k, v, do = (r.normal(0.0, 0.5, (Z, H, n, d)).astype(np.float16)
                   for _ in range(4))
    scale = 0.5
    o_ref, dq_ref, dk_ref, dv_ref = gradients(q, k, v, do, scale)
    o = o_ref.astype(np.float16)
    _, lse = attention_reference(q, k, v, scale, True)
    M = lse.astype(np.float32)
    name = f"tutorial 06 backward Z={Z} H={H} N={n} D={d} M1={m1} N1={n1}"

    pre_block = 32
    delta = np.full((Z, H, n), np.nan, dtype=np.float32)
    res = run(tile, {"O": o, "DO": do, "Delta": delta, "Z": Z, "H": H,
                     "N_CTX": n}, kernel="_attn_bwd_preprocess",
              defines=[f"BLOCK_M={pre_block}", f"HEAD_DIM={d}"])
    delta = res["Delta"]
    check(name + " delta", delta,
          (o.astype(np.float64) * do.astype(np.float64)).sum(-1), 1e-6)

    arg_k = (k * np.float16(scale * RCP_LN2)).astype(np.float16)
    grads = {g: np.full((Z, H, n, d), np.nan, dtype=np.float16)
             for g in ("DQ", "DK", "DV")}
    res = run(tile, {"Q": q, "K": arg_k, "V": v, "sm_scale": scale, "DO": do,
                     **grads, "M": M, "D": delta,
                     "stride_z": H * n * d, "stride_h": n * d,
                     "stride_tok": d, "stride_d": 1, "H": H, "N_CTX": n},
              kernel="_attn_bwd", grid=(n // n1, 1, Z * H),
              defines=[f"BLOCK_M1={m1}", f"BLOCK_N1={n1}", f"BLOCK_M2={m2}",
                       f"BLOCK_N2={n2}", f"BLK_SLICE_FACTOR={factor}",
                       f"HEAD_DIM={d}"])
    # K is rounded to fp16 after its pre-scaling, as the tutorial's host
    # does; the reference keeps it exact, hence a tolerance above fp16's.
    check(name + " dq", res["DQ"], dq_ref, 5e-3)
    check(name + " dk", res["DK"], dk_ref, 5e-3)
    check(name + " dv", res["DV"], dv_ref, 5e-3)
finish()
