#!/usr/bin/python3
"""Generality probe: Unsloth's Triton kernels (cross entropy forward,
chunked forward and backward with softcapping / logit scaling, RMS
layernorm forward / backward and Gemma's, layernorm, RoPE grouped and Q/K
with position indices, SwiGLU and GeGLU exact / approx forward and
backward) and four torchao sources (scaled int8 GEMM, blockwise fp8
act_quant and GEMM, tensorwise fp8 amax / scale / cast), as published in
bench/kernels/probe_unsloth.tile, run in tilec's CPU mode at small odd
sizes (not multiples of the blocks where the kernels mask) against float64
NumPy references written from the kernels' math, then compiled for sm_90a
at the launchers' settings, as written and with the facts Triton's JIT
would specialize on (--signature), with ptxas register / spill counts.

    /usr/bin/python3 bench/probe_unsloth_cpu.py [--no-gpu-compile] [--only NAME]

The harness (run, check, guarded) is bench/probe_serving_cpu.py's, the GPU
table bench/probe_generality_cpu.py's, the bf16 / fp8 bits helpers
bench/probe_generality2_cpu.py's (bf16 buffers travel as uint16 bits, fp8
e4m3 as uint8 bits).

Result (this tilec build): every kernel (16 of Unsloth, 6 of torchao)
compiles after the two PORT EDITs left in the .tile header (utils.py's
module-level `if`, torchao's kernels nested in host builders; the
post-body triton.jit / triton.heuristics wrapping, rebound globals,
triton.Config(dict(...)) and unread host globals are now as published);
175/175 CPU checks pass. (The first run had 174: a 65536-lane chunk of
_chunked_cross_entropy_forward with softcapping was 1.8e-4 off float64
because the CPU mode added tl.sum's lanes in order; it now adds a float
sum as a tree of pairs, as the GPU does. The masked lanes' exp(-SOFTCAP -
c) is the published kernels' own math.)

GPU builds (sm_90a, launch settings above): no build refused. Spills:
the chunked cross entropy's 65536-column row on 32 warps (64 registers a
thread at 1024 threads) 288/288 bytes as written, 116/112 with the JIT
facts; scaled_int8_mm's 256x128x128 config on 8 warps 508/508 and 260/260
at 255 registers. int8 dots: with B (K, N) row-major the JIT-facts build
of the first config (128x256x64) runs mma.sync's s8 form (64 IMMA in
SASS, 231 registers); with B column-major, as int8_mixed_precision.py
passes it (`B_t_i8.contiguous().T`), wgmma's (IGMMA.64x256x32, 248
registers, no spills). blockwise_fp8_gemm's first config (16x32) runs
mma.sync (HMMA=8), 128x128x128 wgmma's fp8 form (QGMMA).
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)
import probe_generality_cpu as pg  # noqa: E402  (the same GPU table)
import probe_generality2_cpu as pg2  # noqa: E402  (bf16 / fp8 bits)

TILE = os.path.join(HERE, "kernels", "probe_unsloth.tile")
check, guarded, run = ps.check, ps.guarded, pg.run
FP16_TOL, FP32_TOL, BF16_TOL = ps.FP16_TOL, pg.FP32_TOL, pg2.BF16_TOL
bf16_bits, bf16_value = pg2.bf16_bits, pg2.bf16_value
fp8_bits, fp8_value = pg2.fp8_bits, pg2.fp8_value

randn = ps.seeded_randn(2041)
rng = np.random.default_rng(2041)
nan, f64, cdiv = ps.nan, ps.f64, ps.cdiv


def nan_bf16(*shape):
    return np.full(shape, 0x7FC0, np.uint16)  # bf16 NaN bits


def next_pow2(n):
    return 1 << (n - 1).bit_length()


def calculate_settings(n):
    """unsloth/kernels/utils.py: BLOCK_SIZE = next_power_of_2(n), warps."""
    block = next_pow2(n)
    warps = 32 if block >= 32768 else 16 if block >= 8192 else \
        8 if block >= 2048 else 4
    return block, warps


def rbf16(x):
    """Round float64 to bf16 (the kernel's .to(bf16) / bf16 arithmetic)."""
    return bf16_value(bf16_bits(np.asarray(x, np.float64)))


def rf16(x):
    return np.asarray(x, np.float64).astype(np.float16).astype(np.float64)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


erf = np.vectorize(math.erf)


# ====================================================== 1. cross entropy
def ce_transform(x, softcap, scale):
    """The kernels' logit scaling (Cohere) then softcapping (Gemma 2)."""
    if scale:
        x = scale * x
    if softcap:
        x = softcap * np.tanh(x / softcap)
    return x


def ce_flags(softcap, scale):
    return dict(DO_SOFTCAPPING=bool(softcap), SOFTCAP=float(softcap),
                DO_LOGIT_SCALING=bool(scale), LOGIT_SCALE=float(scale))


CE_MODES = ((0, 0), (30.0, 0), (0, 0.0625), (8.0, 0.5))


def ce_lse(x, block, softcap):
    """logsumexp of a row's BLOCK lanes as the kernel computes it: the
    masked lanes load -inf, which softcapping turns into -SOFTCAP
    (SOFTCAP * tanh(-inf)), so they add exp(-SOFTCAP - c) each (the
    published kernels' math; negligible at Gemma 2's SOFTCAP = 30)."""
    pad = block - x.shape[1]
    if softcap and pad:
        x = np.concatenate([x, np.full((x.shape[0], pad), -softcap)], 1)
    c = x.max(1)
    return np.log(np.exp(x - c[:, None]).sum(1)) + c


def ce_labels(R, V):
    labels = rng.integers(0, V, R).astype(np.int64)
    labels[1] = -100  # padding
    labels[-1] = V - 1  # the last column (the last, partial block)
    return labels


@guarded
def cross_entropy_forward():
    """loss = logsumexp(x) - x[label] (0 where label == -100), x the bf16
    logits after scaling / softcapping; one program per row over
    BLOCK_SIZE = next_power_of_2(V) (calculate_settings' warps). One case
    with a padded row stride."""
    R = 7
    for V, pad in ((1000, 0), (3001, 0), (1000, 24)):
        block, warps = calculate_settings(V)
        labels = ce_labels(R, V)
        raw = rng.standard_normal((R, V + pad)) * 4.0
        logits = bf16_bits(raw)
        for softcap, scale in CE_MODES:
            x = ce_transform(bf16_value(logits)[:, :V], softcap, scale)
            lse = ce_lse(x, block, softcap)
            loss = np.where(labels == -100, 0.0,
                            lse - x[np.arange(R), np.maximum(labels, 0)])
            res = run(TILE, "_cross_entropy_forward",
                      dict(VOCAB_SIZE=V, BLOCK_SIZE=block,
                           **ce_flags(softcap, scale)), (R,),
                      dict(logits_ptr=logits, logits_row_stride=V + pad,
                           loss_ptr=nan(R), logsumexp_ptr=nan(R),
                           labels_ptr=labels),
                      ["loss_ptr", "logsumexp_ptr"], warps, 3)
            label = (f"_cross_entropy_forward V={V} stride={V + pad} "
                     f"BLOCK={block} softcap={softcap} scale={scale}")
            check(label + " logsumexp", res["logsumexp_ptr"], lse, FP32_TOL)
            check(label + " loss", res["loss_ptr"], loss, FP32_TOL)


@guarded
def chunked_cross_entropy_forward():
    """Vocabularies over MAX_FUSED_SIZE = 65536: grid (rows, chunks), each
    program the logsumexp of its chunk, chunk 0 also loss = -x[label]; the
    launcher then takes logsumexp over the chunks and adds it. As launched
    (BLOCK_SIZE = 65536, 32 warps), then with BLOCK_SIZE = 512 over 1500
    columns (the same code at a small block)."""
    R = 3
    for V, block, warps in ((2 * 65536 + 1001, 65536, 32), (1500, 512, 4)):
        nch = cdiv(V, block)
        labels = ce_labels(R, V)
        logits = bf16_bits(rng.standard_normal((R, V)) * 4.0)
        for softcap, scale in (CE_MODES[0], CE_MODES[3]):
            x = ce_transform(bf16_value(logits), softcap, scale)
            lse_chunks = np.stack([
                ce_lse(c, block, softcap)
                for c in np.array_split(x, range(block, V, block), axis=1)],
                1)
            xl = x[np.arange(R), np.maximum(labels, 0)]
            res = run(TILE, "_chunked_cross_entropy_forward",
                      dict(logits_row_stride=V, VOCAB_SIZE=V, N_CHUNKS=nch,
                           BLOCK_SIZE=block, **ce_flags(softcap, scale)),
                      (R, nch),
                      dict(logits_ptr=logits, loss_ptr=nan(R),
                           logsumexp_ptr=nan(R, nch), labels_ptr=labels),
                      ["loss_ptr", "logsumexp_ptr"], warps, 3,
                      export=V < 10000)
            label = (f"_chunked_cross_entropy_forward V={V} BLOCK={block} "
                     f"chunks={nch} softcap={softcap} scale={scale}")
            check(label + " chunk logsumexp", res["logsumexp_ptr"],
                  lse_chunks, FP32_TOL)
            check(label + " loss (-x[label])", res["loss_ptr"],
                  np.where(labels == -100, 0.0, -xl), FP32_TOL)
            # the launcher's finish: logsumexp over chunks, masked_fill
            lse = np.log(np.exp(f64(res["logsumexp_ptr"])).sum(1))
            full = np.where(labels == -100, 0.0, res["loss_ptr"] + lse)
            ref_lse = np.log(np.exp(lse_chunks).sum(1))
            check(label + " loss after the host's logsumexp", full,
                  np.where(labels == -100, 0.0, ref_lse - xl), FP32_TOL)


@guarded
def cross_entropy_backward():
    """dlogits = dloss * (softmax(x) - onehot(label)) (times the scaling and
    1 - tanh^2 of softcapping), written over the bf16 logits in place; 0
    where label == -100. BLOCK_SIZE = 4096, 8 warps, grid (rows, blocks)."""
    R = 5
    for V in (1000, 5000):
        labels = ce_labels(R, V)
        raw = bf16_bits(rng.standard_normal((R, V)) * 4.0)
        dloss = randn(R, dtype=np.float32)
        for softcap, scale in CE_MODES:
            xs = bf16_value(raw) * (scale if scale else 1.0)
            partial = np.tanh(xs / softcap) if softcap else xs
            x = softcap * partial if softcap else xs
            lse = (np.log(np.exp(x - x.max(1, keepdims=True)).sum(1))
                   + x.max(1)).astype(np.float32)
            y = np.exp(x - f64(lse)[:, None])
            y[np.arange(R), labels] -= 1.0  # labels -100: dloss is 0 there
            if scale:
                y = y * scale
            if softcap:
                y = y * (1.0 - partial * partial)
            ref = np.where((labels == -100)[:, None], 0.0,
                           f64(dloss)[:, None] * y)
            out = run(TILE, "_cross_entropy_backward",
                      dict(logits_row_stride=V, dloss_row_stride=1,
                           VOCAB_SIZE=V, BLOCK_SIZE=4096,
                           **ce_flags(softcap, scale)), (R, cdiv(V, 4096)),
                      dict(logits_ptr=raw.copy(), dloss_ptr=dloss,
                           logsumexp_ptr=lse, labels_ptr=labels),
                      ["logits_ptr"], 8, 3)["logits_ptr"]
            check(f"_cross_entropy_backward V={V} softcap={softcap} "
                  f"scale={scale} (bf16, in place)", bf16_value(out), ref,
                  BF16_TOL)


# ====================================================== 2. RMS layernorm
@guarded
def rms_layernorm():
    """Forward (fp16): r = rsqrt(mean(x^2) + eps), Y = fp16(fp16(x * r) *
    W); backward: dX = r / n * (n * dY W - normed * sum(dY W normed)),
    GEMMA: W + 1 and dX into its own buffer, else dX = dY (the launcher
    passes dY for both; here dX is a NaN buffer that must stay NaN).
    n_cols not a power of 2; one case with padded rows (X stride)."""
    R = 9
    for n, pad in ((1000, 0), (3000, 0), (1000, 40)):
        block, warps = calculate_settings(n)
        eps = 1e-6
        xbuf = randn(R, n + pad) * 2.0
        x = f64(xbuf[:, :n])
        w = randn(n)
        inv = 1.0 / np.sqrt((x * x).mean(1) + eps)
        normed = x * inv[:, None]
        defs = dict(Y_row_stride=n, X_row_stride=n + pad, W_row_stride=1,
                    r_row_stride=1, n_cols=n, eps=eps, BLOCK_SIZE=block)
        res = run(TILE, "_rms_layernorm_forward", defs, (R,),
                  dict(Y=nan(R, n, dtype=np.float16), X=xbuf, W=w, r=nan(R)),
                  ["Y", "r"], warps, 3)
        label = f"_rms_layernorm_forward n={n} X stride={n + pad} BLOCK={block}"
        check(label + " r", res["r"], inv, FP32_TOL)
        check(label + " Y (fp16)", res["Y"], rf16(rf16(normed) * f64(w)),
              FP16_TOL)
        # backward, with the forward's r (fp32)
        dy = randn(R, n + pad)  # dY strides as X's: the launcher's
        r32 = inv.astype(np.float32)
        for gemma in (False, True):
            normed32 = x * f64(r32)[:, None]
            dyw = f64(dy[:, :n]) * (f64(w) + 1.0 if gemma else f64(w))
            ref = f64(r32)[:, None] / n * (
                n * dyw - normed32 * (dyw * normed32).sum(1, keepdims=True))
            bdefs = dict(dY_row_stride=n + pad, dX_row_stride=n + pad,
                         X_row_stride=n + pad, W_row_stride=1,
                         r_row_stride=1, n_cols=n, eps=eps, GEMMA=gemma,
                         BLOCK_SIZE=block)
            res = run(TILE, "_rms_layernorm_backward", bdefs, (R,),
                      dict(dY=dy.copy(), dX=nan(R, n + pad, dtype=np.float16),
                           X=xbuf, W=w, r=r32), ["dY", "dX"], warps, 3)
            blabel = f"_rms_layernorm_backward GEMMA={gemma} n={n} " \
                     f"stride={n + pad}"
            if gemma:
                check(blabel + " dX (fp16)", res["dX"][:, :n], ref, FP16_TOL)
                check(blabel + " dY unchanged", res["dY"], dy, 0.0)
            else:
                check(blabel + " dX = dY in place (fp16)", res["dY"][:, :n],
                      ref, FP16_TOL)
                check(blabel + " dX buffer untouched",
                      float(np.isnan(res["dX"]).all()), 1.0, 0.0)
        # Gemma forward (bf16, all in fp32): Y = x * r * (W + 1)
        xb = bf16_bits(x * 1.5)
        wb = bf16_bits(rng.standard_normal(n) * 0.3)
        xbd = bf16_value(xb)
        invb = 1.0 / np.sqrt((xbd * xbd).mean(1) + eps)
        res = run(TILE, "_gemma_rms_layernorm_forward",
                  dict(defs, X_row_stride=n), (R,),
                  dict(Y=nan_bf16(R, n), X=xb, W=wb, r=nan(R)), ["Y", "r"],
                  warps, 3)
        glabel = f"_gemma_rms_layernorm_forward n={n} BLOCK={block}"
        check(glabel + " r", res["r"], invb, FP32_TOL)
        check(glabel + " Y (bf16)", bf16_value(res["Y"]),
              xbd * invb[:, None] * (bf16_value(wb) + 1.0), BF16_TOL)


# ====================================================== 3. layernorm
@guarded
def layernorm():
    """fp16 layernorm: mu, r = rsqrt(var + eps), Y = (x - mu) r W + b; the
    backward writes dX = r (dY W - mean(dY W) - normed mean(dY W normed))
    over dY."""
    R = 9
    for n, pad in ((1000, 0), (2900, 0), (700, 17)):
        block, warps = calculate_settings(n)
        eps = 1e-5
        xbuf = randn(R, n + pad) * 1.5 + 0.3
        x = f64(xbuf[:, :n])
        w, b = randn(n), randn(n)
        mu = x.mean(1)
        inv = 1.0 / np.sqrt(((x - mu[:, None]) ** 2).mean(1) + eps)
        normed = (x - mu[:, None]) * inv[:, None]
        res = run(TILE, "layernorm_forward",
                  dict(n_cols=n, eps=eps, BLOCK_SIZE=block), (R,),
                  dict(Y=nan(R, n, dtype=np.float16), Y_row_stride=n, X=xbuf,
                       X_row_stride=n + pad, W=w, b=b, r=nan(R), mu=nan(R)),
                  ["Y", "r", "mu"], warps, 3)
        label = f"layernorm_forward n={n} X stride={n + pad} BLOCK={block}"
        check(label + " mu", res["mu"], mu, FP32_TOL)
        check(label + " r", res["r"], inv, FP32_TOL)
        check(label + " Y (fp16)", res["Y"], normed * f64(w) + f64(b),
              FP16_TOL)
        dy = randn(R, n + pad)
        r32, mu32 = inv.astype(np.float32), mu.astype(np.float32)
        normed32 = (x - f64(mu32)[:, None]) * f64(r32)[:, None]
        dyw = f64(dy[:, :n]) * f64(w)
        ref = (dyw - dyw.mean(1, keepdims=True) - normed32 * (
            dyw * normed32).mean(1, keepdims=True)) * f64(r32)[:, None]
        out = run(TILE, "layernorm_backward",
                  dict(n_cols=n, eps=eps, BLOCK_SIZE=block), (R,),
                  dict(dY=dy.copy(), dY_row_stride=n + pad, X=xbuf,
                       X_row_stride=n + pad, W=w, b=b, r=r32, mu=mu32),
                  ["dY"], warps, 3)["dY"]
        label = f"layernorm_backward n={n} stride={n + pad} BLOCK={block}"
        check(label + " dX over dY (fp16)", out[:, :n], ref, FP16_TOL)
        if pad:
            check(label + " padding of dY untouched", out[:, n:], dy[:, n:],
                  0.0)


# ====================================================== 4. RoPE
def rope_ref(q, cos, sin, backward):
    """q (..., D): [q1 c - q2 s, q2 c + q1 s] with the halves' cos / sin
    (columns 0..D/2 of the tables); sin negated for the backward."""
    h = q.shape[-1] // 2
    s = -sin if backward else sin
    q1, q2 = q[..., :h], q[..., h:]
    return np.concatenate([q1 * cos - q2 * s, q2 * cos + q1 * s], -1)


@guarded
def rope_embedding():
    """The grouped kernel: Q (batch * seq, heads * D) bf16 in place, cos /
    sin fp32 tables (Gemma's float32 RoPE: Q is computed in sin's dtype),
    grid (rows, cdiv(heads, 4)), each program a loop over its group's
    heads (min(head_start + 4, n_heads)); heads not a multiple of 4."""
    batch, seq, smax = 2, 11, 16
    for heads, D in ((6, 80), (5, 128)):
        block, warps = calculate_settings(D // 2)
        q = bf16_bits(rng.standard_normal((batch * seq, heads * D)))
        ang = rng.uniform(0, 6.3, (smax, D // 2))
        cos = np.concatenate([np.cos(ang)] * 2, 1).astype(np.float32)
        sin = np.concatenate([np.sin(ang)] * 2, 1).astype(np.float32)
        pos = np.arange(batch * seq) % seq
        for backward in (False, True):
            out = run(TILE, "_rope_embedding",
                      dict(Q_row_stride=heads * D, cos_row_stride=D,
                           sin_row_stride=D, head_dim=D, n_heads=heads,
                           BACKWARD_PASS=backward, BLOCK_SIZE=block),
                      (batch * seq, cdiv(heads, 4)),
                      dict(Q=q.copy(), cos=cos, sin=sin, seqlen=seq), ["Q"],
                      warps, 3)["Q"]
            qd = bf16_value(q).reshape(batch * seq, heads, D)
            ref = rope_ref(qd, f64(cos)[pos, None, :D // 2],
                           f64(sin)[pos, None, :D // 2], backward)
            check(f"_rope_embedding heads={heads} D={D} BLOCK={block} "
                  f"backward={backward} (bf16 in place)",
                  bf16_value(out).reshape(ref.shape), ref, BF16_TOL)


@guarded
def rope_embedding_qk():
    """Q (batch, Hq, seq, D) and K (batch, Hk, seq, D) fp16 in place, grid
    (batch * seq, Hq), K rotated by programs with head < Hk; rows of the
    fp16 cos / sin tables from rope_embedding_indices (int32) or row %
    seqlen. BLOCK_SIZE = next_power_of_2(D), the mask D / 2."""
    batch, seq, smax = 2, 7, 20
    for hq, hk, D in ((6, 2, 72), (4, 4, 128)):
        block, warps = calculate_settings(D)
        q = randn(batch, hq, seq, D)
        k = randn(batch, hk, seq, D)
        cos = np.cos(rng.uniform(0, 6.3, (smax, D))).astype(np.float16)
        sin = np.sin(rng.uniform(0, 6.3, (smax, D))).astype(np.float16)
        for has_idx in (False, True):
            idx = rng.integers(0, smax, batch * seq).astype(np.int32) \
                if has_idx else np.zeros(1, np.int32)
            pos = (idx if has_idx else np.arange(batch * seq) % seq)
            pos = pos.reshape(batch, seq)
            for backward in (False, True):
                res = run(TILE, "_rope_embedding_QK",
                          dict(head_dim=D, n_heads_K=hk,
                               BACKWARD_PASS=backward,
                               HAS_ROPE_INDICES=has_idx, BLOCK_SIZE=block),
                          (batch * seq, hq),
                          dict(Q=q.copy(), Q_batch_stride=hq * seq * D,
                               Q_head_stride=seq * D, Q_seq_stride=D,
                               K=k.copy(), K_batch_stride=hk * seq * D,
                               K_head_stride=seq * D, K_seq_stride=D,
                               cos=cos, cos_row_stride=D, sin=sin,
                               sin_row_stride=D, rope_embedding_indices=idx,
                               seqlen=seq), ["Q", "K"], warps, 3)
                c = f64(cos)[pos][:, None, :, :D // 2]
                s = f64(sin)[pos][:, None, :, :D // 2]
                label = (f"_rope_embedding_QK Hq={hq} Hk={hk} D={D} "
                         f"BLOCK={block} indices={has_idx} "
                         f"backward={backward}")
                check(label + " Q (fp16)", res["Q"],
                      rope_ref(f64(q), c, s, backward), FP16_TOL)
                check(label + " K (fp16)", res["K"],
                      rope_ref(f64(k), c, s, backward), FP16_TOL)


# ====================================================== 5. SwiGLU / GeGLU
N_ELEMS = (3 * 37 * 50, 1000)  # 5550: 6 blocks of 1024, the last partial


def gate_run(kernel, long_idx, args, dumps, n):
    return run(TILE, kernel, dict(BLOCK_SIZE=1024, LONG_INDEXING=long_idx),
               (cdiv(n, 1024),), dict(args, n_elements=n), dumps, 4, 3)


def gate_cases(kernel, dtype, forward, backward):
    """h = f(e) * g forward; backward DW -> h, e -> DW * f, g -> de, with
    the kernels' roundings to the buffers' dtype (rnd)."""
    rnd, tol = (rbf16, BF16_TOL) if dtype == "bf16" else (rf16, FP16_TOL)
    to_buf = bf16_bits if dtype == "bf16" else (lambda x: np.asarray(
        x).astype(np.float16))
    value = bf16_value if dtype == "bf16" else f64
    fwd_kernel, bwd_kernel = kernel
    for n in N_ELEMS:
        e = to_buf(rng.standard_normal(n) * 2.0)
        g = to_buf(rng.standard_normal(n))
        dw = to_buf(rng.standard_normal(n))
        ed, gd, dwd = value(e), value(g), value(dw)
        f, _ = forward(ed)
        h_ref = rnd(f) * gd
        for long_idx in (0, 1):
            h = gate_run(fwd_kernel, long_idx,
                         dict(e=e, g=g, h=to_buf(np.full(n, np.nan))),
                         ["h"], n)["h"]
            check(f"{fwd_kernel} n={n} LONG_INDEXING={long_idx} h "
                  f"({dtype})", value(h), h_ref, tol)
            f, dfde = backward(ed)
            fr = rnd(f)
            res = gate_run(bwd_kernel, long_idx,
                           dict(DW=dw.copy(), e=e.copy(), g=g.copy()),
                           ["DW", "e", "g"], n)
            label = f"{bwd_kernel} n={n} LONG_INDEXING={long_idx}"
            check(label + f" DW <- h ({dtype})", value(res["DW"]), fr * gd,
                  tol)
            check(label + f" e <- DW * f ({dtype})", value(res["e"]),
                  dwd * fr, tol)
            check(label + f" g <- de ({dtype})", value(res["g"]),
                  rnd(dwd * gd) * dfde, tol)


def swiglu_f(e):
    se = sigmoid(e)
    return e * se, se * (1.0 + e * (1.0 - se))


def geglu_exact_f(e):
    fp = 0.5 * (erf(e / math.sqrt(2.0)) + 1.0)
    return fp * e, fp + e * np.exp(-0.5 * e * e) / math.sqrt(2 * math.pi)


def geglu_approx_f(e):
    s = math.sqrt(2 / math.pi)
    a = s * e
    b = a * 0.044715 * e * e
    t = np.tanh(a + b)
    f = 0.5 * e * (1.0 + t)
    return f, 0.5 * (1.0 + t) + 0.5 * (1.0 - t * t) * (a + 3.0 * b)


@guarded
def swiglu():
    gate_cases(("_fg_kernel", "_DWf_DW_dfg_kernel"), "bf16", swiglu_f,
               swiglu_f)


@guarded
def geglu_exact():
    gate_cases(("_exact_forward_kernel", "_exact_backward_kernel"), "fp16",
               geglu_exact_f, geglu_exact_f)


@guarded
def geglu_approx():
    gate_cases(("_approx_forward_kernel", "_approx_backward_kernel"), "bf16",
               geglu_approx_f, geglu_approx_f)


# ====================================================== 6. torchao
@guarded
def scaled_int8_mm():
    """C = (A @ B) * row_scale[:, None] * col_scale (bf16), A, B int8, the
    int32 accumulator; EVEN_K from the heuristic (K % BLOCK_K); B
    row-major and column-major (the transposed weight); col_scale a vector
    or, COL_SCALE_SCALAR, one value."""
    M, N = 37, 70
    for K, (bm, bn, bk, s, w) in ((100, (64, 32, 32, 5, 2)),
                                   (256, (128, 256, 64, 3, 8)),
                                   (256, (32, 64, 32, 5, 8)),
                                   (200, (128, 64, 64, 4, 4))):
        a = rng.integers(-128, 128, (M, K)).astype(np.int8)
        b = rng.integers(-128, 128, (K, N)).astype(np.int8)
        rs = bf16_bits(rng.uniform(0.5, 2.0, M) / 1000)
        for b_major, scalar in (("row", False), ("col", True)):
            cs = bf16_bits(rng.uniform(0.5, 2.0, 1 if scalar else N) / 100)
            bbuf = b if b_major == "row" else np.ascontiguousarray(b.T)
            sbk, sbn = (N, 1) if b_major == "row" else (1, K)
            ref = (f64(a) @ f64(b)) * bf16_value(rs)[:, None] * \
                bf16_value(cs)[None, :]
            c = run(TILE, "_scaled_int8_mm_kernel",
                    dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                         COL_SCALE_SCALAR=scalar),
                    (cdiv(M, bm) * cdiv(N, bn),),
                    dict(A_ptr=a, B_ptr=bbuf, C_ptr=nan_bf16(M, N),
                         row_scale_ptr=rs, col_scale_ptr=cs, M=M, N=N, K=K,
                         stride_am=K, stride_ak=1, stride_bk=sbk,
                         stride_bn=sbn, stride_cm=N, stride_cn=1),
                    ["C_ptr"], w, s)["C_ptr"]
            check(f"_scaled_int8_mm_kernel {bm}x{bn}x{bk} M={M} N={N} K={K} "
                  f"EVEN_K={K % bk == 0} B {b_major}-major "
                  f"col_scale_scalar={scalar} (bf16)", bf16_value(c), ref,
                  BF16_TOL)


@guarded
def fp8_blockwise_act_quant():
    """s = max|x| / 448 per 128 elements, y = fp8e4m3(x / s); checked
    against fp8_rn of the fp32 quotient with the kernel's s, exactly."""
    rows, k = 37, 384
    x = bf16_bits(rng.standard_normal((rows, k)) * 3.0)
    xd = bf16_value(x)
    res = run(TILE, "_fp8_blockwise_act_quant_kernel_impl",
              dict(BLOCK_SIZE=128), (rows * k // 128,),
              dict(x_ptr=x, y_ptr=np.zeros((rows, k), np.uint8),
                   s_ptr=nan(rows, k // 128)), ["y_ptr", "s_ptr"], 4, 3)
    blocks = xd.reshape(-1, 128)
    s_ref = np.abs(blocks).max(1) / 448.0
    check("_fp8_blockwise_act_quant_kernel_impl 128 s", res["s_ptr"].ravel(),
          s_ref, FP32_TOL)
    s32 = res["s_ptr"].reshape(-1, 1).astype(np.float32)
    q32 = (blocks.astype(np.float32) / s32).astype(np.float64)
    y = fp8_value(res["y_ptr"]).reshape(-1, 128)
    check("_fp8_blockwise_act_quant_kernel_impl 128 y == fp8_rn(fp32(x / s))",
          y, fp8_value(fp8_bits(q32)), 0.0)


@guarded
def blockwise_fp8_gemm():
    """C = sum over 128-blocks of K of (A_k @ B_k^T) a_s[m, k] b_s[n / 128,
    k], A (M, K) and B (N, K) fp8 e4m3, C bf16; N and K constexprs; offs
    wrap (% M, % N) and the K tail masks."""
    M = 37
    for N, K in ((300, 384), (200, 320)):
        kb = cdiv(K, 128)
        a = pg2.fp8_bits(rng.standard_normal((M, K)) * 60.0)
        b = pg2.fp8_bits(rng.standard_normal((N, K)) * 60.0)
        a_s = rng.uniform(0.5, 2.0, (M, kb)).astype(np.float32) / 100
        b_s = rng.uniform(0.5, 2.0, (cdiv(N, 128), kb)).astype(np.float32) / 100
        ad, bd = fp8_value(a), fp8_value(b)
        ref = np.zeros((M, N))
        for i in range(kb):
            sl = slice(i * 128, min(K, (i + 1) * 128))
            ref += (ad[:, sl] @ bd[:, sl].T) * f64(a_s)[:, i:i + 1] * \
                f64(b_s)[np.arange(N) // 128, i][None, :]
        for bm, bn, st in ((16, 32, 3), (64, 128, 4), (128, 64, 6)):
            c = run(TILE, "blockwise_fp8_gemm_kernel",
                    dict(N=N, K=K, M_BUCKET=math.ceil(math.log2(M)),
                         BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=128),
                    (cdiv(M, bm), cdiv(N, bn)),
                    dict(a_ptr=a, b_ptr=b, c_ptr=nan_bf16(M, N), a_s_ptr=a_s,
                         b_s_ptr=b_s, M=M), ["c_ptr"], 8, st)["c_ptr"]
            check(f"blockwise_fp8_gemm_kernel {bm}x{bn}x128 M={M} N={N} K={K}"
                  " (bf16)", bf16_value(c), ref, BF16_TOL)


@guarded
def fp8_tensorwise():
    """The REDUCTION algorithm of hp_to_fp8_row_major: _amax_reduction
    (per-block max |x| of the bf16 input, masked loads without other),
    _scale_reduction (one program: fp64 max over the blocks, scale = fp32(
    448 / clamp(amax, EPS, inf))), then _to_fp8_row_major (y = fp8(clamp(
    x * scale, -448, 448)), autotuned BLOCK_SIZE)."""
    for n in (5000, 300):
        x = bf16_bits(rng.standard_normal(n) * 5.0)
        xd = bf16_value(x)
        block = next_pow2(min(4096, n))
        nb = cdiv(n, block)
        amax = run(TILE, "_amax_reduction",
                   dict(input_dtype="tl.bfloat16", BLOCK_SIZE=block,
                        EPS=1e-12), (nb,),
                   dict(input_ptr=x, block_amaxes_ptr=np.zeros(nb, np.float32),
                        num_elements=n), ["block_amaxes_ptr"], 8,
                   3)["block_amaxes_ptr"]
        ref_amax = np.array([np.abs(c).max() for c in
                             np.array_split(xd, range(block, n, block))])
        check(f"_amax_reduction n={n} BLOCK={block}", amax, ref_amax, 0.0)
        scale = run(TILE, "_scale_reduction",
                    dict(BLOCK_SIZE=block, EPS=1e-12), (1, 1, 1),
                    dict(block_amaxes_ptr=amax, scale_out_ptr=nan(1),
                         num_elements=n, fp8_dtype_max=448.0),
                    ["scale_out_ptr"], 4, 3)["scale_out_ptr"]
        check(f"_scale_reduction n={n} BLOCK={block} scale",
              scale, np.float32(448.0 / f64(amax).max()), 0.0)
        s32 = np.float32(scale[0])
        ref = fp8_value(fp8_bits(np.clip(
            (xd.astype(np.float32) * s32).astype(np.float64), -448, 448)))
        for blk, w in ((128, 1), (1024, 4), (4096, 8)):
            y = run(TILE, "_to_fp8_row_major",
                    dict(input_dtype="tl.bfloat16",
                         output_dtype="tl.float8e4nv", BLOCK_SIZE=blk,
                         EPS=1e-12), (cdiv(n, blk),),
                    dict(input_ptr=x, out_ptr=np.zeros(n, np.uint8),
                         scale_ptr=scale, num_elements=n,
                         fp8_dtype_min=-448.0, fp8_dtype_max=448.0),
                    ["out_ptr"], w, 3)["out_ptr"]
            check(f"_to_fp8_row_major n={n} BLOCK={blk} == fp8_rn(x * "
                  "scale)", fp8_value(y), ref, 0.0)


CPU_TESTS = (cross_entropy_forward, chunked_cross_entropy_forward,
             cross_entropy_backward, rms_layernorm, layernorm,
             rope_embedding, rope_embedding_qk, swiglu, geglu_exact,
             geglu_approx, scaled_int8_mm, fp8_blockwise_act_quant,
             blockwise_fp8_gemm, fp8_tensorwise)

# ----------------------------------------------------------- GPU compile
_sig, _ptrs = pg._sig, pg._ptrs
# int8 dots: mma.sync's s8 form is IMMA in SASS, wgmma's IGMMA
pg.SASS_OPS = pg.SASS_OPS + ("IMMA", "IGMMA")
_I16, _I1 = "i32:16", "i32:1"
# cross entropy: rows of a contiguous bf16 (rows, V) logits, V = 32000
# (Llama 2 / Mistral, one program per row) or 256000 (Gemma 2, 4 chunks)
SIG_CE = _sig(logits_ptr="*bf16:16", logits_row_stride=_I16,
              loss_ptr="*fp32:16", logsumexp_ptr="*fp32:16",
              labels_ptr="*i64:16")
SIG_CEC = _sig(logits_ptr="*bf16:16", loss_ptr="*fp32:16",
               logsumexp_ptr="*fp32:16", labels_ptr="*i64:16")
SIG_CEB = _sig(logits_ptr="*bf16:16", dloss_ptr="*fp32:16",
               logsumexp_ptr="*fp32:16", labels_ptr="*i64:16")
SIG_RMS = _sig(**_ptrs("Y X W", "*fp16:16"), r="*fp32:16")
SIG_RMSB = _sig(**_ptrs("dY dX X W", "*fp16:16"), r="*fp32:16")
SIG_GRMS = _sig(**_ptrs("Y X W", "*bf16:16"), r="*fp32:16")
SIG_LN = _sig(Y="*fp16:16", Y_row_stride=_I16, X="*fp16:16",
              X_row_stride=_I16, W="*fp16:16", b="*fp16:16", r="*fp32:16",
              mu="*fp32:16")
SIG_LNB = _sig(dY="*fp16:16", dY_row_stride=_I16, X="*fp16:16",
               X_row_stride=_I16, W="*fp16:16", b="*fp16:16", r="*fp32:16",
               mu="*fp32:16")
# RoPE: 32 heads of 128, seqlen 2048
SIG_ROPE = _sig(Q="*bf16:16", cos="*fp32:16", sin="*fp32:16", seqlen=_I16)
SIG_ROPEQK = _sig(Q="*fp16:16", Q_batch_stride=_I16, Q_head_stride=_I16,
                  Q_seq_stride=_I16, K="*fp16:16", K_batch_stride=_I16,
                  K_head_stride=_I16, K_seq_stride=_I16, cos="*fp16:16",
                  cos_row_stride=_I16, sin="*fp16:16", sin_row_stride=_I16,
                  rope_embedding_indices="*i32:16", seqlen=_I16)
SIG_GATE_B = _sig(**_ptrs("e g h", "*bf16:16"), n_elements=_I16)
SIG_GATE_BB = _sig(**_ptrs("DW e g", "*bf16:16"), n_elements=_I16)
SIG_GATE_H = _sig(**_ptrs("e g h", "*fp16:16"), n_elements=_I16)
SIG_GATE_HB = _sig(**_ptrs("DW e g", "*fp16:16"), n_elements=_I16)
# torchao: int8 (M, K) @ (K, N) row-major, 4096^3; fp8 blockwise at 4096
SIG_I8 = _sig(A_ptr="*i8:16", B_ptr="*i8:16", C_ptr="*bf16:16",
              row_scale_ptr="*bf16:16", col_scale_ptr="*bf16:16", M=_I16,
              N=_I16, K=_I16, stride_am=_I16, stride_ak=_I1, stride_bk=_I16,
              stride_bn=_I1, stride_cm=_I16, stride_cn=_I1)
# torchao's int8 training passes the weight transposed: B (K, N) column-major
SIG_I8T = SIG_I8.replace("stride_bk=i32:16,stride_bn=i32:1",
                         "stride_bk=i32:1,stride_bn=i32:16")
SIG_AQ = _sig(x_ptr="*bf16:16", y_ptr="*fp8e4nv:16", s_ptr="*fp32:16")
SIG_BFP8 = _sig(a_ptr="*fp8e4nv:16", b_ptr="*fp8e4nv:16", c_ptr="*bf16:16",
                a_s_ptr="*fp32:16", b_s_ptr="*fp32:16", M=_I16)
SIG_TOFP8 = _sig(input_ptr="*bf16:16", out_ptr="*fp8e4nv:16",
                 scale_ptr="*fp32:16", num_elements=_I16)
SIG_AMAX = _sig(input_ptr="*bf16:16", block_amaxes_ptr="*fp32:16",
                num_elements=_I16)
SIG_SCALE = _sig(block_amaxes_ptr="*fp32:16", scale_out_ptr="*fp32:16",
                 num_elements=_I16)

_CE0 = "DO_SOFTCAPPING=False SOFTCAP=0 DO_LOGIT_SCALING=False LOGIT_SCALE=0"
_CE30 = "DO_SOFTCAPPING=True SOFTCAP=30.0 DO_LOGIT_SCALING=False LOGIT_SCALE=0"
_RMS = ("Y_row_stride=4096 X_row_stride=4096 W_row_stride=1 r_row_stride=1 "
        "n_cols=4096 eps=1e-06 BLOCK_SIZE=4096")
_RMSB = ("dY_row_stride=4096 dX_row_stride=4096 X_row_stride=4096 "
         "W_row_stride=1 r_row_stride=1 n_cols=4096 eps=1e-06 "
         "BLOCK_SIZE=4096")
_GATE = "BLOCK_SIZE=1024 LONG_INDEXING=0"
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature): the
    # launchers' BLOCK_SIZE / num_warps (calculate_settings), Triton's
    # default 3 stages where unset; autotuned kernels their first config
    # plus the ones noted
    ("CE forward V=32000 (32768, 32 warps)", TILE, "_cross_entropy_forward",
     "VOCAB_SIZE=32000 BLOCK_SIZE=32768 " + _CE0, 32, 3, SIG_CE),
    ("CE forward V=32000 softcap 30", TILE, "_cross_entropy_forward",
     "VOCAB_SIZE=32000 BLOCK_SIZE=32768 " + _CE30, 32, 3, SIG_CE),
    ("CE chunked V=256000 softcap 30 (65536, 32 warps)", TILE,
     "_chunked_cross_entropy_forward", "logits_row_stride=256000 "
     "VOCAB_SIZE=256000 N_CHUNKS=4 BLOCK_SIZE=65536 " + _CE30, 32, 3,
     SIG_CEC),
    ("CE backward V=256000 softcap 30", TILE, "_cross_entropy_backward",
     "logits_row_stride=256000 dloss_row_stride=1 VOCAB_SIZE=256000 "
     "BLOCK_SIZE=4096 " + _CE30, 8, 3, SIG_CEB),
    ("CE backward V=32000", TILE, "_cross_entropy_backward",
     "logits_row_stride=32000 dloss_row_stride=1 VOCAB_SIZE=32000 "
     "BLOCK_SIZE=4096 " + _CE0, 8, 3, SIG_CEB),
    ("rms_layernorm forward 4096", TILE, "_rms_layernorm_forward", _RMS, 8, 3,
     SIG_RMS),
    ("rms_layernorm backward 4096", TILE, "_rms_layernorm_backward",
     _RMSB + " GEMMA=False", 8, 3, SIG_RMSB),
    ("rms_layernorm backward 4096 GEMMA", TILE, "_rms_layernorm_backward",
     _RMSB + " GEMMA=True", 8, 3, SIG_RMSB),
    ("gemma rms_layernorm forward 3072", TILE, "_gemma_rms_layernorm_forward",
     _RMS.replace("4096 X", "3072 X").replace("=4096 W", "=3072 W")
     .replace("n_cols=4096", "n_cols=3072"), 8, 3, SIG_GRMS),
    ("layernorm forward 1024", TILE, "layernorm_forward",
     "n_cols=1024 eps=1e-05 BLOCK_SIZE=1024", 4, 3, SIG_LN),
    ("layernorm backward 1024", TILE, "layernorm_backward",
     "n_cols=1024 eps=1e-05 BLOCK_SIZE=1024", 4, 3, SIG_LNB),
    ("rope grouped D=128 heads=32", TILE, "_rope_embedding",
     "Q_row_stride=4096 cos_row_stride=128 sin_row_stride=128 head_dim=128 "
     "n_heads=32 BACKWARD_PASS=False BLOCK_SIZE=64", 4, 3, SIG_ROPE),
    ("rope QK D=128 Hk=8", TILE, "_rope_embedding_QK",
     "head_dim=128 n_heads_K=8 BACKWARD_PASS=False HAS_ROPE_INDICES=False "
     "BLOCK_SIZE=128", 4, 3, SIG_ROPEQK),
    ("rope QK D=128 Hk=8 indices", TILE, "_rope_embedding_QK",
     "head_dim=128 n_heads_K=8 BACKWARD_PASS=True HAS_ROPE_INDICES=True "
     "BLOCK_SIZE=128", 4, 3, SIG_ROPEQK),
    ("swiglu fg", TILE, "_fg_kernel", _GATE, 4, 3, SIG_GATE_B),
    ("swiglu DWf_DW_dfg", TILE, "_DWf_DW_dfg_kernel", _GATE, 4, 3,
     SIG_GATE_BB),
    ("geglu exact forward", TILE, "_exact_forward_kernel", _GATE, 4, 3,
     SIG_GATE_H),
    ("geglu exact backward", TILE, "_exact_backward_kernel", _GATE, 4, 3,
     SIG_GATE_HB),
    ("geglu approx forward", TILE, "_approx_forward_kernel", _GATE, 4, 3,
     SIG_GATE_B),
    ("geglu approx backward", TILE, "_approx_backward_kernel", _GATE, 4, 3,
     SIG_GATE_BB),
    ("geglu approx backward LONG_INDEXING", TILE, "_approx_backward_kernel",
     "BLOCK_SIZE=1024 LONG_INDEXING=1", 4, 3, SIG_GATE_BB),
    ("scaled_int8_mm 128x256x64 (first config)", TILE,
     "_scaled_int8_mm_kernel", "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 "
     "EVEN_K=True COL_SCALE_SCALAR=False", 8, 3, SIG_I8),
    ("scaled_int8_mm 128x256x64 B column-major (weight.T)", TILE,
     "_scaled_int8_mm_kernel", "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 "
     "EVEN_K=True COL_SCALE_SCALAR=False", 8, 3, SIG_I8T),
    ("scaled_int8_mm 64x32x32", TILE, "_scaled_int8_mm_kernel",
     "BLOCK_M=64 BLOCK_N=32 BLOCK_K=32 EVEN_K=True COL_SCALE_SCALAR=False",
     2, 5, SIG_I8),
    ("scaled_int8_mm 256x128x128", TILE, "_scaled_int8_mm_kernel",
     "BLOCK_M=256 BLOCK_N=128 BLOCK_K=128 EVEN_K=True "
     "COL_SCALE_SCALAR=False", 8, 3, SIG_I8),
    ("fp8 act_quant 128", TILE, "_fp8_blockwise_act_quant_kernel_impl",
     "BLOCK_SIZE=128", 4, 3, SIG_AQ),
    ("blockwise_fp8_gemm 16x32x128 (first config)", TILE,
     "blockwise_fp8_gemm_kernel", "N=4096 K=4096 M_BUCKET=12 BLOCK_SIZE_M=16 "
     "BLOCK_SIZE_N=32 BLOCK_SIZE_K=128", 8, 3, SIG_BFP8),
    ("blockwise_fp8_gemm 128x128x128 s6", TILE, "blockwise_fp8_gemm_kernel",
     "N=4096 K=4096 M_BUCKET=12 BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 "
     "BLOCK_SIZE_K=128", 8, 6, SIG_BFP8),
    ("fp8 tensorwise _to_fp8_row_major 1024", TILE, "_to_fp8_row_major",
     "input_dtype=tl.bfloat16 output_dtype=tl.float8e4nv BLOCK_SIZE=1024 "
     "EPS=1e-12", 4, 3, SIG_TOFP8),
    ("fp8 tensorwise _amax_reduction 4096", TILE, "_amax_reduction",
     "input_dtype=tl.bfloat16 BLOCK_SIZE=4096 EPS=1e-12", 8, 3, SIG_AMAX),
    ("fp8 tensorwise _scale_reduction", TILE, "_scale_reduction",
     "BLOCK_SIZE=4096 EPS=1e-12", 4, 3, SIG_SCALE),
]

if __name__ == "__main__":
    pg.main(CPU_TESTS, GPU_BUILDS)
