#!/usr/bin/python3
"""Generality probe: Mamba-2's SSD forward kernels, Mamba's decoding step and
the gated RMSNorm (bench/kernels/probe_mamba.tile, state-spaces/mamba as
published) run in tilec's CPU mode at small odd sizes (seqlen not a
multiple of the chunk, nheads > ngroups > 1, dstate and headdim not powers
of two) against float64 NumPy references written from the SSD math, then
compiled for sm_90a at the kernels' own launch settings (their autotune
configs, the launchers' num_warps), as written and with the facts Triton's
JIT would specialize on (--signature) for Mamba-2 2.7B (d_inner 5120, 80
heads of 64, 1 group, dstate 128, chunk 256, batch 16, seqlen 2048), with
ptxas register / spill counts.

    /usr/bin/python3 bench/probe_mamba_cpu.py [--no-gpu-compile] [--only NAME]
    /usr/bin/python3 bench/probe_mamba_cpu.py --only all_configs

The harness (run, check, guarded, the PROBE_EXPORT hand-off) is
bench/probe_serving_cpu.py's, the GPU table bench/probe_generality_cpu.py's;
`--only all_configs` compiles every @autotune config of the SSD kernels
(tilec --all-configs) and prints ptxas's registers and spills per config.

The SSD math (one head h of group g = h // (nheads / ngroups), a chunk of
length cs starting at token c*cs, dt >= 0 and A < 0):
  dt' = clamp(softplus(dt + dt_bias), dt_min, dt_max);  dA_cs[l] = sum_{s<=l} dt'_s A
  state entering chunk c+1 = exp(dA_cs[-1]) state_c + sum_l exp(dA_cs[-1] - dA_cs[l]) dt_l x_l B_l^T
  y_l = exp(dA_cs[l]) C_l . state_c + sum_{s<=l} (C_l . B_s) exp(dA_cs[l] - dA_cs[s]) dt_s x_s + D x_l
  out = y * silu(z)

Result (this tilec build): every kernel compiles as published but for the
PORT EDITs in the .tile header (the autotune_configs() wrapper, softplus.py's
module-level `if TRITON3:`); 80/80 CPU checks pass; every CPU case also
compiles for sm_90a (PROBE_EXPORT) and assembles with ptxas. ptxas spills
(bytes stored/loaded, as written | JIT facts): _chunk_scan_fwd_kernel
128x256x64 w8 4928/5104 | 156/156 (configs 1 and 2 5900 and 6528 as
written), _chunk_scan_fwd_kernel_wip 128x64 w4 2896/3036 | 404/404,
_chunk_cumsum_fwd_kernel BLOCK_SIZE_H=64 10384/10372 | 1972/2008; the
chunk-state and bmm kernels spill only as written (<= 276 bytes).
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)
import probe_generality_cpu as pg  # noqa: E402  (the same GPU table)

TILE = os.path.join(HERE, "kernels", "probe_mamba.tile")
check, guarded, run = ps.check, ps.guarded, pg.run
FP16_TOL, FP32_TOL = ps.FP16_TOL, pg.FP32_TOL

randn = ps.seeded_randn(2029)
nan, f64, cdiv = ps.nan, ps.f64, ps.cdiv


def softplus(x):
    return np.log1p(np.exp(x))


def ssd_inputs(batch, seqlen, nheads, cs, A=None):
    """dt (fp32, after softplus; 0 past seqlen) and dA_cumsum as
    (batch, nheads, nchunks, cs), the layout _chunk_cumsum_fwd leaves."""
    nchunks = cdiv(seqlen, cs)
    if A is None:
        A = -np.exp(randn(nheads, dtype=np.float32, scale=0.5))
    dt = softplus(randn(batch, nheads, nchunks, cs, dtype=np.float64) - 1.0)
    pos = np.arange(nchunks * cs).reshape(nchunks, cs)
    dt = np.where(pos[None, None] < seqlen, dt, 0.0).astype(np.float32)
    dA_cs = np.cumsum(f64(dt) * f64(A)[None, :, None, None], -1)
    return A, dt, dA_cs.astype(np.float32)


def strides(a):
    """element strides of the buffer the harness passes (np.save of the
    C-contiguous copy)"""
    a = np.ascontiguousarray(a)
    return [s // a.itemsize for s in a.strides]


# ====================================================== 1. chunk cumsum
@guarded
def chunk_cumsum():
    """_chunk_cumsum_fwd_kernel: dt' = clamp(softplus(dt + dt_bias)), 0 past
    seqlen; dA_cumsum = inclusive cumsum of dt' A within each chunk."""
    batch, seqlen, nheads = 2, 100, 5
    for cs, bh, softplus_on, has_bias, lim in (
            (64, 4, True, True, (0.0, float("inf"))),
            (64, 1, False, False, (0.0, float("inf"))),
            (48, 8, True, True, (0.05, 2.0)),  # BLOCK_SIZE_CHUNK 64 > cs
            (256, 2, True, False, (0.0, float("inf")))):
        nchunks = cdiv(seqlen, cs)
        dt = randn(batch, seqlen, nheads, scale=2.0)
        dt[0, 3, 1] = 25.0  # past softplus's threshold of 20: kept as is
        dt[1, 50, 4] = 21.0
        A = -np.exp(randn(nheads, dtype=np.float32, scale=0.5))
        bias = randn(nheads, dtype=np.float32, scale=0.5)
        v = f64(dt) + (f64(bias) if has_bias else 0.0)
        if softplus_on:
            v = np.where(v <= 20.0, softplus(v), v)
        v = np.minimum(np.maximum(v, lim[0]), lim[1])
        pad = np.zeros((batch, nchunks * cs, nheads))
        pad[:, :seqlen] = v
        ref_dt = pad.reshape(batch, nchunks, cs, nheads).transpose(0, 3, 1, 2)
        ref_dA = np.cumsum(ref_dt * f64(A)[None, :, None, None], -1)
        dt_out = nan(batch, nheads, nchunks, cs)
        dA_cs = nan(batch, nheads, nchunks, cs)
        args = dict(dt_ptr=dt, A_ptr=A, dt_bias_ptr=bias if has_bias else None,
                    dt_out_ptr=dt_out, dA_cumsum_ptr=dA_cs, batch=batch,
                    seqlen=seqlen, nheads=nheads, chunk_size=cs,
                    dt_min=lim[0], dt_max=lim[1],
                    stride_dt_batch=seqlen * nheads, stride_dt_seqlen=nheads,
                    stride_dt_head=1, stride_A_head=1,
                    stride_dt_bias_head=1 if has_bias else 0,
                    # dt_out.stride(0), (2), (1), (3)
                    stride_dt_out_batch=nheads * nchunks * cs,
                    stride_dt_out_chunk=cs, stride_dt_out_head=nchunks * cs,
                    stride_dt_out_csize=1,
                    stride_dA_cs_batch=nheads * nchunks * cs,
                    stride_dA_cs_chunk=cs, stride_dA_cs_head=nchunks * cs,
                    stride_dA_cs_csize=1)
        defs = dict(DT_SOFTPLUS=softplus_on, HAS_DT_BIAS=has_bias,
                    BLOCK_SIZE_H=bh,
                    BLOCK_SIZE_CHUNK=1 << (cs - 1).bit_length())
        res = run(TILE, "_chunk_cumsum_fwd_kernel", defs,
                  (batch, nchunks, cdiv(nheads, bh)), args,
                  ["dt_out_ptr", "dA_cumsum_ptr"], 4, 3)
        label = (f"mamba2 _chunk_cumsum_fwd_kernel BLOCK_SIZE_H={bh} cs={cs} "
                 f"seqlen={seqlen} nheads={nheads} softplus={softplus_on} "
                 f"dt_bias={has_bias} dt_limit={lim}")
        check(label + " dt_out", res["dt_out_ptr"], ref_dt, FP32_TOL)
        check(label + " dA_cumsum", res["dA_cumsum_ptr"], ref_dA, FP32_TOL)


# ====================================================== 2. chunk state
# _chunk_state_fwd_kernel's body is probe 1's (bench/probe_generality_cpu.py
# mamba_chunk_state checks it in the CPU mode, with and without seq_idx);
# here it is only compiled (GPU_BUILDS, ALL_CONFIGS).


# ====================================================== 3. chunk state varlen
@guarded
def chunk_state_varlen():
    """Final state of each of the concatenated sequences: sum over the
    sequence's tokens t of exp(A sum_{s=t+1}^{end-1} dt_s) dt_t x_t B_t^T.
    The kernel takes the state entering the last chunk (chunk_states, from
    state passing) and adds that chunk's tokens; the reference takes the
    same fp16 chunk_states for the part before the chunk."""
    nheads, ngroups, hdim, dstate, cs = 4, 2, 40, 24, 64
    lens = (30, 70, 50, 7, 100)  # seq 2 spans chunks 1-2, seq 4 chunks 2-4
    cu = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    tot = int(cu[-1])
    nchunks = cdiv(tot, cs)
    x = randn(tot, nheads, hdim)
    Bm = randn(tot, ngroups, dstate)
    A, dt4, dA4 = ssd_inputs(1, tot, nheads, cs)
    dt, dA_cs = dt4[0], dA4[0]  # (nheads, nchunks, cs)
    dtf = dt.reshape(nheads, -1)[:, :tot]  # per token
    rep = nheads // ngroups
    # the exact state of each sequence before each chunk start, as
    # chunk_states would hold it for the sequence running through the
    # chunk boundary; other chunks' entries are random (unused)
    chunk_states = randn(nchunks, nheads, hdim, dstate, scale=0.5)
    ref = np.zeros((len(lens), nheads, hdim, dstate))

    def state(b, t0, t1):
        """contributions of tokens [t0, t1) of seq b, decayed to t1 - 1."""
        out = np.zeros((nheads, hdim, dstate))
        for h in range(nheads):
            g = h // rep
            for t in range(t0, t1):
                decay = np.exp(A[h] * f64(dtf[h, t + 1:t1]).sum())
                out[h] += decay * dtf[h, t] * np.outer(f64(x[t, h]),
                                                       f64(Bm[t, g]))
        return out

    for b in range(len(lens)):
        s, e = int(cu[b]), int(cu[b + 1])
        c = (e - 1) // cs
        if s < c * cs:
            p0 = c * cs
            chunk_states[c] = state(b, s, p0).astype(np.float16)
            decay = np.exp(f64(A)[:, None] * f64(dtf[:, p0:e]).sum(1,
                                                                  keepdims=True))
            ref[b] = f64(chunk_states[c]) * decay[:, :, None] + state(b, p0, e)
        else:
            ref[b] = state(b, s, e)
    for bm, bn, bk, warps, stages in ((128, 256, 64, 8, 3), (64, 32, 32, 2, 5),
                                      (32, 64, 32, 2, 5)):
        st = nan(len(lens), nheads, hdim, dstate, dtype=np.float16)
        args = dict(x_ptr=x, b_ptr=Bm, dt_ptr=dt, dA_cumsum_ptr=dA_cs,
                    chunk_states_ptr=chunk_states, cu_seqlens_ptr=cu,
                    states_ptr=st, hdim=hdim, dstate=dstate, chunk_size=cs,
                    seqlen=tot, nheads_ngroups_ratio=rep,
                    stride_x_seqlen=nheads * hdim, stride_x_head=hdim,
                    stride_x_hdim=1,
                    stride_b_seqlen=ngroups * dstate, stride_b_head=dstate,
                    stride_b_dstate=1,
                    # dt.stride(1), dt.stride(0), dt.stride(2)
                    stride_dt_chunk=cs, stride_dt_head=nchunks * cs,
                    stride_dt_csize=1,
                    stride_dA_cs_chunk=cs, stride_dA_cs_head=nchunks * cs,
                    stride_dA_cs_csize=1,
                    stride_chunk_states_chunk=nheads * hdim * dstate,
                    stride_chunk_states_head=hdim * dstate,
                    stride_chunk_states_hdim=dstate,
                    stride_chunk_states_dstate=1,
                    stride_states_batch=nheads * hdim * dstate,
                    stride_states_head=hdim * dstate,
                    stride_states_hdim=dstate, stride_states_dstate=1)
        defs = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk)
        grid = (cdiv(hdim, bm) * cdiv(dstate, bn), len(lens), nheads)
        out = run(TILE, "_chunk_state_varlen_kernel", defs, grid, args,
                  ["states_ptr"], warps, stages)["states_ptr"]
        check(f"mamba2 _chunk_state_varlen_kernel {bm}x{bn}x{bk} lens={lens} "
              f"cs={cs} nheads={nheads} ngroups={ngroups} hdim={hdim} "
              f"dstate={dstate}", out, ref, FP16_TOL)


# ====================================================== 4. state passing
@guarded
def state_passing():
    """out[c] = state entering chunk c, final = after the last chunk:
    sum over earlier chunks j (of the same sequence as chunk c's last token)
    of states[j] exp(sum_{i=j+1}^{c} dA_i), plus the initial state decayed
    by exp(sum_{i<=c} dA_i) while that sequence is sequence 0."""
    batch, nheads, hdim, dstate, cs, seqlen = 2, 3, 10, 13, 64, 230
    dim = hdim * dstate  # 130: not a multiple of any BLOCK_SIZE
    nchunks = cdiv(seqlen, cs)
    states = randn(batch, nchunks, nheads, dim, dtype=np.float32)
    _, _, dA_full = ssd_inputs(batch, seqlen, nheads, cs)
    dA_last = f64(dA_full[:, :, :, -1])  # (batch, nheads, nchunks)
    # dA_cumsum[:, :, :, -1] as the launcher passes it: a strided view (the
    # buffer from its first element on)
    dA_buf = np.ascontiguousarray(dA_full.reshape(-1)[cs - 1:])
    init = randn(batch, nheads, dim, dtype=np.float32)
    seq_idx = np.zeros((batch, seqlen), np.int32)
    seq_idx[0, 100:] = 1  # chunk 1 ends in seq 1: its state restarts
    seq_idx[1, 150:] = 1
    seq_idx[1, 200:] = 2
    for has_init, has_seq in ((False, False), (True, False), (True, True)):
        ends = [min((c + 1) * cs, seqlen) - 1 for c in range(nchunks)]
        sid = seq_idx[:, ends] if has_seq else np.zeros((batch, nchunks), int)
        # after chunk c: sum_j states[j] * exp(sum dA[j+1..c])
        after = np.zeros((batch, nchunks, nheads, dim))
        for b in range(batch):
            for c in range(nchunks):
                for j in range(c + 1):
                    if sid[b, j] == sid[b, c]:
                        decay = np.exp(dA_last[b, :, j + 1:c + 1].sum(-1))
                        after[b, c] += f64(states[b, j]) * decay[:, None]
                if has_init and sid[b, c] == 0:
                    decay = np.exp(dA_last[b, :, :c + 1].sum(-1))
                    after[b, c] += f64(init[b]) * decay[:, None]
        ref_out = np.concatenate(
            [f64(init)[:, None] if has_init else
             np.zeros((batch, 1, nheads, dim)), after[:, :-1]], 1)
        ref_final = after[:, -1]
        for block, warps in ((64, 4), (2048, 4)):
            out = nan(batch, nchunks, nheads, dim, dtype=np.float16)
            final = nan(batch, nheads, dim)
            args = dict(states_ptr=states, out_ptr=out, final_states_ptr=final,
                        dA_cs_ptr=dA_buf,
                        initstates_ptr=init if has_init else None,
                        seq_idx_ptr=seq_idx if has_seq else None,
                        dim=dim, nchunks=nchunks,
                        seqlen=seqlen if has_seq else 0,
                        chunk_size=cs if has_seq else 0,
                        stride_states_batch=nchunks * nheads * dim,
                        stride_states_chunk=nheads * dim,
                        stride_states_head=dim, stride_states_dim=1,
                        stride_out_batch=nchunks * nheads * dim,
                        stride_out_chunk=nheads * dim, stride_out_head=dim,
                        stride_out_dim=1,
                        stride_final_states_batch=nheads * dim,
                        stride_final_states_head=dim,
                        stride_final_states_dim=1,
                        # dA_chunk_cumsum.stride(0), (2), (1) of the view
                        stride_dA_cs_batch=nheads * nchunks * cs,
                        stride_dA_cs_chunk=cs, stride_dA_cs_head=nchunks * cs,
                        stride_initstates_batch=nheads * dim if has_init else 0,
                        stride_initstates_head=dim if has_init else 0,
                        stride_initstates_dim=1 if has_init else 0,
                        stride_seq_idx_batch=seqlen if has_seq else 0,
                        stride_seq_idx_seqlen=1 if has_seq else 0)
            defs = dict(HAS_INITSTATES=has_init, HAS_SEQ_IDX=has_seq,
                        BLOCK_SIZE=block)
            res = run(TILE, "_state_passing_fwd_kernel", defs,
                      (cdiv(dim, block), batch, nheads), args,
                      ["out_ptr", "final_states_ptr"], warps, 3)
            label = (f"mamba2 _state_passing_fwd_kernel BLOCK_SIZE={block} "
                     f"dim={dim} nchunks={nchunks} HAS_INITSTATES={has_init} "
                     f"HAS_SEQ_IDX={has_seq}")
            check(label + " out", res["out_ptr"], ref_out, FP16_TOL)
            check(label + " final_states", res["final_states_ptr"],
                  ref_final, FP32_TOL)


# ====================================================== 5. bmm chunk (C B^T)
@guarded
def bmm_chunk():
    """out[b,c,g,i,j] = C_i . B_j over the chunk's tokens (0 outside the
    chunk's valid rows/columns, and across sequences with seq_idx)."""
    batch, seqlen = 2, 100
    seq_idx = np.zeros((batch, seqlen), np.int32)
    seq_idx[0, 40:] = 1
    seq_idx[1, 64:] = 1
    seq_idx[1, 90:] = 2
    for ngroups, k, cs, causal, has_seq in ((2, 24, 64, False, False),
                                            (3, 100, 64, False, True),
                                            (None, 40, 32, False, False),
                                            (2, 24, 64, True, True)):
        g = ngroups or 1
        nchunks = cdiv(seqlen, cs)
        shape = (batch, seqlen, ngroups, k) if ngroups else (batch, seqlen, k)
        a, b_ = randn(*shape), randn(*shape)
        a4, b4 = f64(a).reshape(batch, seqlen, g, k), \
            f64(b_).reshape(batch, seqlen, g, k)
        pad = nchunks * cs - seqlen
        a4 = np.pad(a4, ((0, 0), (0, pad), (0, 0), (0, 0)))
        b4 = np.pad(b4, ((0, 0), (0, pad), (0, 0), (0, 0)))
        a5 = a4.reshape(batch, nchunks, cs, g, k)
        b5 = b4.reshape(batch, nchunks, cs, g, k)
        ref = np.einsum("bcigk,bcjgk->bcgij", a5, b5)
        if has_seq:
            si = np.pad(seq_idx, ((0, 0), (0, pad)), constant_values=-1)
            si = si.reshape(batch, nchunks, cs)
            ref = np.where(si[:, :, None, :, None] == si[:, :, None, None, :],
                           ref, 0.0)
        oshape = (batch, nchunks, ngroups, cs, cs) if ngroups else \
            (batch, nchunks, cs, cs)
        cmask = np.broadcast_to(np.tril(np.ones((cs, cs), bool)),
                                (batch, nchunks, g, cs, cs))
        for bm, bn, bk, warps, stages in ((128, 256, 64, 8, 3),
                                          (64, 32, 32, 2, 5),
                                          (32, 64, 32, 2, 5)):
            out = nan(*oshape)
            sa = strides(a)
            so = strides(out)
            args = dict(a_ptr=a, b_ptr=b_, out_ptr=out,
                        seq_idx_ptr=seq_idx if has_seq else None,
                        seqlen=seqlen, chunk_size=cs, K=k, ngroups=g,
                        stride_a_batch=sa[0], stride_a_seqlen=sa[1],
                        stride_a_head=sa[2] if ngroups else 0,
                        stride_ak=sa[-1],
                        stride_b_batch=sa[0], stride_b_seqlen=sa[1],
                        stride_b_head=sa[2] if ngroups else 0,
                        stride_bk=sa[-1],
                        stride_out_batch=so[0], stride_out_chunk=so[1],
                        stride_out_head=so[2] if ngroups else 0,
                        stride_outm=so[-2], stride_outn=so[-1],
                        stride_seq_idx_batch=seqlen if has_seq else 0,
                        stride_seq_idx_seqlen=1 if has_seq else 0)
            defs = dict(IS_CAUSAL=causal, dot_dtype="tl.float16",
                        HAS_SEQ_IDX=has_seq, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                        BLOCK_SIZE_K=bk)
            grid = (cdiv(cs, bm) * cdiv(cs, bn), batch, nchunks * g)
            res = run(TILE, "_bmm_chunk_fwd_kernel", defs, grid, args,
                      ["out_ptr"], warps, stages)["out_ptr"]
            res = f64(res).reshape(batch, nchunks, g, cs, cs)
            label = (f"mamba2 _bmm_chunk_fwd_kernel {bm}x{bn}x{bk} seqlen="
                     f"{seqlen} cs={cs} ngroups={ngroups} K={k} "
                     f"IS_CAUSAL={causal} HAS_SEQ_IDX={has_seq}")
            if causal:  # only i >= j is computed (blocks above skipped)
                check(label + " (i >= j)", res, ref, FP32_TOL, mask=cmask)
            else:
                check(label, res, ref, FP32_TOL)


# ====================================================== 6. chunk scan
def chunk_scan_ref(cb, x, dt, dA_cs, C, prev, D, z, cs, seq_idx=None):
    """y_l = exp(dA_cs[l]) C_l . prev_c (0 when token l's sequence is not
    the one before the chunk) + sum_{s<=l} cb[l,s] exp(dA_cs[l]-dA_cs[s])
    dt_s x_s + D x_l; out = y silu(z). cb as given (fp32); the kernel rounds
    cb * decay * dt to fp16 before its dot, as the reference does."""
    batch, seqlen, nheads, hdim = x.shape
    ngroups = C.shape[2]
    rep = nheads // ngroups
    nchunks = cdiv(seqlen, cs)
    y = np.zeros(x.shape)
    for b in range(batch):
        for c in range(nchunks):
            lim = min(cs, seqlen - c * cs)
            ls = slice(c * cs, c * cs + lim)
            for h in range(nheads):
                g = h // rep
                dacs = f64(dA_cs[b, h, c, :lim])
                scale = np.exp(dacs)
                if seq_idx is not None:
                    prev_id = seq_idx[b, c * cs - 1] if c > 0 else 0
                    scale = np.where(seq_idx[b, ls] == prev_id, scale, 0.0)
                inter = (f64(C[b, ls, g]) @ f64(prev[b, c, h]).T) * \
                    scale[:, None]
                w = f64(cb[b, c, g, :lim, :lim]) * \
                    np.exp(dacs[:, None] - dacs[None, :]) * \
                    f64(dt[b, h, c, :lim])[None, :]
                w = np.tril(w).astype(np.float16).astype(np.float64)
                yy = inter + w @ f64(x[b, ls, h])
                if D is not None:
                    dd = f64(D[h]) if D.ndim == 2 else f64(D[h])
                    yy = yy + f64(x[b, ls, h]) * dd
                y[b, ls, h] = yy
    out = y if z is None else y * f64(z) / (1.0 + np.exp(-f64(z)))
    return out, y


def cb_of(C, Bm, cs, seq_idx=None):
    """C B^T per chunk and group (fp32), zero outside the valid tokens and
    across sequences: what _bmm_chunk_fwd gives _chunk_scan_fwd."""
    batch, seqlen, ngroups, dstate = C.shape
    nchunks = cdiv(seqlen, cs)
    pad = nchunks * cs - seqlen
    c5 = np.pad(f64(C), ((0, 0), (0, pad), (0, 0), (0, 0))).reshape(
        batch, nchunks, cs, ngroups, dstate)
    b5 = np.pad(f64(Bm), ((0, 0), (0, pad), (0, 0), (0, 0))).reshape(
        batch, nchunks, cs, ngroups, dstate)
    cb = np.einsum("bcign,bcjgn->bcgij", c5, b5)
    if seq_idx is not None:
        si = np.pad(seq_idx, ((0, 0), (0, pad)), constant_values=-1).reshape(
            batch, nchunks, cs)
        cb = np.where(si[:, :, None, :, None] == si[:, :, None, None, :], cb,
                      0.0)
    return cb.astype(np.float32)


def chunk_scan_args(cb, x, z, out, out_x, dt, dA_cs, seq_idx, C, prev, D,
                    cs, Bm=None):
    batch, seqlen, nheads, hdim = x.shape
    ngroups, dstate = C.shape[2:]
    scb, sx, so, sdt, sc, sst = (strides(cb), strides(x), strides(out),
                                 strides(dt), strides(C), strides(prev))
    args = dict(cb_ptr=cb, x_ptr=x, z_ptr=z, out_ptr=out, out_x_ptr=out_x,
                dt_ptr=dt, dA_cumsum_ptr=dA_cs, seq_idx_ptr=seq_idx, C_ptr=C)
    if Bm is not None:
        args["B_ptr"] = Bm
    args.update(prev_states_ptr=prev, D_ptr=D, chunk_size=cs, hdim=hdim,
                dstate=dstate, batch=batch, seqlen=seqlen,
                nheads_ngroups_ratio=nheads // ngroups,
                stride_cb_batch=scb[0], stride_cb_chunk=scb[1],
                stride_cb_head=scb[2], stride_cb_csize_m=scb[3],
                stride_cb_csize_k=scb[4],
                stride_x_batch=sx[0], stride_x_seqlen=sx[1],
                stride_x_head=sx[2], stride_x_hdim=sx[3])
    zs = strides(z) if z is not None else (0, 0, 0, 0)
    args.update(stride_z_batch=zs[0], stride_z_seqlen=zs[1],
                stride_z_head=zs[2], stride_z_hdim=zs[3],
                stride_out_batch=so[0], stride_out_seqlen=so[1],
                stride_out_head=so[2], stride_out_hdim=so[3],
                stride_dt_batch=sdt[0], stride_dt_chunk=sdt[2],
                stride_dt_head=sdt[1], stride_dt_csize=sdt[3],
                stride_dA_cs_batch=sdt[0], stride_dA_cs_chunk=sdt[2],
                stride_dA_cs_head=sdt[1], stride_dA_cs_csize=sdt[3],
                stride_seq_idx_batch=seqlen if seq_idx is not None else 0,
                stride_seq_idx_seqlen=1 if seq_idx is not None else 0,
                stride_C_batch=sc[0], stride_C_seqlen=sc[1],
                stride_C_head=sc[2], stride_C_dstate=sc[3])
    if Bm is not None:
        sb = strides(Bm)
        args.update(stride_B_batch=sb[0], stride_B_seqlen=sb[1],
                    stride_B_head=sb[2], stride_B_dstate=sb[3])
    args.update(stride_states_batch=sst[0], stride_states_chunk=sst[1],
                stride_states_head=sst[2], stride_states_hdim=sst[3],
                stride_states_dstate=sst[4],
                stride_D_head=strides(D)[0] if D is not None else 0)
    return args


@guarded
def chunk_scan():
    batch, nheads, ngroups, hdim = 2, 4, 2, 40
    cases = [
        # (seqlen, cs, dstate, D shape, z, seq_idx, configs)
        (100, 64, 24, "h", True, False,
         ((128, 256, 64, 8, 3), (64, 32, 32, 2, 5), (32, 64, 32, 2, 5))),
        (100, 64, 24, "hp", False, True, ((64, 64, 32, 2, 4),
                                           (128, 64, 32, 4, 4))),
        (100, 64, 130, None, True, True, ((64, 32, 32, 2, 5),
                                           (128, 64, 64, 4, 4))),  # dstate > 128: loop over dstate
        (300, 256, 24, "h", True, False, ((128, 256, 64, 8, 3),)),
    ]
    for seqlen, cs, dstate, dshape, has_z, has_seq, configs in cases:
        nchunks = cdiv(seqlen, cs)
        x = randn(batch, seqlen, nheads, hdim)
        z = randn(batch, seqlen, nheads, hdim) if has_z else None
        C = randn(batch, seqlen, ngroups, dstate, scale=0.5)
        Bm = randn(batch, seqlen, ngroups, dstate, scale=0.5)
        A, dt, dA_cs = ssd_inputs(batch, seqlen, nheads, cs)
        seq_idx = None
        if has_seq:
            seq_idx = np.zeros((batch, seqlen), np.int32)
            seq_idx[0, 30:] = 1
            seq_idx[1, 64:] = 1  # a sequence starting with chunk 1
            seq_idx[1, 90:] = 2
        cb = cb_of(C, Bm, cs, seq_idx)
        prev = randn(batch, nchunks, nheads, hdim, dstate, scale=0.5)
        D = None if dshape is None else (
            randn(nheads, dtype=np.float32) if dshape == "h" else
            randn(nheads, hdim, dtype=np.float32))
        ref_out, ref_y = chunk_scan_ref(cb, x, dt, dA_cs, C, prev, D, z, cs,
                                        seq_idx)
        for bm, bn, bk, warps, stages in configs:
            out = nan(batch, seqlen, nheads, hdim, dtype=np.float16)
            out_x = nan(batch, seqlen, nheads, hdim, dtype=np.float16) \
                if has_z else None
            args = chunk_scan_args(cb, x, z, out, out_x, dt, dA_cs, seq_idx,
                                   C, prev, D, cs)
            defs = dict(IS_CAUSAL=True, HAS_D=D is not None,
                        D_HAS_HDIM=(D.ndim == 2) if D is not None else True,
                        HAS_Z=has_z, HAS_SEQ_IDX=has_seq,
                        BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                        BLOCK_SIZE_DSTATE=max(1 << (dstate - 1).bit_length(),
                                              16),
                        IS_TRITON_22=True)
            grid = (cdiv(cs, bm) * cdiv(hdim, bn), batch * nchunks, nheads)
            dumps = ["out_ptr"] + (["out_x_ptr"] if has_z else [])
            res = run(TILE, "_chunk_scan_fwd_kernel", defs, grid, args,
                      dumps, warps, stages)
            label = (f"mamba2 _chunk_scan_fwd_kernel {bm}x{bn}x{bk} seqlen="
                     f"{seqlen} cs={cs} nheads={nheads} ngroups={ngroups} "
                     f"hdim={hdim} dstate={dstate} D={dshape} HAS_Z={has_z} "
                     f"HAS_SEQ_IDX={has_seq}")
            check(label + " out", res["out_ptr"], ref_out, FP16_TOL)
            if has_z:
                check(label + " out_x", res["out_x_ptr"], ref_y, FP16_TOL)


@guarded
def chunk_scan_wip():
    """_chunk_scan_fwd_kernel_wip (unused by mamba; its B-update is marked
    "TODO: this is not correct"): with chunk_size <= BLOCK_SIZE_M = 128 (one
    iteration, the TODO branch not taken) it computes the inter-chunk term
    and the skip: y_l = exp(dA_cs[l]) C_l . prev_c + D x_l."""
    batch, nheads, ngroups, hdim, seqlen = 2, 4, 2, 40, 100
    for cs, dstate, dshape, bn, warps in ((64, 24, "h", 64, 4),
                                          (128, 24, "hp", 32, 8),
                                          (64, 100, None, 32, 4)):
        nchunks = cdiv(seqlen, cs)
        x = randn(batch, seqlen, nheads, hdim)
        C = randn(batch, seqlen, ngroups, dstate, scale=0.5)
        Bm = randn(batch, seqlen, ngroups, dstate, scale=0.5)
        A, dt, dA_cs = ssd_inputs(batch, seqlen, nheads, cs)
        cb = cb_of(C, Bm, cs)
        prev = randn(batch, nchunks, nheads, hdim, dstate, scale=0.5)
        D = None if dshape is None else (
            randn(nheads, dtype=np.float32) if dshape == "h" else
            randn(nheads, hdim, dtype=np.float32))
        ref = np.zeros(x.shape)
        for b in range(batch):
            for c in range(nchunks):
                lim = min(cs, seqlen - c * cs)
                ls = slice(c * cs, c * cs + lim)
                for h in range(nheads):
                    g = h // (nheads // ngroups)
                    ref[b, ls, h] = (f64(C[b, ls, g]) @ f64(prev[b, c, h]).T) \
                        * np.exp(f64(dA_cs[b, h, c, :lim]))[:, None]
                    if D is not None:
                        ref[b, ls, h] += f64(x[b, ls, h]) * f64(D[h])
        out = nan(batch, seqlen, nheads, hdim, dtype=np.float16)
        args = chunk_scan_args(cb, x, None, out, None, dt, dA_cs, None, C,
                               prev, D, cs, Bm=Bm)
        defs = dict(HAS_D=D is not None,
                    D_HAS_HDIM=(D.ndim == 2) if D is not None else True,
                    HAS_Z=False, HAS_SEQ_IDX=False, BLOCK_SIZE_M=128,
                    BLOCK_SIZE_N=bn,
                    BLOCK_SIZE_DSTATE=max(1 << (dstate - 1).bit_length(), 16))
        grid = (cdiv(hdim, bn), batch * nchunks, nheads)
        res = run(TILE, "_chunk_scan_fwd_kernel_wip", defs, grid, args,
                  ["out_ptr"], warps, 4)["out_ptr"]
        check(f"mamba2 _chunk_scan_fwd_kernel_wip 128x{bn} seqlen={seqlen} "
              f"cs={cs} dstate={dstate} D={dshape}", res, ref, FP16_TOL)


# ====================================================== 7. selective_state_update
@guarded
def selective_state_update():
    # probe 1's cases (bench/probe_generality_cpu.py) on this file's port,
    # with the launcher's other (dstate, BLOCK_SIZE_M) choices: <= 16 -> 32
    # rows per program, <= 32 -> 16; Mamba-2 with z, dstate 100 on 4 warps
    # and 200 (BLOCK_SIZE_DSTATE 256) on 8
    pg.selective_state_update_cases(
        TILE, ((16, True, 32), (13, False, 32), (30, True, 16)),
        ((100, 4, True), (200, 8, True)))


# ====================================================== 8. gated norm
@guarded
def layernorm_gated():
    """RMSNorm / LayerNorm per group of group_size columns, gated by
    silu(z) before (NORM_BEFORE_GATE=False, Mamba-2's RMSNormGated) or
    after the norm."""
    M, eps = 37, 1e-5
    for ngroups, gsize, rms, has_bias, has_z, before in (
            (2, 150, True, False, True, False),   # Mamba-2's
            (1, 300, True, False, True, False),
            (3, 100, False, True, True, True),
            (1, 1000, False, True, False, True),
            (2, 64, True, True, True, True)):
        N = ngroups * gsize
        x = randn(M, N)
        z = randn(M, N)
        w = randn(N, dtype=np.float32, scale=0.5) + 1.0
        bias = randn(N, dtype=np.float32, scale=0.5)
        xx = f64(x)
        zz = f64(z)
        silu = zz / (1.0 + np.exp(-zz))
        if has_z and not before:
            xx = xx * silu
        xg = xx.reshape(M, ngroups, gsize)
        mean = xg.mean(-1, keepdims=True)
        if rms:
            var = (xg ** 2).mean(-1, keepdims=True)
            xh = xg / np.sqrt(var + eps)
        else:
            var = ((xg - mean) ** 2).mean(-1, keepdims=True)
            xh = (xg - mean) / np.sqrt(var + eps)
        y = xh.reshape(M, N) * f64(w) + (f64(bias) if has_bias else 0.0)
        if has_z and before:
            y = y * silu
        block_n = min(65536 // 2, 1 << (gsize - 1).bit_length())
        warps = min(max(block_n // 256, 1), 8)
        args = dict(X=x, Y=nan(M, N, dtype=np.float16), W=w,
                    B=bias if has_bias else None, Z=z if has_z else None,
                    Mean=None if rms else nan(ngroups * M),
                    Rstd=nan(ngroups * M), stride_x_row=N, stride_y_row=N,
                    stride_z_row=N if has_z else 0, M=M, N=gsize, eps=eps)
        defs = dict(BLOCK_N=block_n, NORM_BEFORE_GATE=before, IS_RMS_NORM=rms)
        dumps = ["Y", "Rstd"] + ([] if rms else ["Mean"])
        res = run(TILE, "_layer_norm_fwd_1pass_kernel", defs, (M, ngroups),
                  args, dumps, warps, 1)
        label = (f"mamba layernorm_gated _layer_norm_fwd_1pass_kernel M={M} "
                 f"ngroups={ngroups} group_size={gsize} BLOCK_N={block_n} "
                 f"rms={rms} bias={has_bias} z={has_z} "
                 f"norm_before_gate={before}")
        check(label + " y", res["Y"], y, FP16_TOL)
        # Mean / Rstd are stored per (group, row): index group * M + row
        check(label + " rstd", res["Rstd"],
              (1.0 / np.sqrt(var[:, :, 0] + eps)).T.reshape(-1), FP32_TOL)
        if not rms:
            check(label + " mean", res["Mean"], mean[:, :, 0].T.reshape(-1),
                  FP32_TOL)


# ----------------------------------------------------------- GPU compile
_sig, _ptrs = pg._sig, pg._ptrs
_I16, _I, _I1 = "i32:16", "i32", "i32:1"
# Mamba-2 2.7B prefill: batch 16, seqlen 2048, d_inner 5120 = 80 heads of
# 64, ngroups 1, dstate 128, chunk 256 (8 chunks). zxbcdt = in_proj(u) is
# (b, l, 10576) = [z 5120 | xBC 5376 | dt 80]; xBC after the causal conv is
# (b, l, 5376) = [x 5120 | B 128 | C 128]. dt starts at element 10496 of
# its row (16-byte aligned), B at 5120, C at 5248.
SIG_CUMSUM = _sig(dt_ptr="*fp16:16", **_ptrs("A_ptr dt_bias_ptr dt_out_ptr "
                                             "dA_cumsum_ptr"),
                  batch=_I16, seqlen=_I16, nheads=_I16, chunk_size=_I16,
                  dt_min="fp32", dt_max="fp32", stride_dt_batch=_I16,
                  stride_dt_seqlen=_I16, stride_dt_head=_I1,
                  stride_A_head=_I1, stride_dt_bias_head=_I1,
                  stride_dt_out_batch=_I16, stride_dt_out_chunk=_I16,
                  stride_dt_out_head=_I16, stride_dt_out_csize=_I1,
                  stride_dA_cs_batch=_I16, stride_dA_cs_chunk=_I16,
                  stride_dA_cs_head=_I16, stride_dA_cs_csize=_I1)
SIG_CS = pg.SIG_CS
# varlen: batch 1 of 4 sequences (cu_seqlens int32) over 2048 tokens
SIG_CSV = _sig(x_ptr="*fp16:16", b_ptr="*fp16:16", dt_ptr="*fp32:16",
               dA_cumsum_ptr="*fp32:16", chunk_states_ptr="*fp16:16",
               cu_seqlens_ptr="*i32:16", states_ptr="*fp16:16", hdim=_I16,
               dstate=_I16, chunk_size=_I16, seqlen=_I16,
               nheads_ngroups_ratio=_I16, stride_x_seqlen=_I16,
               stride_x_head=_I16, stride_x_hdim=_I1, stride_b_seqlen=_I16,
               stride_b_head=_I16, stride_b_dstate=_I1, stride_dt_chunk=_I16,
               stride_dt_head=_I16, stride_dt_csize=_I1,
               stride_dA_cs_chunk=_I16, stride_dA_cs_head=_I16,
               stride_dA_cs_csize=_I1, stride_chunk_states_chunk=_I16,
               stride_chunk_states_head=_I16, stride_chunk_states_hdim=_I16,
               stride_chunk_states_dstate=_I1, stride_states_batch=_I16,
               stride_states_head=_I16, stride_states_hdim=_I16,
               stride_states_dstate=_I1)
# state passing over (b, 8, 80, 64 * 128); dA_cumsum[:, :, :, -1] starts at
# element 255 (not 16-byte aligned); no initial states or seq_idx (0s)
SIG_SP = _sig(states_ptr="*fp32:16", out_ptr="*fp16:16",
              final_states_ptr="*fp32:16", dA_cs_ptr="*fp32",
              initstates_ptr="*fp32:16", seq_idx_ptr="*i32:16", dim=_I16,
              nchunks=_I, seqlen=_I16, chunk_size=_I16,
              stride_states_batch=_I16, stride_states_chunk=_I16,
              stride_states_head=_I16, stride_states_dim=_I1,
              stride_out_batch=_I16, stride_out_chunk=_I16,
              stride_out_head=_I16, stride_out_dim=_I1,
              stride_final_states_batch=_I16, stride_final_states_head=_I16,
              stride_final_states_dim=_I1, stride_dA_cs_batch=_I16,
              stride_dA_cs_chunk=_I16, stride_dA_cs_head=_I16,
              stride_initstates_batch=_I16, stride_initstates_head=_I16,
              stride_initstates_dim=_I16, stride_seq_idx_batch=_I16,
              stride_seq_idx_seqlen=_I16)
# CB = C B^T of the 1 group: a = C, b = B (4-D, stride(2) = 128)
SIG_BMM = _sig(a_ptr="*fp16:16", b_ptr="*fp16:16", out_ptr="*fp32:16",
               seq_idx_ptr="*i32:16", seqlen=_I16, chunk_size=_I16, K=_I16,
               ngroups=_I1, stride_a_batch=_I16, stride_a_seqlen=_I16,
               stride_a_head=_I16, stride_ak=_I1, stride_b_batch=_I16,
               stride_b_seqlen=_I16, stride_b_head=_I16, stride_bk=_I1,
               stride_out_batch=_I16, stride_out_chunk=_I16,
               stride_out_head=_I16, stride_outm=_I16, stride_outn=_I1,
               stride_seq_idx_batch=_I16, stride_seq_idx_seqlen=_I16)
_CSCAN = dict(cb_ptr="*fp32:16", x_ptr="*fp16:16", z_ptr="*fp16:16",
              out_ptr="*fp16:16", out_x_ptr="*fp16:16", dt_ptr="*fp32:16",
              dA_cumsum_ptr="*fp32:16", seq_idx_ptr="*i32:16",
              C_ptr="*fp16:16")
_CSCAN2 = dict(prev_states_ptr="*fp16:16", D_ptr="*fp32:16", chunk_size=_I16,
               hdim=_I16, dstate=_I16, batch=_I16, seqlen=_I16,
               nheads_ngroups_ratio=_I16, stride_cb_batch=_I16,
               stride_cb_chunk=_I16, stride_cb_head=_I16,
               stride_cb_csize_m=_I16, stride_cb_csize_k=_I1,
               stride_x_batch=_I16, stride_x_seqlen=_I16, stride_x_head=_I16,
               stride_x_hdim=_I1, stride_z_batch=_I16, stride_z_seqlen=_I16,
               stride_z_head=_I16, stride_z_hdim=_I1, stride_out_batch=_I16,
               stride_out_seqlen=_I16, stride_out_head=_I16,
               stride_out_hdim=_I1, stride_dt_batch=_I16,
               stride_dt_chunk=_I16, stride_dt_head=_I16, stride_dt_csize=_I1,
               stride_dA_cs_batch=_I16, stride_dA_cs_chunk=_I16,
               stride_dA_cs_head=_I16, stride_dA_cs_csize=_I1,
               stride_seq_idx_batch=_I16, stride_seq_idx_seqlen=_I16,
               stride_C_batch=_I16, stride_C_seqlen=_I16, stride_C_head=_I16,
               stride_C_dstate=_I1)
_CSCAN3 = dict(stride_states_batch=_I16, stride_states_chunk=_I16,
               stride_states_head=_I16, stride_states_hdim=_I16,
               stride_states_dstate=_I1, stride_D_head=_I1)
SIG_SCAN = _sig(**_CSCAN, **_CSCAN2, **_CSCAN3)
SIG_WIP = _sig(**_CSCAN, B_ptr="*fp16:16", **_CSCAN2, stride_B_batch=_I16,
               stride_B_seqlen=_I16, stride_B_head=_I16, stride_B_dstate=_I1,
               **_CSCAN3)
SIG_SSU2, SIG_SSU1 = pg.SIG_SSU2, pg.SIG_SSU1
# RMSNormGated over (b * l, 5120), 1 group; z a slice of zxbcdt (row 10576)
SIG_LN = _sig(X="*fp16:16", Y="*fp16:16", W="*fp32:16", B="*fp32:16",
              Z="*fp16:16", Mean="*fp32:16", Rstd="*fp32:16",
              stride_x_row=_I16, stride_y_row=_I16, stride_z_row=_I16,
              M=_I16, N=_I16, eps="fp32")

_SCAN = ("IS_CAUSAL=True HAS_D=True D_HAS_HDIM=False HAS_Z=True "
         "HAS_SEQ_IDX=False BLOCK_SIZE_DSTATE=128 IS_TRITON_22=True ")
_SSU = "DT_SOFTPLUS=True HAS_DT_BIAS=True HAS_D=True "
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature); the
    # first autotune config of each, plus the ones noted; unset num_warps /
    # num_stages are Triton's defaults, 4 and 3
    ("chunk_cumsum H=1 (cs 256)", TILE, "_chunk_cumsum_fwd_kernel",
     "DT_SOFTPLUS=True HAS_DT_BIAS=True BLOCK_SIZE_H=1 BLOCK_SIZE_CHUNK=256",
     4, 3, SIG_CUMSUM),
    ("chunk_cumsum H=16 (cs 256)", TILE, "_chunk_cumsum_fwd_kernel",
     "DT_SOFTPLUS=True HAS_DT_BIAS=True BLOCK_SIZE_H=16 BLOCK_SIZE_CHUNK=256",
     4, 3, SIG_CUMSUM),
    ("chunk_state 128x256x64", TILE, "_chunk_state_fwd_kernel",
     "HAS_SEQ_IDX=False BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64",
     8, 3, SIG_CS),
    ("chunk_state 64x128x32", TILE, "_chunk_state_fwd_kernel",
     "HAS_SEQ_IDX=False BLOCK_SIZE_M=64 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32",
     4, 4, SIG_CS),
    ("chunk_state_varlen 128x256x64", TILE, "_chunk_state_varlen_kernel",
     "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64", 8, 3, SIG_CSV),
    ("state_passing 64", TILE, "_state_passing_fwd_kernel",
     "HAS_INITSTATES=False HAS_SEQ_IDX=False BLOCK_SIZE=64", 4, 3, SIG_SP),
    ("state_passing 2048", TILE, "_state_passing_fwd_kernel",
     "HAS_INITSTATES=False HAS_SEQ_IDX=False BLOCK_SIZE=2048", 4, 3, SIG_SP),
    ("bmm_chunk 128x256x64", TILE, "_bmm_chunk_fwd_kernel",
     "IS_CAUSAL=False dot_dtype=tl.float16 HAS_SEQ_IDX=False "
     "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64", 8, 3, SIG_BMM),
    ("bmm_chunk 64x64x32", TILE, "_bmm_chunk_fwd_kernel",
     "IS_CAUSAL=False dot_dtype=tl.float16 HAS_SEQ_IDX=False "
     "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32", 2, 4, SIG_BMM),
    ("chunk_scan 128x256x64", TILE, "_chunk_scan_fwd_kernel",
     _SCAN + "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64", 8, 3,
     SIG_SCAN),
    ("chunk_scan 64x128x64", TILE, "_chunk_scan_fwd_kernel",
     _SCAN + "BLOCK_SIZE_M=64 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64", 4, 4,
     SIG_SCAN),
    ("chunk_scan 64x64x32", TILE, "_chunk_scan_fwd_kernel",
     _SCAN + "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32", 2, 4,
     SIG_SCAN),
    ("chunk_scan_wip N=64", TILE, "_chunk_scan_fwd_kernel_wip",
     "HAS_D=True D_HAS_HDIM=False HAS_Z=True HAS_SEQ_IDX=False "
     "BLOCK_SIZE_DSTATE=128 BLOCK_SIZE_M=128 BLOCK_SIZE_N=64", 4, 4,
     SIG_WIP),
    ("mamba2 selective_state_update", TILE, "_selective_scan_update_kernel",
     _SSU + "TIE_HDIM=True BLOCK_SIZE_M=4 HAS_Z=False "
     "HAS_STATE_BATCH_INDICES=False BLOCK_SIZE_DSTATE=128", 4, 1, SIG_SSU2),
    ("mamba1 selective_state_update", TILE, "_selective_scan_update_kernel",
     _SSU + "TIE_HDIM=False BLOCK_SIZE_M=32 HAS_Z=True "
     "HAS_STATE_BATCH_INDICES=False BLOCK_SIZE_DSTATE=16", 4, 1, SIG_SSU1),
    ("rmsnorm_gated N=5120 (BLOCK_N 8192)", TILE,
     "_layer_norm_fwd_1pass_kernel", "BLOCK_N=8192 HAS_BIAS=False HAS_Z=True "
     "NORM_BEFORE_GATE=False IS_RMS_NORM=True", 8, 3, SIG_LN),
]

# every @autotune config (tilec --all-configs): kernel, defines, signature
ALL_CONFIGS = [
    ("_bmm_chunk_fwd_kernel", "IS_CAUSAL=False dot_dtype=tl.float16 "
     "HAS_SEQ_IDX=False", SIG_BMM),
    ("_chunk_cumsum_fwd_kernel", "DT_SOFTPLUS=True HAS_DT_BIAS=True "
     "BLOCK_SIZE_CHUNK=256", SIG_CUMSUM),
    ("_chunk_state_fwd_kernel", "HAS_SEQ_IDX=False", SIG_CS),
    ("_chunk_state_varlen_kernel", "", SIG_CSV),
    ("_state_passing_fwd_kernel", "HAS_INITSTATES=False HAS_SEQ_IDX=False",
     SIG_SP),
    ("_chunk_scan_fwd_kernel", _SCAN.strip(), SIG_SCAN),
    ("_chunk_scan_fwd_kernel_wip", "HAS_D=True D_HAS_HDIM=False HAS_Z=True "
     "HAS_SEQ_IDX=False BLOCK_SIZE_DSTATE=128 BLOCK_SIZE_M=128", SIG_WIP),
]


def all_configs():
    """ptxas registers and spills of every autotune config, as written and
    with the JIT facts."""
    print("\nEvery @autotune config (sm_90a; registers, spill stores/loads "
          "bytes): as written | with JIT facts")
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, defs, sig in ALL_CONFIGS:
            rows = {}
            for mode in ("written", "facts"):
                ptx = os.path.join(tmp, "k.ptx")
                cmd = [ps.TILEC, TILE, "-k", kernel, "--all-configs"]
                for d in defs.split():
                    cmd += ["-D", d]
                if mode == "facts":
                    cmd += ["--signature", sig]
                p = subprocess.run(cmd + ["-o", ptx], capture_output=True,
                                   text=True)
                if p.returncode:
                    print(f"  {kernel} [{mode}]: tilec FAILED\n{p.stderr}")
                    continue
                meta = __import__("json").load(open(ptx + ".json")) \
                    if os.path.exists(ptx + ".json") else \
                    __import__("json").load(open(ptx[:-4] + ".json"))
                p = subprocess.run([ps.PTXAS, "-arch=sm_90a", "-v", ptx, "-o",
                                    os.path.join(tmp, "k.cubin")],
                                   capture_output=True, text=True)
                for m in re.finditer(
                        r"Compiling entry function '(\w+)'.*?\n.*?(\d+) bytes "
                        r"spill stores, (\d+) bytes spill loads\n.*?Used "
                        r"(\d+) registers", p.stderr, re.S):
                    rows.setdefault(m.group(1), {})[mode] = (
                        m.group(4), m.group(2), m.group(3))
                for mt in meta:
                    rows.setdefault(mt["kernel"], {})["cfg"] = (
                        " ".join(f"{k}={v}" for k, v in
                                 mt["constexprs"].items()
                                 if k.startswith("BLOCK")) +
                        f" w{mt['num_warps']} s{mt['num_stages']}")
            for name in sorted(rows, key=lambda n: int(n.rsplit("_", 1)[1])):
                r = rows[name]
                cell = " | ".join(
                    f"{r[m][0]} regs, spill {r[m][1]}/{r[m][2]}" if m in r
                    else "?" for m in ("written", "facts"))
                print(f"  {name} ({r.get('cfg', '?')}): {cell}", flush=True)


CPU_TESTS = (chunk_cumsum, chunk_state_varlen, state_passing,
             bmm_chunk, chunk_scan, chunk_scan_wip, selective_state_update,
             layernorm_gated)

if __name__ == "__main__":
    if "--only" in sys.argv and sys.argv[sys.argv.index("--only") + 1] == \
            "all_configs":
        all_configs()
        sys.exit(0)
    pg.main(CPU_TESTS, GPU_BUILDS)
