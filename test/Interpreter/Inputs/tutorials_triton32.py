import sys
from harness import *

# bench/kernels/tutorials_triton32.tile (Triton 3.2's tutorial kernels) in
# the CPU mode against float64 NumPy: tutorial 09's flat persistent matmul
# on pointers (B as given and transposed, through its strides), on
# host-made descriptors and on descriptors made in a workspace (re-made every `tiles_per_update` tiles, with more tiles than
# programs so that the re-making runs), and tutorial 06's `_attn_fwd_tma`,
# full and causal.
kernels = sys.argv[1]
source = f"{kernels}/tutorials_triton32.tile"
r = rng(12)


def parts(name, x):
    """A host-made descriptor over a 2-D array: base, shape, row stride."""
    return {f"{name}_base": x, f"{name}_shape0": x.shape[0],
            f"{name}_shape1": x.shape[1], f"{name}_stride0": x.shape[1]}


BLOCKS = ["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=16",
          "GROUP_SIZE_M=2", "NUM_SMS=2"]
for M, N, K in [(40, 72, 48), (100, 56, 40)]:
    a = r.standard_normal((M, K)).astype(np.float16)
    b = r.standard_normal((N, K)).astype(np.float16)
    ref = a.astype(np.float64) @ b.astype(np.float64).T
    c = np.full((M, N), np.nan, np.float16)
    out = run(source, {**parts("a_desc_ptr", a), **parts("b_desc_ptr", b),
                       **parts("c_desc_ptr", c), "M": M, "N": N, "K": K},
              kernel="matmul_kernel_tma_persistent",
              defines=BLOCKS + ["FP8_OUTPUT=False"])
    check(f"host descriptors {M}x{N}x{K}", out["c_desc_ptr_base"], ref, 2e-3)
    for name, bk in [("pointers", np.ascontiguousarray(b.T)), ("pointers, B^T", b)]:
        c = np.full((M, N), np.nan, np.float16)
        bs = (1, K) if bk is b else (N, 1)
        out = run(source, {"a_ptr": a, "b_ptr": bk, "c_ptr": c, "M": M, "N": N,
                           "K": K, "stride_am": K, "stride_ak": 1,
                           "stride_bk": bs[0], "stride_bn": bs[1],
                           "stride_cm": N, "stride_cn": 1},
                  kernel="matmul_kernel_persistent", defines=BLOCKS)
        check(f"{name} {M}x{N}x{K}", out["c_ptr"], ref, 2e-3)
    for update in [1, 2]:
        c = np.full((M, N), np.nan, np.float16)
        out = run(source, {"workspace_ptr": np.zeros(2 * 3 * 128, np.uint8),
                           "a_ptr": a, "b_ptr": b, "c_ptr": c,
                           "M": M, "N": N, "K": K},
                  kernel="matmul_kernel_device_tma_persistent",
                  defines=BLOCKS + [f"tiles_per_update={update}"])
        check(f"device descriptors {M}x{N}x{K} update every {update}",
              out["c_ptr"], ref, 2e-3)

Z, H = 2, 2
for (n, d, stage, bm, bn) in [(64, 16, 1, 32, 16), (64, 32, 3, 16, 16),
                              (96, 16, 3, 32, 16)]:
    q, k, v = (r.standard_normal((Z * H * n, d)).astype(np.float16)
               for _ in range(3))
    o = np.full((Z * H * n, d), np.nan, np.float16)
    args = {"sm_scale": d ** -0.5, "M": np.full((Z * H, n), np.nan, np.float32),
            "Z": Z, "H": H}
    for name, x in [("desc_q", q), ("desc_k", k), ("desc_v", v),
                    ("desc_o", o)]:
        args.update(parts(name, x))
    res = run(source, args, kernel="_attn_fwd_tma",
              defines=[f"N_CTX={n}", f"HEAD_DIM={d}", f"BLOCK_M={bm}",
                       f"BLOCK_N={bn}", "FP8_OUTPUT=False", f"STAGE={stage}"])
    shape = (Z, H, n, d)
    ref, ref_lse = attention_reference(q.reshape(shape), k.reshape(shape),
                                       v.reshape(shape), d ** -0.5,
                                       stage == 3)
    name = f"_attn_fwd_tma N={n} D={d} {'causal' if stage == 3 else 'full'}"
    check(name, res["desc_o_base"].reshape(shape), ref, 3e-3)
    check(name + " lse", res["M"], ref_lse.reshape(Z * H, n), 1e-3)
finish()
