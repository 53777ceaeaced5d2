#!/usr/bin/python3
"""Generality probe: public Triton kernels of kinds earlier probes did not
cover (bench/kernels/probe_generality.tile: FlashAttention's Triton forward,
Mamba's selective_state_update and Mamba-2's chunk state;
bench/kernels/probe_generality_inductor.tile: kernels PyTorch Inductor
generated, with the triton_helpers they call), run in tilec's CPU mode at
small odd sizes (Inductor's baked sizes on partial grids) against float64
NumPy references, then compiled for sm_90a at each project's own launch
settings, as written and with the facts Triton's JIT would specialize on
(--signature: 16-byte aligned pointers, integers divisible by 16, unit
strides), with ptxas register / spill counts, SASS instruction counts and
the number of layout conversions tilec's GPU IR keeps.

    /usr/bin/python3 bench/probe_generality_cpu.py [--no-gpu-compile] [--only NAME]

The harness (run, check, guarded, the PROBE_EXPORT hand-off to the device)
is bench/probe_serving_cpu.py's. GPU check: `PROBE_EXPORT=.carry/probe_generality
/usr/bin/python3 bench/probe_generality_cpu.py --no-gpu-compile` also
compiles every exported CPU case for sm_90a and saves its inputs and CPU
outputs; then, on the device, `python3 bench/probe_serving_gpu.py
.carry/probe_generality` (carry .carry/probe_generality). On an H100
(2026-11-27) every case agrees but FlashAttention's causal EVEN_M/EVEN_N
one (sq = sk = 256), whose Out is off by 0.09-0.45 of max|Out| from run
to run once the GPU has run other kernels (NaN under compute-sanitizer's
racecheck): the kernel stores acc_o_scale to TMP and loads it back at once ("BUG: have to
store and immediately load"); tilec stores it one row per thread and loads
it in the wgmma accumulator's row slices, which other warps stored, with no
barrier between. With a tl.debug_barrier() after each TMP store it agrees
every time, as Triton 3.6's build of the same source does.

`python3 bench/probe_generality_triton.py` (on the device, which has Triton)
prints Triton's registers, spills and SASS counts for the same GPU_BUILDS
and JIT facts, beside this table's.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)

TILE = os.path.join(HERE, "kernels", "probe_generality.tile")
TILE_IND = os.path.join(HERE, "kernels", "probe_generality_inductor.tile")
TILEC, PTXAS, CUOBJDUMP = ps.TILEC, ps.PTXAS, ps.CUOBJDUMP
check, guarded = ps.check, ps.guarded
FP16_TOL = ps.FP16_TOL
FP32_TOL = 1e-5  # fp32 outputs: a few roundings of fp32 (and exp/log ulps)

rng = np.random.default_rng(2027)


def run(tile, kernel, defines, grid, args, dumps, warps=4, stages=1,
        export=True):
    """The CPU run of probe_serving_cpu.run; `export=False` keeps a case with
    large inputs out of the PROBE_EXPORT hand-off (64 MiB carry)."""
    if export or not ps.EXPORT:
        return ps.run(tile, kernel, defines, grid, args, dumps, warps, stages)
    return ps._run(tile, kernel, defines, grid, args, dumps)


def randn(*shape, dtype=np.float16, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def nan(*shape, dtype=np.float32):
    return np.full(shape, np.nan, dtype)


def f64(x):
    return np.asarray(x, dtype=np.float64)


# ====================================================== 1. Inductor kernels
@guarded
def inductor_softmax():
    """1a. triton_per_fused__softmax_add_6: softmax over 50 columns of
    (in0 + in1) with in1/out rows of 50 in blocks of 50 padded to 2528."""
    xn, rn = 400, 50
    in0 = randn(xn, rn, dtype=np.float32)
    in1 = randn(8 * 2528, dtype=np.float32)
    x = np.arange(xn)[:, None]
    r = np.arange(rn)[None, :]
    idx = r + 50 * (x % 50) + 2528 * (x // 50)
    s = f64(in0) + f64(in1)[idx]
    p = np.exp(s - s.max(1, keepdims=True))
    ref = p / p.sum(1, keepdims=True)
    written = np.zeros(8 * 2528, bool)
    written[idx] = True
    for xblock, warps in ((32, 8), (1, 2)):
        out = run(TILE_IND, "triton_per_fused__softmax_add_6",
                  dict(XBLOCK=xblock), (-(-xn // xblock),),
                  dict(in_ptr0=in0, in_ptr1=in1, out_ptr2=nan(8 * 2528),
                       xnumel=xn, r0_numel=rn), ["out_ptr2"], warps,
                  1)["out_ptr2"]
        check(f"inductor per softmax_add XBLOCK={xblock}", out[idx], ref,
              FP32_TOL)
        # the 28 padding elements after each block of 50 rows stay unwritten
        check(f"inductor per softmax_add XBLOCK={xblock} padding untouched",
              np.isnan(out[~written]).all() * 1.0, 1.0, 0.0)


@guarded
def inductor_layernorm():
    """1b. triton_per_fused_native_layer_norm_view_1 over the first rows of
    its 16384 x 256 input (a partial grid; buffers cover those rows)."""
    rows, rn = 41, 256
    x = randn(rows, rn, dtype=np.float32, scale=2.0) + 0.5
    w = randn(rn, dtype=np.float32)
    b = randn(rn, dtype=np.float32)
    xd = f64(x)
    mean = xd.mean(1)
    rstd = 1.0 / np.sqrt(((xd - mean[:, None]) ** 2).mean(1) + 1e-5)
    ref = (xd - mean[:, None]) * rstd[:, None] * f64(w) + f64(b)
    for xblock, warps in ((1, 2), (8, 4)):
        n = rows // xblock  # whole programs only: the kernel has no x mask
        res = run(TILE_IND, "triton_per_fused_native_layer_norm_view_1",
                  dict(XBLOCK=xblock), (n,),
                  dict(in_out_ptr0=nan(rows), in_ptr0=x, in_ptr1=w,
                       in_ptr2=b, out_ptr0=nan(rows), out_ptr1=nan(rows, rn),
                       xnumel=16384, r0_numel=rn),
                  ["in_out_ptr0", "out_ptr0", "out_ptr1"], warps, 1)
        m = n * xblock
        check(f"inductor per layer_norm XBLOCK={xblock} y",
              res["out_ptr1"][:m], ref[:m], FP32_TOL)
        check(f"inductor per layer_norm XBLOCK={xblock} mean",
              res["out_ptr0"][:m], mean[:m], FP32_TOL)
        check(f"inductor per layer_norm XBLOCK={xblock} rstd",
              res["in_out_ptr0"][:m], rstd[:m], FP32_TOL)


@guarded
def inductor_rmsnorm_embedding():
    """1c. triton_red_fused_add_embedding_mean_mul_pow_rsqrt_0: T5 RMSNorm of
    embedding rows (vocabulary 32128, width 384), negative ids wrapped."""
    vocab, rn, rows = 32128, 384, 37
    w = randn(rn, dtype=np.float32)
    full = randn(vocab, rn, dtype=np.float32)
    small = randn(1000, rn, dtype=np.float32)
    for table, ids_hi, neg in ((full, vocab, True), (small, 1000, False)):
        ids = rng.integers(0, ids_hi, rows).astype(np.int64)
        if neg:
            ids[[3, 10, 29]] = [-1, -vocab, -17]  # Python-style indices
        emb = f64(table)[np.where(ids < 0, ids + vocab, ids)]
        ref = f64(w) * emb / np.sqrt((emb ** 2).mean(1, keepdims=True) + 1e-6)
        for xblock, rblock, warps in ((1, 512, 4), (4, 128, 4), (2, 256, 4)):
            n = -(-rows // xblock)
            out = run(TILE_IND,
                      "triton_red_fused_add_embedding_mean_mul_pow_rsqrt_0",
                      dict(XBLOCK=xblock, R0_BLOCK=rblock), (n,),
                      dict(in_ptr0=np.resize(ids, n * xblock), in_ptr1=table,
                           in_ptr2=w, out_ptr1=nan(n * xblock, rn),
                           xnumel=1296, r0_numel=rn), ["out_ptr1"], warps, 1,
                      export=not neg)["out_ptr1"]
            check(f"inductor red rmsnorm(embedding) XBLOCK={xblock} "
                  f"R0_BLOCK={rblock}{' negative ids' if neg else ''}",
                  out[:rows], ref, FP32_TOL)


def t5_reference(bias_table, mask, scores, rows):
    """The math of triton_red_fused__to_copy_add_mul_rsub_4 for xindex <
    rows: T5's bidirectional relative-position bucket (32 buckets, max
    distance 128), its per-head bias plus the additive mask, then softmax
    of scores + that (0 where a whole row is -inf). The bucket's float part
    is computed as the CPU mode does (fp32 operations, log in double
    rounded to fp32): it picks an integer, where a rounding can flip it."""
    f = np.float32
    x = np.arange(rows)[:, None]
    j = np.arange(324)[None, :]
    i, h, b = x % 324, (x // 324) % 8, x // 2592
    d = j - i
    big = (d > 0).astype(np.int64) * 16
    a = np.abs(d)
    with np.errstate(divide="ignore"):
        t = f(np.log(f64(a.astype(f) * f(0.125)))) * f(0.36067376022224085)
        t = (t * f(8.0)).astype(np.float64)
    t = np.where(np.isfinite(t), t, 0).astype(np.int64) + 8
    bucket = big + np.where(a < 8, a, np.minimum(t, 15))
    pos = f64(bias_table)[bucket, np.broadcast_to(h, bucket.shape)]
    bias = pos + (1.0 - mask[b[:, 0]]) * -3.4028234663852886e+38
    s = f64(scores)[x, j] + bias
    p = np.exp(s - s.max(1, keepdims=True))
    return bias, p / p.sum(1, keepdims=True)


@guarded
def inductor_t5_softmax():
    """1d. triton_red_fused__to_copy_add_mul_rsub_4 on the first rows of its
    4 x 8 x 324 x 324 problem (partial grids reach heads 0-2 of batch 0)."""
    rows = 700
    bias_table = randn(32, 8, dtype=np.float32)
    mask = np.ones((4, 324), np.int64)
    mask[0, 300:] = 0
    mask[0, [5, 77]] = 0
    scores = randn(rows, 324, dtype=np.float32, scale=3.0)
    ref_bias, ref = t5_reference(bias_table, mask, scores, rows)
    x = np.arange(rows)[:, None]
    oidx = np.arange(324)[None, :] + 324 * (x % 324) + 104992 * (x // 324)
    olen = 104992 * (rows // 324 + 1)
    for xblock, rblock, warps in ((1, 512, 4), (2, 128, 4)):
        n = rows // xblock
        res = run(TILE_IND, "triton_red_fused__to_copy_add_mul_rsub_4",
                  dict(XBLOCK=xblock, R0_BLOCK=rblock), (n,),
                  dict(in_ptr0=bias_table, in_ptr1=mask,
                       in_ptr2=scores, out_ptr0=nan(olen), out_ptr4=nan(olen),
                       xnumel=10368, r0_numel=324),
                  ["out_ptr0", "out_ptr4"], warps, 1)
        m = n * xblock
        # the bias (finite) holds -3.4e38 where masked: compare the unmasked
        unmasked = np.broadcast_to(mask[0][None, :] == 1, (m, 324))
        check(f"inductor red T5 bias+mask XBLOCK={xblock} R0_BLOCK={rblock}",
              res["out_ptr0"][oidx[:m]][unmasked], ref_bias[:m][unmasked],
              FP32_TOL)
        check(f"inductor red T5 online softmax XBLOCK={xblock} "
              f"R0_BLOCK={rblock}", res["out_ptr4"][oidx[:m]], ref[:m],
              FP32_TOL)


@guarded
def inductor_rope():
    """1e. triton_poi_fused_..._cos_mul_neg_sin_..._41: rotary embedding of
    rows of 64 (positions cycle every 64 rows) on a partial grid."""
    xblock, warps, progs = 512, 8, 37
    n = xblock * progs
    rows = n // 64 + 1
    xin = randn(rows, 64, dtype=np.float32)
    ang = randn(64, 32, dtype=np.float32, scale=3.0)
    x = np.arange(n)
    d, pos, row = x % 64, (x // 64) % 64, x // 64
    th = f64(ang)[pos, d % 32]
    xd = f64(xin)
    rot = np.where(d < 32, -xd[row, np.minimum(d + 32, 63)],
                   xd[row, np.maximum(d - 32, 0)])
    ref = xd[row, d] * np.cos(th) + rot * np.sin(th)
    for xb, w in ((xblock, warps), (1024, 4)):
        g = n // xb
        out = run(TILE_IND, "triton_poi_fused__unsafe_view_add_cat_cos_mul_"
                  "neg_sin_split_unsqueeze_41", dict(XBLOCK=xb), (g,),
                  dict(in_ptr0=xin, in_ptr1=ang, out_ptr0=nan(rows * 64),
                       xnumel=4194304), ["out_ptr0"], w, 1)["out_ptr0"]
        check(f"inductor poi rotary (cat/cos/sin) XBLOCK={xb}",
              out[:g * xb], ref[:g * xb], FP32_TOL)


# ============================================ 2. FlashAttention forward
@guarded
def flash_attn_fwd():
    B, H = 2, 3
    cases = [
        # (seqlen_q, seqlen_k, d, bias, causal)
        (37, 100, 64, "none", False),
        (37, 100, 64, "none", True),
        (100, 37, 40, "vector", False),
        (100, 37, 40, "matrix", True),
        (37, 100, 64, "matrix", False),
        (256, 256, 64, "none", False),  # EVEN_M, EVEN_N, EVEN_HEADDIM
        (256, 256, 64, "none", True),
        (256, 256, 64, "vector", True),
        (1024, 1024, 64, "none", False),  # 8 programs a head (the GPU check)
    ]
    for sq, sk, d, bias_type, causal in cases:
        bd = max(1 << (d - 1).bit_length(), 16)
        block = 128
        q, k, v = randn(B, sq, H, d), randn(B, sk, H, d), randn(B, sk, H, d)
        scale = 1.0 / math.sqrt(d)
        if bias_type == "vector":
            bias = randn(B, 1, 1, sk)
            bstr = (sk, 0, 0)  # bias.expand(B, H, sq, sk).stride()[:3]
            bfull = np.broadcast_to(f64(bias), (B, H, sq, sk))
        elif bias_type == "matrix":
            bias = randn(B, H, sq, sk)
            bstr = (H * sq * sk, sq * sk, sk)
            bfull = f64(bias)
        else:
            bias, bstr, bfull = np.zeros(1, np.float16), (0, 0, 0), 0.0
        sqr = -(-sq // 128) * 128
        args = dict(Q=q, K=k, V=v, Bias=bias, Out=nan(B, sq, H, d,
                                                      dtype=np.float16),
                    Lse=nan(B, H, sqr), TMP=nan(B, H, sqr),
                    softmax_scale=scale,
                    stride_qb=sq * H * d, stride_qh=d, stride_qm=H * d,
                    stride_kb=sk * H * d, stride_kh=d, stride_kn=H * d,
                    stride_vb=sk * H * d, stride_vh=d, stride_vn=H * d,
                    stride_bb=bstr[0], stride_bh=bstr[1], stride_bm=bstr[2],
                    stride_ob=sq * H * d, stride_oh=d, stride_om=H * d,
                    nheads=H, seqlen_q=sq, seqlen_k=sk, seqlen_q_rounded=sqr,
                    headdim=d, CACHE_KEY_SEQLEN_Q=sq // 32,
                    CACHE_KEY_SEQLEN_K=sk // 32)
        # EVEN_M, EVEN_N and EVEN_HEADDIM: the kernel's @triton.heuristics
        defs = dict(BIAS_TYPE=bias_type, IS_CAUSAL=causal, BLOCK_HEADDIM=bd,
                    BLOCK_M=block, BLOCK_N=block)
        res = run(TILE, "_fwd_kernel", defs, (-(-sq // block), B * H), args,
                  ["Out", "Lse"], 4 if d <= 64 else 8, 1)
        s = np.einsum("bqhd,bkhd->bhqk", f64(q), f64(k)) * scale + bfull
        if causal:  # top-left aligned, as the kernel's offs_m >= offs_n
            s = np.where(np.tril(np.ones((sq, sk), bool)), s, -np.inf)
        mx = s.max(-1, keepdims=True)
        p = np.exp(s - mx)
        lse = (mx + np.log(p.sum(-1, keepdims=True)))[..., 0]
        ref = np.einsum("bhqk,bkhd->bqhd", p / p.sum(-1, keepdims=True),
                        f64(v))
        label = (f"flash_attn _fwd_kernel sq={sq} sk={sk} d={d} "
                 f"BIAS_TYPE={bias_type} causal={causal}")
        check(label + " out", res["Out"], ref, FP16_TOL)
        check(label + " lse", res["Lse"][:, :, :sq], lse, 1e-4)


# ================================== 3. Mamba selective_state_update
def ssu_reference(state, x, dt, dt_bias, A, B, C, D, z, softplus, ratio):
    """mamba_ssm's selective_state_update_ref on float64 (heads expanded),
    with the kernel's `dt <= 20` softplus threshold."""
    dt = f64(dt) + (0.0 if dt_bias is None else f64(dt_bias))
    if softplus:
        dt = np.where(dt <= 20.0, np.log1p(np.exp(dt)), dt)
    dA = np.exp(dt[..., None] * f64(A))
    Bh = np.repeat(f64(B), ratio, axis=1)
    Ch = np.repeat(f64(C), ratio, axis=1)
    new = f64(state) * dA + (dt[..., None] * Bh[:, :, None, :]) * \
        f64(x)[..., None]
    out = (new * Ch[:, :, None, :]).sum(-1)
    if D is not None:
        out = out + f64(x) * f64(D)
    if z is not None:
        zz = f64(z)
        out = out * zz / (1.0 + np.exp(-zz))
    return new, out


def selective_state_update_cases(tile, mamba1, mamba2):
    """Mamba's _selective_scan_update_kernel in `tile` (also run by
    bench/probe_mamba_cpu.py): Mamba-1 cases (dstate, dt_bias/softplus/D/z,
    BLOCK_SIZE_M as the launcher picks it) and Mamba-2 ones (dstate,
    num_warps, with z)."""
    # Mamba-1: per-channel dt and A
    for dstate, full, bm in mamba1:
        batch, nheads, ngroups, dim = 3, 2, 1, 37
        state = randn(batch, nheads, dim, dstate, dtype=np.float32)
        x, dt = randn(batch, nheads, dim), randn(batch, nheads, dim)
        dt_bias = randn(nheads, dim, dtype=np.float32, scale=0.5)
        A = -np.exp(randn(nheads, dim, dstate, dtype=np.float32, scale=0.5))
        Bm, Cm = randn(batch, ngroups, dstate), randn(batch, ngroups, dstate)
        D = randn(nheads, dim, dtype=np.float32)
        z = randn(batch, nheads, dim)
        ref_state, ref_out = ssu_reference(
            state, x, dt, dt_bias if full else None, A, Bm, Cm,
            D if full else None, z if full else None, full, nheads // ngroups)
        # None where mamba's launcher passes None: the kernel's
        # @triton.heuristics set HAS_DT_BIAS, HAS_D, HAS_Z and
        # HAS_STATE_BATCH_INDICES from them, BLOCK_SIZE_DSTATE from dstate.
        args = dict(state_ptr=state, x_ptr=x, dt_ptr=dt,
                    dt_bias_ptr=dt_bias if full else None, A_ptr=A, B_ptr=Bm,
                    C_ptr=Cm, D_ptr=D if full else None,
                    z_ptr=z if full else None,
                    out_ptr=nan(batch, nheads, dim, dtype=np.float16),
                    state_batch_indices_ptr=None,
                    batch=batch, nheads=nheads, dim=dim, dstate=dstate,
                    nheads_ngroups_ratio=nheads // ngroups,
                    stride_state_batch=nheads * dim * dstate,
                    stride_state_head=dim * dstate, stride_state_dim=dstate,
                    stride_state_dstate=1,
                    stride_x_batch=nheads * dim, stride_x_head=dim,
                    stride_x_dim=1,
                    stride_dt_batch=nheads * dim, stride_dt_head=dim,
                    stride_dt_dim=1,
                    stride_dt_bias_head=dim if full else 0,
                    stride_dt_bias_dim=1 if full else 0,
                    stride_A_head=dim * dstate, stride_A_dim=dstate,
                    stride_A_dstate=1,
                    stride_B_batch=ngroups * dstate, stride_B_group=dstate,
                    stride_B_dstate=1,
                    stride_C_batch=ngroups * dstate, stride_C_group=dstate,
                    stride_C_dstate=1,
                    stride_D_head=dim if full else 0,
                    stride_D_dim=1 if full else 0,
                    stride_z_batch=nheads * dim if full else 0,
                    stride_z_head=dim if full else 0,
                    stride_z_dim=1 if full else 0,
                    stride_out_batch=nheads * dim, stride_out_head=dim,
                    stride_out_dim=1)
        defs = dict(DT_SOFTPLUS=full, TIE_HDIM=False, BLOCK_SIZE_M=bm)
        res = run(tile, "_selective_scan_update_kernel", defs,
                  (-(-dim // bm), batch, nheads), args,
                  ["state_ptr", "out_ptr"], 4, 1)
        label = (f"mamba selective_state_update (Mamba-1) dim={dim} "
                 f"dstate={dstate} BLOCK_SIZE_M={bm} "
                 f"dt_bias/softplus/D/z={full}")
        check(label + " state", res["state_ptr"], ref_state, FP32_TOL)
        check(label + " out", res["out_ptr"], ref_out, FP16_TOL)

    # Mamba-2: one A, dt, dt_bias and D per head (TIE_HDIM: stride-0
    # expansions over the head dimension), ngroups < nheads, z or none
    # (rmsnorm), vLLM's state_batch_indices with a padding token (-1)
    for dstate, warps, with_z in mamba2:
        batch, nheads, ngroups, dim, slots = 4, 6, 2, 37, 5
        state = randn(slots, nheads, dim, dstate, dtype=np.float32)
        x = randn(batch, nheads, dim)
        dt_h = randn(batch, nheads)  # dt repeated over dim: stride 0
        dt_bias_h = randn(nheads, dtype=np.float32, scale=0.5)
        A_h = -np.exp(randn(nheads, dtype=np.float32, scale=0.5))
        D_h = randn(nheads, dtype=np.float32)
        Bm, Cm = randn(batch, ngroups, dstate), randn(batch, ngroups, dstate)
        z = randn(batch, nheads, dim) if with_z else None
        sbi = np.array([2, -1, 0, 4], np.int32)
        exp_dt = np.broadcast_to(dt_h[:, :, None], (batch, nheads, dim))
        ref_state = f64(state).copy()
        ref_out = np.zeros((batch, nheads, dim))
        for bi in range(batch):
            if sbi[bi] < 0:
                continue
            st, o = ssu_reference(
                state[sbi[bi]][None], x[bi][None], exp_dt[bi][None],
                np.broadcast_to(dt_bias_h[:, None], (nheads, dim)),
                np.broadcast_to(A_h[:, None, None], (nheads, dim, dstate)),
                Bm[bi][None], Cm[bi][None],
                np.broadcast_to(D_h[:, None], (nheads, dim)),
                z[bi][None] if with_z else None, True, nheads // ngroups)
            ref_state[sbi[bi]] = st[0]
            ref_out[bi] = o[0]
        args = dict(state_ptr=state, x_ptr=x, dt_ptr=dt_h, dt_bias_ptr=dt_bias_h,
                    A_ptr=A_h, B_ptr=Bm, C_ptr=Cm, D_ptr=D_h, z_ptr=z,
                    out_ptr=nan(batch, nheads, dim, dtype=np.float16),
                    state_batch_indices_ptr=sbi,
                    batch=batch, nheads=nheads, dim=dim, dstate=dstate,
                    nheads_ngroups_ratio=nheads // ngroups,
                    stride_state_batch=nheads * dim * dstate,
                    stride_state_head=dim * dstate, stride_state_dim=dstate,
                    stride_state_dstate=1,
                    stride_x_batch=nheads * dim, stride_x_head=dim, stride_x_dim=1,
                    stride_dt_batch=nheads, stride_dt_head=1, stride_dt_dim=0,
                    stride_dt_bias_head=1, stride_dt_bias_dim=0,
                    stride_A_head=1, stride_A_dim=0, stride_A_dstate=0,
                    stride_B_batch=ngroups * dstate, stride_B_group=dstate,
                    stride_B_dstate=1,
                    stride_C_batch=ngroups * dstate, stride_C_group=dstate,
                    stride_C_dstate=1,
                    stride_D_head=1, stride_D_dim=0,
                    stride_z_batch=nheads * dim if with_z else 0,
                    stride_z_head=dim if with_z else 0,
                    stride_z_dim=1 if with_z else 0,
                    stride_out_batch=nheads * dim, stride_out_head=dim,
                    stride_out_dim=1)
        defs = dict(DT_SOFTPLUS=True, TIE_HDIM=True, BLOCK_SIZE_M=4)
        res = run(tile, "_selective_scan_update_kernel", defs,
                  (-(-dim // 4), batch, nheads), args, ["state_ptr", "out_ptr"],
                  warps, 1)
        label = (f"mamba selective_state_update (Mamba-2 TIE_HDIM) dim={dim} "
                 f"dstate={dstate} ngroups={ngroups} z={with_z} "
                 f"state_batch_indices")
        check(label + " state", res["state_ptr"], ref_state, FP32_TOL)
        check(label + " out (padding token -> 0)", res["out_ptr"], ref_out,
              FP16_TOL)


@guarded
def mamba_selective_state_update():
    # (dstate, BLOCK_SIZE_M) as the launcher picks them: dstate <= 16 -> 32
    # rows per program
    selective_state_update_cases(TILE, ((16, True, 32), (13, False, 32)),
                                 ((100, 4, False),))


# ========================================= 4. Mamba-2 chunk state (tl.dot)
@guarded
def mamba_chunk_state():
    batch, seqlen, nheads, ngroups, hdim, dstate, cs = 2, 100, 4, 2, 40, 24, 64
    nchunks = -(-seqlen // cs)
    x = randn(batch, seqlen, nheads, hdim)
    Bm = randn(batch, seqlen, ngroups, dstate)
    A = -np.exp(randn(nheads, dtype=np.float32, scale=0.5))
    # dt and dA_cumsum as _chunk_cumsum_fwd leaves them: 0 past seqlen, the
    # cumulative sum constant there
    dt = np.log1p(np.exp(randn(batch, nheads, nchunks, cs, dtype=np.float64)))
    pos = np.arange(nchunks * cs).reshape(nchunks, cs)
    dt = np.where(pos[None, None] < seqlen, dt, 0.0).astype(np.float32)
    dA_cs = np.cumsum(f64(dt) * f64(A)[None, :, None, None], -1)
    dA_cs = dA_cs.astype(np.float32)
    seq_idx = np.zeros((batch, seqlen), np.int32)
    seq_idx[0, 30:] = 1
    seq_idx[1, 90:] = 1
    for has_seq_idx in (False, True):
        # reference: states[b,c,h,p,n] = sum_l x[l,p] B[l,n] dt[l]
        #            * exp(min(dA_cs[cs-1] - dA_cs[l], 0)) over l in the chunk
        ref = np.zeros((batch, nchunks, nheads, hdim, dstate))
        for b in range(batch):
            for c in range(nchunks):
                lim = min(cs, seqlen - c * cs)
                ls = slice(c * cs, c * cs + lim)
                for h in range(nheads):
                    g = h // (nheads // ngroups)
                    dacs = f64(dA_cs[b, h, c])
                    scale = np.exp(np.minimum(dacs[-1] - dacs[:lim], 0.0)) \
                        * f64(dt[b, h, c, :lim])
                    if has_seq_idx:
                        si = seq_idx[b, ls]
                        scale = np.where(si == si[-1], scale, 0.0)
                    ref[b, c, h] = f64(x[b, ls, h]).T @ (
                        f64(Bm[b, ls, g]) * scale[:, None])
        for (bm, bn, bk, warps, stages) in ((64, 32, 32, 2, 5),
                                            (128, 256, 64, 8, 3)):
            st = nan(batch, nchunks, nheads, hdim, dstate)
            args = dict(x_ptr=x, b_ptr=Bm, states_ptr=st, dt_ptr=dt,
                        dA_cumsum_ptr=dA_cs, seq_idx_ptr=seq_idx,
                        hdim=hdim, dstate=dstate, chunk_size=cs, batch=batch,
                        seqlen=seqlen, nheads_ngroups_ratio=nheads // ngroups,
                        stride_x_batch=seqlen * nheads * hdim,
                        stride_x_seqlen=nheads * hdim, stride_x_head=hdim,
                        stride_x_hdim=1,
                        stride_b_batch=seqlen * ngroups * dstate,
                        stride_b_seqlen=ngroups * dstate, stride_b_head=dstate,
                        stride_b_dstate=1,
                        stride_states_batch=nchunks * nheads * hdim * dstate,
                        stride_states_chunk=nheads * hdim * dstate,
                        stride_states_head=hdim * dstate,
                        stride_states_hdim=dstate, stride_states_dstate=1,
                        # dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3)
                        stride_dt_batch=nheads * nchunks * cs,
                        stride_dt_chunk=cs, stride_dt_head=nchunks * cs,
                        stride_dt_csize=1,
                        stride_dA_cs_batch=nheads * nchunks * cs,
                        stride_dA_cs_chunk=cs, stride_dA_cs_head=nchunks * cs,
                        stride_dA_cs_csize=1,
                        stride_seq_idx_batch=seqlen if has_seq_idx else 0,
                        stride_seq_idx_seqlen=1 if has_seq_idx else 0)
            defs = dict(HAS_SEQ_IDX=has_seq_idx, BLOCK_SIZE_M=bm,
                        BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk)
            grid = (-(-hdim // bm) * -(-dstate // bn), batch * nchunks, nheads)
            out = run(TILE, "_chunk_state_fwd_kernel", defs, grid, args,
                      ["states_ptr"], warps, stages)["states_ptr"]
            check(f"mamba2 _chunk_state_fwd_kernel {bm}x{bn}x{bk} "
                  f"seqlen={seqlen} chunk={cs} hdim={hdim} dstate={dstate} "
                  f"HAS_SEQ_IDX={has_seq_idx}", out, ref, FP16_TOL)


# ----------------------------------------------------------- GPU compile
def _sig(**kw):
    return ",".join(f"{k}={v}" for k, v in kw.items())


def _ptrs(names, t="*fp32:16"):
    return {n: t for n in names.split()}


# Facts Triton's JIT specializes on for each launch (inductor's triton_meta
# lists them; for the others, the strides of the projects' own tensors):
# 16-byte aligned pointers, integers divisible by 16 (0 included), and 1.
SIG_IND_SOFTMAX = _sig(**_ptrs("in_ptr0 in_ptr1 out_ptr2"), xnumel="i32:16")
SIG_IND_LN = _sig(**_ptrs("in_out_ptr0 in_ptr0 in_ptr1 in_ptr2 out_ptr0 "
                          "out_ptr1"), xnumel="i32:16", r0_numel="i32:16")
SIG_IND_RMS = _sig(in_ptr0="*i64:16", **_ptrs("in_ptr1 in_ptr2 out_ptr1"),
                   xnumel="i32:16", r0_numel="i32:16")
SIG_IND_T5 = _sig(in_ptr1="*i64:16", **_ptrs("in_ptr0 in_ptr2 out_ptr0 "
                                              "out_ptr4"), xnumel="i32:16")
SIG_IND_ROPE = _sig(**_ptrs("in_ptr0 in_ptr1 out_ptr0"), xnumel="i32:16")
# flash-attn at batch 4, 16 heads, seqlen 1024 (2048 for the uneven case's
# bias), d = 64, q/k/v (b, s, h, d) contiguous
SIG_FA = _sig(**_ptrs("Q K V Bias Out", "*fp16:16"), **_ptrs("Lse TMP"),
              **{k: "i32:16" for k in (
                  "stride_qb stride_qh stride_qm stride_kb stride_kh "
                  "stride_kn stride_vb stride_vh stride_vn stride_bb "
                  "stride_bh stride_bm stride_ob stride_oh stride_om nheads "
                  "seqlen_q seqlen_k seqlen_q_rounded headdim "
                  "CACHE_KEY_SEQLEN_Q CACHE_KEY_SEQLEN_K").split()})
# selective_state_update, Mamba-2 2.7B decoding (batch 16, 80 heads of 64,
# dstate 128, 1 group; x, B, C slices of xBC; dt, dt_bias, A, D expanded
# over the head dimension by stride 0), and Mamba-1 (d_inner 5120, dstate
# 16, x and z halves of xz, B and C slices of x_dbl with dt_rank 160)
_SSU_PTRS = dict(state_ptr="*fp32:16", x_ptr="*fp16:16", dt_ptr="*fp16:16",
                 dt_bias_ptr="*fp32:16", A_ptr="*fp32:16", B_ptr="*fp16:16",
                 C_ptr="*fp16:16", D_ptr="*fp32:16", z_ptr="*fp16:16",
                 out_ptr="*fp16:16", state_batch_indices_ptr="*i32:16")
_I16, _I1 = "i32:16", "i32:1"
SIG_SSU2 = _sig(**_SSU_PTRS, batch=_I16, nheads=_I16, dim=_I16, dstate=_I16,
                nheads_ngroups_ratio=_I16, stride_state_batch=_I16,
                stride_state_head=_I16, stride_state_dim=_I16,
                stride_state_dstate=_I1, stride_x_batch=_I16,
                stride_x_head=_I16, stride_x_dim=_I1, stride_dt_batch=_I16,
                stride_dt_head=_I1, stride_dt_dim=_I16,
                stride_dt_bias_head=_I1, stride_dt_bias_dim=_I16,
                stride_A_head=_I1, stride_A_dim=_I16, stride_A_dstate=_I16,
                stride_B_batch=_I16, stride_B_group=_I16, stride_B_dstate=_I1,
                stride_C_batch=_I16, stride_C_group=_I16, stride_C_dstate=_I1,
                stride_D_head=_I1, stride_D_dim=_I16, stride_z_batch=_I16,
                stride_z_head=_I16, stride_z_dim=_I16, stride_out_batch=_I16,
                stride_out_head=_I16, stride_out_dim=_I1)
SIG_SSU1 = _sig(**_SSU_PTRS, batch=_I16, nheads=_I1, dim=_I16, dstate=_I16,
                nheads_ngroups_ratio=_I1, stride_state_batch=_I16,
                stride_state_head=_I16, stride_state_dim=_I16,
                stride_state_dstate=_I1, stride_x_batch=_I16,
                stride_x_head=_I16, stride_x_dim=_I1, stride_dt_batch=_I16,
                stride_dt_head=_I16, stride_dt_dim=_I1,
                stride_dt_bias_head=_I16, stride_dt_bias_dim=_I1,
                stride_A_head=_I16, stride_A_dim=_I16, stride_A_dstate=_I1,
                stride_B_batch=_I16, stride_B_group=_I16, stride_B_dstate=_I1,
                stride_C_batch=_I16, stride_C_group=_I16, stride_C_dstate=_I1,
                stride_D_head=_I16, stride_D_dim=_I1, stride_z_batch=_I16,
                stride_z_head=_I16, stride_z_dim=_I1, stride_out_batch=_I16,
                stride_out_head=_I16, stride_out_dim=_I1)
# chunk state, Mamba-2 2.7B prefill (batch 16, seqlen 2048, 80 heads of 64,
# dstate 128, chunk 256; x and B slices of xBC (row stride 5376))
SIG_CS = _sig(x_ptr="*fp16:16", b_ptr="*fp16:16", states_ptr="*fp32:16",
              dt_ptr="*fp32:16", dA_cumsum_ptr="*fp32:16",
              seq_idx_ptr="*i32:16", hdim=_I16, dstate=_I16, chunk_size=_I16,
              batch=_I16, seqlen=_I16, nheads_ngroups_ratio=_I16,
              stride_x_batch=_I16, stride_x_seqlen=_I16, stride_x_head=_I16,
              stride_x_hdim=_I1, stride_b_batch=_I16, stride_b_seqlen=_I16,
              stride_b_head=_I16, stride_b_dstate=_I1,
              stride_states_batch=_I16, stride_states_chunk=_I16,
              stride_states_head=_I16, stride_states_hdim=_I16,
              stride_states_dstate=_I1, stride_dt_batch=_I16,
              stride_dt_chunk=_I16, stride_dt_head=_I16, stride_dt_csize=_I1,
              stride_dA_cs_batch=_I16, stride_dA_cs_chunk=_I16,
              stride_dA_cs_head=_I16, stride_dA_cs_csize=_I1,
              stride_seq_idx_batch=_I16, stride_seq_idx_seqlen=_I16)

_FA = ("BLOCK_HEADDIM=64 BLOCK_M=128 BLOCK_N=128 ")
_SSU = "DT_SOFTPLUS=True HAS_DT_BIAS=True HAS_D=True "
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature)
    ("ind per softmax_add (XBLOCK=32)", TILE_IND,
     "triton_per_fused__softmax_add_6", "XBLOCK=32", 8, 1, SIG_IND_SOFTMAX),
    ("ind per layer_norm (XBLOCK=1)", TILE_IND,
     "triton_per_fused_native_layer_norm_view_1", "XBLOCK=1", 2, 1,
     SIG_IND_LN),
    ("ind red rmsnorm(embedding) (1x512)", TILE_IND,
     "triton_red_fused_add_embedding_mean_mul_pow_rsqrt_0",
     "XBLOCK=1 R0_BLOCK=512", 4, 1, SIG_IND_RMS),
    ("ind red T5 online softmax (1x512)", TILE_IND,
     "triton_red_fused__to_copy_add_mul_rsub_4", "XBLOCK=1 R0_BLOCK=512", 4,
     1, SIG_IND_T5),
    ("ind poi rotary (XBLOCK=512)", TILE_IND,
     "triton_poi_fused__unsafe_view_add_cat_cos_mul_neg_sin_split_"
     "unsqueeze_41", "XBLOCK=512", 8, 1, SIG_IND_ROPE),
    ("flash fwd d=64 even", TILE, "_fwd_kernel",
     _FA + "BIAS_TYPE=none IS_CAUSAL=False EVEN_M=True EVEN_N=True "
     "EVEN_HEADDIM=True", 4, 1, SIG_FA),
    ("flash fwd d=64 even causal", TILE, "_fwd_kernel",
     _FA + "BIAS_TYPE=none IS_CAUSAL=True EVEN_M=True EVEN_N=True "
     "EVEN_HEADDIM=True", 4, 1, SIG_FA),
    ("flash fwd d=64 uneven causal matrix bias", TILE, "_fwd_kernel",
     _FA + "BIAS_TYPE=matrix IS_CAUSAL=True EVEN_M=False EVEN_N=False "
     "EVEN_HEADDIM=True", 4, 1, SIG_FA),
    ("mamba2 selective_state_update", TILE, "_selective_scan_update_kernel",
     _SSU + "TIE_HDIM=True BLOCK_SIZE_M=4 HAS_Z=False "
     "HAS_STATE_BATCH_INDICES=False BLOCK_SIZE_DSTATE=128", 4, 1, SIG_SSU2),
    ("mamba1 selective_state_update", TILE, "_selective_scan_update_kernel",
     _SSU + "TIE_HDIM=False BLOCK_SIZE_M=32 HAS_Z=True "
     "HAS_STATE_BATCH_INDICES=False BLOCK_SIZE_DSTATE=16", 4, 1, SIG_SSU1),
    ("mamba2 chunk_state 128x256x64", TILE, "_chunk_state_fwd_kernel",
     "HAS_SEQ_IDX=False BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64",
     8, 3, SIG_CS),
    ("mamba2 chunk_state 64x128x32", TILE, "_chunk_state_fwd_kernel",
     "HAS_SEQ_IDX=False BLOCK_SIZE_M=64 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32",
     4, 4, SIG_CS),
]

# wgmma's fp8 form is QGMMA in SASS.
SASS_OPS = ("HGMMA", "QGMMA", "HMMA", "LDGSTS", "LDL", "STL", "BAR")


def sass_counts(sass):
    """Global loads and stores by width, and the other instructions of
    SASS_OPS, from cuobjdump --dump-sass. An LDG or STG ends at its
    modifiers (LDGSTS and LDGDEPBAR are not loads by width)."""
    c = {}
    for op, mods in re.findall(r"\b(LDG|STG)((?:\.[A-Z0-9_]+)*)(?=\s)", sass):
        m = mods.split(".")
        w = ("128" if "128" in m else "64" if "64" in m else
             "16" if ("U16" in m or "S16" in m) else
             "8" if ("U8" in m or "S8" in m) else "32")
        c[f"{op}.{w}"] = c.get(f"{op}.{w}", 0) + 1
    for op in SASS_OPS:
        c[op] = len(re.findall(r"\b" + op + r"\b", sass))
    return c


def gpu_ir_counts(cmd):
    """convert_layout and local_alloc ops in the IR after
    tilegpu-allocate-shared (the layouts tilec chose)."""
    p = subprocess.run(cmd + ["--emit=gpu", "--mlir-print-ir-after-all",
                              "-o", os.devnull], capture_output=True,
                       text=True)
    dumps = p.stderr.split("// -----// IR Dump After ")
    after = [d for d in dumps if d.startswith("TileGPUAllocateShared")]
    if not after:
        return "?"
    ir = after[-1]
    return (f"cvt={ir.count('tilegpu.convert_layout ')} "
            f"alloc={ir.count('tilegpu.local_alloc ')}")


def gpu_compile():
    print("\nGPU builds (sm_90a): as written, then with the JIT's facts "
          "(--signature); global loads/stores by bits per instruction")
    with tempfile.TemporaryDirectory() as tmp:
        for label, tile, kernel, defs, warps, stages, sig in GPU_BUILDS:
            for mode in ("written", "JIT facts"):
                ptx = os.path.join(tmp, "k.ptx")
                cubin = os.path.join(tmp, "k.cubin")
                cmd = [TILEC, tile, "-k", kernel]
                for d in defs.split():
                    cmd += ["-D", d]
                cmd += ["--num-warps", str(warps), "--num-stages", str(stages)]
                if mode == "JIT facts":
                    cmd += ["--signature", sig]
                shown = " ".join(c if c != sig else f"'{sig[:40]}...'"
                                 for c in cmd)
                p = subprocess.run(cmd + ["-o", ptx], capture_output=True,
                                   text=True)
                if p.returncode:
                    print(f"  {label} [{mode}]: tilec FAILED\n    {shown}\n"
                          f"    {p.stderr}")
                    continue
                p = subprocess.run([PTXAS, "-arch=sm_90a", "-v", ptx, "-o",
                                    cubin], capture_output=True, text=True)
                info = p.stderr
                regs = re.search(r"Used (\d+) registers", info)
                spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes "
                                  r"spill loads", info)
                sass = subprocess.run([CUOBJDUMP, "--dump-sass", cubin],
                                      capture_output=True, text=True).stdout
                c = sass_counts(sass)
                ld = " ".join(f"{k}={v}" for k, v in sorted(c.items())
                              if k.startswith("LDG"))
                st = " ".join(f"{k}={v}" for k, v in sorted(c.items())
                              if k.startswith("STG"))
                other = " ".join(f"{k}={c[k]}" for k in SASS_OPS)
                print(f"  {label} [{mode}]: regs={regs.group(1) if regs else '?'}"
                      f" spill st/ld={spill.group(1) if spill else '?'}/"
                      f"{spill.group(2) if spill else '?'} | {ld} | {st} | "
                      f"{other} | {gpu_ir_counts(cmd)}", flush=True)
            print(f"    {shown}")


CPU_TESTS = (inductor_softmax, inductor_layernorm, inductor_rmsnorm_embedding,
             inductor_t5_softmax, inductor_rope, flash_attn_fwd,
             mamba_selective_state_update, mamba_chunk_state)

def main(cpu_tests, gpu_builds, more_gpu_builds=None):
    """Run `cpu_tests` (all, or `--only NAME`), write the export manifest
    under PROBE_EXPORT, then the GPU-compile table of `gpu_builds` and
    whatever `more_gpu_builds()` compiles (unless --no-gpu-compile); exits
    non-zero when a CPU check failed."""
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv \
        else None
    for fn in cpu_tests:
        if only is None or only == fn.__name__:
            fn()
    if ps.EXPORT:
        import json
        json.dump(ps._cases, open(os.path.join(ps.EXPORT, "manifest.json"),
                                  "w"), indent=1)
    if "--no-gpu-compile" not in sys.argv and (only is None or
                                               only == "gpu_compile"):
        GPU_BUILDS[:] = gpu_builds
        gpu_compile()
        if more_gpu_builds:
            more_gpu_builds()
    bad = [r for r in ps.RESULTS if not r[1]]
    print(f"\n{len(ps.RESULTS) - len(bad)}/{len(ps.RESULTS)} CPU checks "
          "passed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(CPU_TESTS, list(GPU_BUILDS))
