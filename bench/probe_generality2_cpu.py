#!/usr/bin/python3
"""Generality probe 2: public Triton kernels of kinds earlier probes did not
cover (bench/kernels/probe_generality2.tile: DeepSeek-V3's fp8 block-scaled
act_quant / weight_dequant / fp8_gemm, vLLM's AWQ int4 dequantize and GEMM,
vLLM's paged prefix-prefill attention, flash-linear-attention's chunk
output kernel), run in tilec's CPU mode at small
odd sizes against float64 NumPy references, then compiled for sm_90a at
each project's own launch settings, as written and with the facts Triton's
JIT would specialize on (--signature: 16-byte aligned pointers, integers
divisible by 16, unit strides), with ptxas register / spill counts, SASS
instruction counts and the number of layout conversions tilec's GPU IR
keeps.

    /usr/bin/python3 bench/probe_generality2_cpu.py [--no-gpu-compile] [--only NAME]

The harness (run, check, guarded, the PROBE_EXPORT hand-off to the device)
is bench/probe_serving_cpu.py's, the GPU table bench/probe_generality_cpu.py's.
fp8 (float8_e4m3fn) buffers travel as their bits (uint8), bf16 ones as
uint16 bits (tile-run's .npy convention). The SASS counts add QGMMA
(wgmma's fp8 form) and count LDG/STG by width without the LDGSTS and
LDGDEPBAR that probe_generality_cpu.sass_counts also counted as LDG.32.
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)
import probe_generality_cpu as pg  # noqa: E402  (the same GPU table)

TILE = os.path.join(HERE, "kernels", "probe_generality2.tile")
check, guarded, run = ps.check, ps.guarded, pg.run
FP16_TOL, FP32_TOL = ps.FP16_TOL, pg.FP32_TOL
BF16_TOL = 8e-3  # bf16 outputs: 2^-9 relative rounding of each element

rng = np.random.default_rng(2028)


def randn(*shape, dtype=np.float16, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def nan(*shape, dtype=np.float32):
    return np.full(shape, np.nan, dtype)


def f64(x):
    return np.asarray(x, dtype=np.float64)


# ------------------------------------------------------- bf16 and fp8 bits
def bf16_bits(x):
    """float -> bf16 bits (round to nearest even), as uint16."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return b.astype(np.uint16)


def bf16_value(bits):
    return (np.asarray(bits, np.uint32) << 16).view(np.float32).astype(
        np.float64)


def _e4m3_table():
    t = np.empty(256)
    for c in range(256):
        s, e, m = c >> 7, (c >> 3) & 15, c & 7
        v = m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7)
        t[c] = np.nan if (e == 15 and m == 7) else (-v if s else v)
    return t


E4M3 = _e4m3_table()


def fp8_value(bits):
    return E4M3[np.asarray(bits, np.uint8)]


def fp8_bits(x):
    """float64 -> float8_e4m3fn bits: round to nearest even, saturating at
    448 (cvt.rn.satfinite)."""
    x = np.asarray(x, np.float64)
    a = np.minimum(np.abs(x), 448.0)
    pos = E4M3[:127]  # codes 0..126, increasing
    hi = np.clip(np.searchsorted(pos, a), 0, 126)
    lo = np.maximum(hi - 1, 0)
    dlo, dhi = a - pos[lo], pos[hi] - a
    code = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi,
                                            np.where(lo % 2 == 0, lo, hi)))
    return (code | np.where(x < 0, 0x80, 0)).astype(np.uint8)


def fp8_randn(*shape, scale=1.0):
    return fp8_bits(rng.standard_normal(shape) * scale)


# ====================================================== 1. DeepSeek-V3
@guarded
def deepseek_act_quant():
    """act_quant: per-128 blocks of a bf16 row, s = amax / 448 (or its
    power of 2 above, ue8m0), y = fp8(x / s). A zero block takes the 1e-4
    clamp."""
    rows, k = 37, 384
    x = randn(rows, k, dtype=np.float32, scale=3.0)
    x[5, 128:256] = 0.0
    x[11] *= 1e-3
    xb = bf16_bits(x)
    xd = bf16_value(xb).reshape(-1, 128)
    for fmt in ("None", '"ue8m0"'):
        nblk = rows * k // 128
        res = run(TILE, "act_quant_kernel", dict(BLOCK_SIZE=128,
                                                  scale_fmt=fmt),
                  (nblk,), dict(x_ptr=xb, y_ptr=np.zeros(rows * k, np.uint8),
                                s_ptr=nan(nblk)), ["y_ptr", "s_ptr"], 4, 1)
        s_ref = np.maximum(np.abs(xd).max(1), 1e-4) / 448.0
        if fmt != "None":
            s_ref = 2.0 ** np.ceil(np.log2(s_ref))
        label = f"deepseek act_quant_kernel scale_fmt={fmt}"
        check(label + " s", res["s_ptr"], s_ref, FP32_TOL)
        # y against fp8_rn of the fp32 quotient x / s of the kernel's s,
        # exactly: x / s often lands on an fp8 tie (x and amax are bf16,
        # 448 * x / amax = 84 between 80 and 88), which the fp32 rounding
        # of the quotient decides, not the float64 value
        s_k = f64(res["s_ptr"])[:, None]
        q32 = (xd.astype(np.float32) / res["s_ptr"][:, None]).astype(
            np.float64)
        y = fp8_value(res["y_ptr"]).reshape(-1, 128)
        check(label + " y == fp8_rn(fp32(x / s))", y,
              fp8_value(fp8_bits(q32)), 0.0)
        check(label + " y * s vs x (e4m3: 2^-4)", y * s_k, xd, 2.0 ** -4)


@guarded
def deepseek_weight_dequant():
    for m, n in ((300, 200), (128, 256), (37, 131)):
        x = fp8_randn(m, n, scale=100.0)
        nb = (-(-m // 128), -(-n // 128))
        s = np.abs(randn(*nb, dtype=np.float32)) + 0.01
        y = run(TILE, "weight_dequant_kernel", dict(BLOCK_SIZE=128), nb,
                dict(x_ptr=x, s_ptr=s, y_ptr=np.zeros((m, n), np.uint16),
                     M=m, N=n), ["y_ptr"], 4, 1)["y_ptr"]
        ref = fp8_value(x) * np.repeat(np.repeat(f64(s), 128, 0), 128, 1)[
            :m, :n]
        check(f"deepseek weight_dequant_kernel M={m} N={n}", bf16_value(y),
              ref, BF16_TOL)


@guarded
def deepseek_fp8_gemm():
    """c = a @ b.T with a's per-(row, 128-column block) and b's per-(128 x
    128 block) fp32 scales applied per K block, as act_quant and the
    checkpoint's weight_scale_inv give them."""
    for m, n, k in ((37, 200, 384), (5, 256, 320), (70, 96, 128)):
        kb = -(-k // 128)
        a = fp8_randn(m, k, scale=60.0)
        b = fp8_randn(n, k, scale=60.0)
        a_s = np.abs(randn(m, kb, dtype=np.float32)) * 0.01 + 1e-3
        b_s = np.abs(randn(-(-n // 128), kb, dtype=np.float32)) * 0.01 + 1e-3
        ad, bd = fp8_value(a), fp8_value(b)
        ref = np.zeros((m, n))
        for i in range(kb):
            ks = slice(i * 128, min(k, (i + 1) * 128))
            ref += (ad[:, ks] @ bd[:, ks].T) * f64(a_s)[:, i:i + 1] * \
                np.repeat(f64(b_s)[:, i], 128)[None, :n]
        for bm, bn, stages in ((16, 32, 3), (64, 128, 6), (32, 64, 4)):
            c = run(TILE, "fp8_gemm_kernel",
                    dict(N=n, K=k, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                         BLOCK_SIZE_K=128),
                    (-(-m // bm), -(-n // bn)),
                    dict(a_ptr=a, b_ptr=b, c_ptr=np.zeros((m, n), np.uint16),
                         a_s_ptr=a_s, b_s_ptr=b_s, M=m), ["c_ptr"], 8,
                    stages)["c_ptr"]
            check(f"deepseek fp8_gemm_kernel {bm}x{bn}x128 M={m} N={n} K={k}",
                  bf16_value(c), ref, BF16_TOL)


# ====================================================== 2. vLLM AWQ
AWQ_SHIFTS = np.array([0, 4, 1, 5, 2, 6, 3, 7]) * 4  # column i of 8: nibble


def awq_unpack(q):
    """[R, C] int32 -> [R, 8 C] values 0..15 in AWQ's column order."""
    u = q.view(np.uint32).astype(np.int64)
    return ((u[:, :, None] >> AWQ_SHIFTS) & 0xF).reshape(q.shape[0], -1)


def awq_weights(k, ncols, g):
    q = rng.integers(0, 2 ** 32, (k, ncols), dtype=np.uint64).astype(
        np.uint32).view(np.int32)
    z = rng.integers(0, 2 ** 32, (k // g, ncols), dtype=np.uint64).astype(
        np.uint32).view(np.int32)
    s = (rng.random((k // g, 8 * ncols)) * 0.02 + 0.005).astype(np.float16)
    w = (awq_unpack(q) - np.repeat(awq_unpack(z), g, 0)) * \
        np.repeat(f64(s), g, 0)
    return q, z, s, w


@guarded
def awq_dequantize():
    for k, ncols, g in ((96, 37, 32), (192, 5, 64), (128, 40, 128)):
        q, z, s, w = awq_weights(k, ncols, g)
        out = run(TILE, "awq_dequantize_kernel",
                  dict(BLOCK_SIZE_X=32, BLOCK_SIZE_Y=32),
                  (-(-ncols // 32), -(-k // 32)),
                  dict(qweight_ptr=q, scales_ptr=s, zeros_ptr=z,
                       group_size=g, result_ptr=nan(k, 8 * ncols,
                                                    dtype=np.float16),
                       num_cols=ncols, num_rows=k), ["result_ptr"], 4,
                  3)["result_ptr"]
        check(f"awq_dequantize_kernel K={k} N={8 * ncols} group={g}", out, w,
              FP16_TOL)


@guarded
def awq_gemm():
    """Each of the SPLIT_K programs along axis 1 writes the partial product
    of its K blocks (z, z + SPLIT_K, ...) to result[z]; the host sums."""
    for m, n, k, g, split in ((37, 296, 320, 64, 8), (5, 64, 256, 32, 8),
                              (70, 128, 512, 128, 2)):
        q, z, s, w = awq_weights(k, n // 8, g)
        a = randn(m, k, scale=0.5)
        ref = np.zeros((split, m, n))
        for blk in range(-(-k // 32)):
            ks = slice(blk * 32, min(k, blk * 32 + 32))
            ref[blk % split] += f64(a)[:, ks] @ w[ks]
        out = run(TILE, "awq_gemm_kernel",
                  dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                       SPLIT_K=split),
                  (-(-m // 32) * -(-n // 32), split),
                  dict(a_ptr=a, b_ptr=q, c_ptr=np.zeros((split, m, n),
                                                        np.float16),
                       zeros_ptr=z, scales_ptr=s, M=m, N=n, K=k,
                       group_size=g), ["c_ptr"], 4, 3)["c_ptr"]
        label = f"awq_gemm_kernel M={m} N={n} K={k} group={g} SPLIT_K={split}"
        # fp16 accumulator (c_ptr's type): a rounding per 32-deep K block
        check(label + " partials", out, ref, FP16_TOL)
        check(label + " sum", f64(out).sum(0), ref.sum(0), FP16_TOL)


# ====================================================== 3. vLLM prefix prefill
@guarded
def vllm_prefix_prefill():
    H, HKV, bs, x = 4, 2, 16, 8  # GQA 2; fp16 cache: x = 16 bytes / 2
    cases = [
        # (ctx lens, query lens, head size, sliding window)
        ((0, 37, 150), (20, 130, 5), 64, 0),
        ((37, 150, 3), (130, 5, 20), 80, 0),  # padded to 128
        ((100, 200), (60, 140), 64, 50),
    ]
    for ctx, ql, d, window in cases:
        dp = 1 << (d - 1).bit_length()
        B = len(ctx)
        seq = [c + q for c, q in zip(ctx, ql)]
        start = np.concatenate([[0], np.cumsum(ql)]).astype(np.int32)
        tot = int(start[-1])
        q = randn(tot, H, d)
        k, v = randn(tot, HKV, d), randn(tot, HKV, d)
        # the context's K/V in cache blocks, in a shuffled block order
        maxb = max(-(-c // bs) for c in ctx) + 1
        nblocks = B * maxb + 3
        order = rng.permutation(nblocks).astype(np.int32)
        b_loc = order[:B * maxb].reshape(B, maxb)
        k_cache = randn(nblocks, HKV, d // x, bs, x)
        v_cache = randn(nblocks, HKV, d, bs)
        ref = np.zeros((tot, H, d))
        for b in range(B):
            pos = np.arange(ctx[b])
            blk, off = b_loc[b, pos // bs], pos % bs
            kc = f64(k_cache)[blk, :, :, off, :].reshape(ctx[b], HKV, d)
            vc = f64(v_cache)[blk, :, :, off]  # [ctx, HKV, d]
            ks = np.concatenate([kc, f64(k)[start[b]:start[b + 1]]])
            vs = np.concatenate([vc, f64(v)[start[b]:start[b + 1]]])
            qpos = ctx[b] + np.arange(ql[b])[:, None]
            kpos = np.arange(seq[b])[None, :]
            ok = kpos <= qpos
            if window:
                ok &= qpos - kpos < window
            for h in range(H):
                s = f64(q)[start[b]:start[b + 1], h] @ \
                    ks[:, h // (H // HKV)].T / math.sqrt(d)
                s = np.where(ok, s, -np.inf)
                p = np.exp(s - s.max(1, keepdims=True))
                ref[start[b]:start[b + 1], h] = (p / p.sum(1, keepdims=True)
                                                 ) @ vs[:, h // (H // HKV)]
        args = dict(Q=q, K=k, V=v, K_cache=k_cache, V_cache=v_cache,
                    B_Loc=b_loc, sm_scale=1.0 / math.sqrt(d),
                    k_scale=np.ones(1, np.float32),
                    v_scale=np.ones(1, np.float32), B_Start_Loc=start[:-1],
                    B_Seqlen=np.array(seq, np.int32),
                    B_Ctxlen=np.array(ctx, np.int32), block_size=bs, x=x,
                    Out=nan(tot, H, d, dtype=np.float16),
                    stride_b_loc_b=maxb, stride_b_loc_s=1,
                    stride_qbs=H * d, stride_qh=d, stride_qd=1,
                    stride_kbs=HKV * d, stride_kh=d, stride_kd=1,
                    stride_vbs=HKV * d, stride_vh=d, stride_vd=1,
                    stride_obs=H * d, stride_oh=d, stride_od=1,
                    stride_k_cache_bs=HKV * d * bs, stride_k_cache_h=d * bs,
                    stride_k_cache_d=bs * x, stride_k_cache_bl=x,
                    stride_k_cache_x=1,
                    stride_v_cache_bs=HKV * d * bs, stride_v_cache_h=d * bs,
                    stride_v_cache_d=bs, stride_v_cache_bl=1,
                    num_queries_per_kv=H // HKV)
        defs = dict(IN_PRECISION=None, BLOCK_M=128, BLOCK_DMODEL=d,
                    BLOCK_DMODEL_PADDED=dp, BLOCK_N=128,
                    SLIDING_WINDOW=window)
        out = run(TILE, "_fwd_kernel", defs, (B, H, -(-max(ql) // 128)),
                  args, ["Out"], 8, 1)["Out"]
        check(f"vllm prefix_prefill _fwd_kernel ctx={ctx} q={ql} d={d} "
              f"window={window}", out, ref, FP16_TOL)


# ============================================ 4. flash-linear-attention chunk o
def chunk_o_reference(q, k, v, h, g, gamma, scale, bt, seqs, hv):
    """o of each chunk: scale * (gate(q @ h) + (causal gated q k^T) @ v),
    with the kernel's fp16 rounding of the intra-chunk scores before @ v.
    `seqs` lists (bos, length, first chunk index); g is log2-space."""
    hq = q.shape[2]
    o = np.zeros(v.shape)
    for bos, n, c0 in seqs:
        for t in range(-(-n // bt)):
            r = slice(bos + t * bt, bos + min(n, (t + 1) * bt))
            m = r.stop - r.start
            for i_h in range(hv):
                qh, kh = f64(q[0, r, i_h // (hv // hq)]), \
                    f64(k[0, r, i_h // (hv // hq)])
                st = f64(h[0, c0 + t, i_h])
                bo, ba = qh @ st, qh @ kh.T
                if g is not None:
                    gg = f64(g[0, r, i_h])
                elif gamma is not None:
                    gg = f64(gamma[i_h]) * (np.arange(m) + 1)
                else:
                    gg = np.zeros(m)
                bo = bo * np.exp2(gg)[:, None]
                ba = ba * np.exp2(gg[:, None] - gg[None, :])
                ba = np.tril(ba).astype(np.float16).astype(np.float64)
                o[0, r, i_h] = scale * (bo + ba @ f64(v[0, r, i_h]))
    return o


@guarded
def fla_chunk_o():
    bt = 64
    cases = [
        # (B, T or varlen lengths, H, HV, K, V, gate, STATE_V_FIRST)
        (2, 100, 2, 2, 64, 64, "g_gamma", False),
        (1, (37, 100, 5), 2, 4, 80, 96, "g", False),  # varlen, GQA
        (2, 70, 2, 2, 128, 64, "none", True),
    ]
    for B, T, H, HV, K, V, gate, vfirst in cases:
        varlen = isinstance(T, tuple)
        lens = T if varlen else (T,) * B
        tot = sum(lens)
        seqs, c0, bos = [], 0, 0
        for n in lens:
            seqs.append((bos, n, c0))
            bos, c0 = bos + n, c0 + -(-n // bt)
        nt = c0  # chunks over all sequences
        # as one batch of the concatenated sequences (the varlen layout); for
        # fixed lengths the kernel's b * T offsets give the same rows
        q, k = randn(1, tot, H, K, scale=0.3), randn(1, tot, H, K, scale=0.3)
        v = randn(1, tot, HV, V)
        h = randn(1, nt, HV, K, V, scale=0.3)
        g = (-np.cumsum(rng.random((1, tot, HV)) * 0.1, 1)).astype(
            np.float32) if gate == "g" else None
        gamma = (-rng.random(HV) * 0.1).astype(np.float32) \
            if gate == "g_gamma" else None
        ref = chunk_o_reference(q, k, v, h, g, gamma, K ** -0.5, bt, seqs, HV)
        hk = np.ascontiguousarray(h.transpose(0, 1, 2, 4, 3)) if vfirst else h
        cu = np.array([0] + list(np.cumsum(lens)), np.int64)
        ci = np.array([(i, t) for i, n in enumerate(lens)
                       for t in range(-(-n // bt))], np.int64).reshape(-1)
        # None as FLA's launcher passes it: the kernel's @triton.heuristics
        # set USE_G, USE_G_GAMMA and IS_VARLEN from these pointers.
        args = dict(q=q, k=k, v=v, h=hk, g=g, g_gamma=gamma,
                    o=nan(1, tot, HV, V, dtype=np.float16),
                    cu_seqlens=cu if varlen else None,
                    chunk_indices=ci if varlen else None, scale=K ** -0.5,
                    T=tot if varlen else T)
        for bk, warps in ((128, 8), (64, 4), (32, 2)):
            defs = dict(H=H, HV=HV, K=K, V=V, BT=bt, BK=bk, BV=bk,
                        STATE_V_FIRST=vfirst)
            grid = (-(-V // bk), nt if varlen else -(-T // bt),
                    (1 if varlen else B) * HV)
            out = run(TILE, "chunk_fwd_kernel_o", defs, grid, args, ["o"],
                      warps, 3)["o"]
            check(f"fla chunk_fwd_kernel_o BK=BV={bk} B={B} T={T} H={H} "
                  f"HV={HV} K={K} V={V} gate={gate} STATE_V_FIRST={vfirst}",
                  out, ref, FP16_TOL)


# ----------------------------------------------------------- GPU compile
_sig, _ptrs = pg._sig, pg._ptrs
_I16, _I, _I1 = "i32:16", "i32", "i32:1"
SIG_AQ = _sig(x_ptr="*bf16:16", y_ptr="*fp8e4nv:16", s_ptr="*fp32:16")
# DeepSeek-V3 671B: weights 7168 x 18432 (the dense MLP's w2), prefill M
SIG_WD = _sig(x_ptr="*fp8e4nv:16", s_ptr="*fp32:16", y_ptr="*bf16:16",
              M=_I16, N=_I16)
SIG_FP8 = _sig(a_ptr="*fp8e4nv:16", b_ptr="*fp8e4nv:16", c_ptr="*bf16:16",
               a_s_ptr="*fp32:16", b_s_ptr="*fp32:16", M=_I16)
# AWQ Llama-2-7B 4-bit, group 128: K = N = 4096 (qweight 4096 x 512)
SIG_AWQ_DQ = _sig(qweight_ptr="*i32:16", scales_ptr="*fp16:16",
                  zeros_ptr="*i32:16", group_size=_I16,
                  result_ptr="*fp16:16", num_cols=_I16, num_rows=_I16)
SIG_AWQ_GEMM = _sig(a_ptr="*fp16:16", b_ptr="*i32:16", c_ptr="*fp16:16",
                    zeros_ptr="*i32:16", scales_ptr="*fp16:16", M=_I16,
                    N=_I16, K=_I16, group_size=_I16)
# prefix prefill, Llama-3-8B (32 heads of 128, 8 KV heads), fp16 cache with
# block_size 16 (x = 8), q/k/v/o [tokens, heads, 128] contiguous
SIG_PP = _sig(**_ptrs("Q K V K_cache V_cache Out", "*fp16:16"),
              **_ptrs("B_Loc B_Start_Loc B_Seqlen B_Ctxlen", "*i32:16"),
              **_ptrs("k_scale v_scale"), sm_scale="fp32", block_size=_I16,
              x=_I, stride_b_loc_b=_I16, stride_b_loc_s=_I1,
              stride_qbs=_I16, stride_qh=_I16, stride_qd=_I1,
              stride_kbs=_I16, stride_kh=_I16, stride_kd=_I1,
              stride_vbs=_I16, stride_vh=_I16, stride_vd=_I1,
              stride_obs=_I16, stride_oh=_I16, stride_od=_I1,
              stride_k_cache_bs=_I16, stride_k_cache_h=_I16,
              stride_k_cache_d=_I16, stride_k_cache_bl=_I,
              stride_k_cache_x=_I1, stride_v_cache_bs=_I16,
              stride_v_cache_h=_I16, stride_v_cache_d=_I16,
              stride_v_cache_bl=_I1, num_queries_per_kv=_I)
# chunk o for simple GLA at H = HV = 16, K = V = 128, chunk 64 (T is in
# do_not_specialize: no fact)
SIG_FLA = _sig(**_ptrs("q k v h o", "*fp16:16"), **_ptrs("g g_gamma"),
               **_ptrs("cu_seqlens chunk_indices", "*i64:16"), scale="fp32",
               T=_I)

_PP = ("IN_PRECISION=None BLOCK_M=128 BLOCK_N=128 BLOCK_DMODEL=128 "
       "BLOCK_DMODEL_PADDED=128 SLIDING_WINDOW=0")
_FLA = ("H=16 HV=16 K=128 V=128 BT=64 USE_G=True USE_G_GAMMA=False "
        "STATE_V_FIRST=False IS_VARLEN=False ")
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature);
    # unset num_warps / num_stages are Triton's defaults, 4 and 3
    ("deepseek act_quant (128)", TILE, "act_quant_kernel",
     "BLOCK_SIZE=128 scale_fmt=None", 4, 3, SIG_AQ),
    ("deepseek act_quant (128, ue8m0)", TILE, "act_quant_kernel",
     'BLOCK_SIZE=128 scale_fmt="ue8m0"', 4, 3, SIG_AQ),
    ("deepseek weight_dequant (128)", TILE, "weight_dequant_kernel",
     "BLOCK_SIZE=128", 4, 3, SIG_WD),
    ("deepseek fp8_gemm 16x32x128 s3", TILE, "fp8_gemm_kernel",
     "N=7168 K=18432 BLOCK_SIZE_M=16 BLOCK_SIZE_N=32 BLOCK_SIZE_K=128", 8, 3,
     SIG_FP8),
    ("deepseek fp8_gemm 64x128x128 s4", TILE, "fp8_gemm_kernel",
     "N=7168 K=18432 BLOCK_SIZE_M=64 BLOCK_SIZE_N=128 BLOCK_SIZE_K=128", 8,
     4, SIG_FP8),
    ("awq dequantize 32x32", TILE, "awq_dequantize_kernel",
     "BLOCK_SIZE_X=32 BLOCK_SIZE_Y=32", 4, 3, SIG_AWQ_DQ),
    ("awq gemm 32x32x32 split 8", TILE, "awq_gemm_kernel",
     "BLOCK_SIZE_M=32 BLOCK_SIZE_N=32 BLOCK_SIZE_K=32 SPLIT_K=8", 4, 3,
     SIG_AWQ_GEMM),
    ("vllm prefix_prefill d=128", TILE, "_fwd_kernel", _PP, 8, 1, SIG_PP),
    ("fla chunk_fwd_kernel_o g 128x128", TILE, "chunk_fwd_kernel_o",
     _FLA + "BK=128 BV=128", 8, 3, SIG_FLA),
    ("fla chunk_fwd_kernel_o g 64x64", TILE, "chunk_fwd_kernel_o",
     _FLA + "BK=64 BV=64", 4, 3, SIG_FLA),
]


CPU_TESTS = (deepseek_act_quant, deepseek_weight_dequant, deepseek_fp8_gemm,
             awq_dequantize, awq_gemm, vllm_prefix_prefill, fla_chunk_o)

if __name__ == "__main__":
    pg.main(CPU_TESTS, GPU_BUILDS)
