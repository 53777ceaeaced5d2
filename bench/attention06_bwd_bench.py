"""Triton's tutorial 06 attention backward (examples/attention_bwd_tutorial06
.tile: _attn_bwd_preprocess + _attn_bwd) compiled by tilec, against the same
source under Triton 3.6 and torch's flash-attention backward, fp16, causal
(the tutorial's backward is causal only), Z=4, H=32, head dims 64 and 128.
Driven as the tutorial's host code drives it (K pre-scaled by sm_scale /
ln 2; M the forward's base-2 log-sum-exp). Each tilec build is checked
first: dQ, dK, dV of two heads against float64 gradients; then the
fastest correct tilec build, Triton (4 warps, 5 stages, as the tutorial
launches it) and torch are timed in 5 interleaved rounds (CUDA graphs;
medians of per-round ratios).

usage: bash bench/build_attention06_bwd.sh (here), then on the GPU
       python3 bench/attention06_bwd_bench.py .carry/attention06_bwd [LOG]
       (with --profile: one tilec and one Triton run at D=64, N=4096, for
       bench/profile_attention_bwd.sh; with --sass: Triton's SASS)
"""
import glob
import math
import os
import statistics
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, rel_error, logger

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
RCP_LN2 = 1.4426950408889634
BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, BLK_SLICE_FACTOR = 32, 128, 128, 32, 2
PRE_BLOCK = 128


# --- the tutorial's kernels, as Triton compiles them ------------------------

@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, Z, H, N_CTX,
                         BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    o = tl.load(O + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :])
    do = tl.load(DO + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :]).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


@triton.jit
def _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr,
                   start_n, start_m, num_steps, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    curr_m = start_m
    step_m = BLOCK_M1
    for blk_idx in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        if MASK:
            mask = (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        ppT = pT
        ppT = ppT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += step_m
        qT_ptrs += step_m * stride_tok
        do_ptrs += step_m * stride_tok
    return dk, dv


@triton.jit
def _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr,
                 start_m, start_n, num_steps, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    Di = tl.load(D + offs_m)
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    curr_n = start_n
    step_n = BLOCK_N2
    for blk_idx in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            mask = (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(mask, p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        ds = ds.to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += step_n
        kT_ptrs += step_n * stride_tok
        vT_ptrs += step_n * stride_tok
    return dq


@triton.jit
def _attn_bwd(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D,
              stride_z, stride_h, stride_tok, stride_d, H, N_CTX,
              BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
              BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
              BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz
    offs_k = tl.arange(0, HEAD_DIM)
    start_n = pid * BLOCK_N1
    start_m = start_n
    MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    num_steps = BLOCK_N1 // MASK_BLOCK_M1
    dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,
                            MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps, MASK=True)
    start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, sm_scale, DO, M, D, stride_tok, stride_d, H, N_CTX,
                            BLOCK_M1, BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps, MASK=False)
    dv_ptrs = DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dv_ptrs, dv)
    dk *= sm_scale
    dk_ptrs = DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dk_ptrs, dk)
    start_m = pid * BLOCK_M2
    end_n = start_m + BLOCK_M2
    MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    m = tl.load(M + offs_m)
    m = m[:, None]
    num_steps = BLOCK_M2 // MASK_BLOCK_N2
    dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,
                      BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM, start_m, end_n - num_steps * MASK_BLOCK_N2,
                      num_steps, MASK=True)
    end_n -= num_steps * MASK_BLOCK_N2
    num_steps = end_n // BLOCK_N2
    dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, H, N_CTX,
                      BLOCK_M2, BLOCK_N2, HEAD_DIM, start_m, end_n - num_steps * BLOCK_N2,
                      num_steps, MASK=False)
    dq_ptrs = DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    dq *= LN2
    tl.store(dq_ptrs, dq)


# --- drivers ---------------------------------------------------------------

def triton_backward(q, arg_k, v, o, do, dq, dk, dv, M, delta, scale):
    Z, H, N, D = q.shape
    _attn_bwd_preprocess[(N // PRE_BLOCK, Z * H)](
        o, do, delta, Z, H, N, BLOCK_M=PRE_BLOCK, HEAD_DIM=D)
    return _attn_bwd[(N // BLOCK_N1, 1, Z * H)](
        q, arg_k, v, scale, do, dq, dk, dv, M, delta,
        q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N,
        BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1, BLOCK_M2=BLOCK_M2,
        BLOCK_N2=BLOCK_N2, BLK_SLICE_FACTOR=BLK_SLICE_FACTOR, HEAD_DIM=D,
        num_warps=4, num_stages=5)


def tilec_backward(pre, bwd, q, arg_k, v, o, do, dq, dk, dv, M, delta, scale):
    Z, H, N, D = q.shape
    launch_pre = pre.bind(o, do, delta, Z, H, N)
    launch_bwd = bwd.bind(q, arg_k, v, scale, do, dq, dk, dv, M, delta,
                          q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                          H, N, grid=(N // BLOCK_N1, 1, Z * H))

    def run():
        launch_pre()
        launch_bwd()
    return run


def reference(q, k, v, do, scale, heads):
    """float64 dQ, dK, dV of causal attention for the first `heads` heads."""
    q, k, v, do = (x[0, :heads].double().requires_grad_() for x in (q, k, v, do))
    n = q.shape[-2]
    s = q @ k.transpose(-1, -2) * scale
    s = s.masked_fill(torch.ones(n, n, device="cuda").tril() == 0, float("-inf"))
    (torch.softmax(s, -1) @ v).backward(do)
    return q.grad, k.grad, v.grad


def main():
    summary = []
    Z, H = 4, 32
    for D in [64, 128]:
        pre = Kernel(DIR, f"pre_d{D}")
        builds = [Kernel(DIR, os.path.basename(p)[:-5]) for p in
                  sorted(glob.glob(f"{DIR}/bwd_d{D}_w*.json"))]
        for N in [1024, 4096]:
            torch.manual_seed(N + D)
            q, k, v = (torch.empty(Z, H, N, D, device="cuda", dtype=torch.float16)
                       .normal_(0.0, 0.5) for _ in range(3))
            do = torch.randn_like(q)
            scale = 0.5
            fwd = torch.ops.aten._scaled_dot_product_flash_attention(
                q, k, v, 0.0, True, False, scale=scale)
            o, lse = fwd[0], fwd[1]
            M = (lse / math.log(2)).contiguous()
            arg_k = k * (scale * RCP_LN2)
            delta = torch.empty_like(M)
            grads = [torch.empty_like(q) for _ in range(3)]
            refs = reference(q, k, v, do, scale, 2)
            ok = []
            for b in builds:
                for g in grads:
                    g.fill_(float("nan"))
                tilec_backward(pre, b, q, arg_k, v, o, do, *grads, M, delta,
                               scale)()
                torch.cuda.synchronize()
                errs = [rel_error(g[0, :2], r) for g, r in zip(grads, refs)]
                log(f"  check D={D} N={N} {b.md['kernel']} w{b.md['num_warps']}: "
                    "dq/dk/dv rel_err " + " ".join(f"{e:.2e}" for e in errs))
                if max(errs) <= 1e-2:
                    ok.append(b)
            tgrads = [torch.empty_like(q) for _ in range(3)]
            compiled = triton_backward(q, arg_k, v, o, do, *tgrads, M,
                                       delta.clone(), scale)
            torch.cuda.synchronize()
            errs = [rel_error(g[0, :2], r) for g, r in zip(tgrads, refs)]
            log("  check triton: dq/dk/dv rel_err " +
                " ".join(f"{e:.2e}" for e in errs) +
                f" (registers {compiled.n_regs}, spills {compiled.n_spills})")
            if len(ok) != len(builds):
                log(f"FAIL D={D} N={N}: a tilec build is wrong")
                summary.append((D, N, None, None))
                continue
            runs = {b: tilec_backward(pre, b, q, arg_k, v, o, do, *grads, M,
                                      delta, scale) for b in ok}
            build_ms = {b: graph_ms(runs[b]) for b in ok}
            for b, ms in build_ms.items():
                log(f"  build {b.name}: {ms:.3f} ms")
            best = min(ok, key=build_ms.get)
            tdelta = delta.clone()
            fns = {"tilec": runs[best],
                   "triton": lambda: triton_backward(q, arg_k, v, o, do,
                                                     *tgrads, M, tdelta, scale),
                   "torch": lambda: torch.ops.aten._scaled_dot_product_flash_attention_backward(
                       do, q, k, v, o, fwd[1], fwd[2], fwd[3], fwd[4], fwd[5],
                       0.0, True, fwd[6], fwd[7], scale=scale)}
            times = {name: [] for name in fns}
            for _ in range(5):
                for name, fn in fns.items():
                    times[name].append(graph_ms(fn))
            flops = 2.5 * 4 * Z * H * N * N * D * 0.5
            med = {n: statistics.median(t) for n, t in times.items()}
            vs_torch = statistics.median(
                s / t for t, s in zip(times["tilec"], times["torch"]))
            vs_triton = statistics.median(
                s / t for t, s in zip(times["tilec"], times["triton"]))
            log(f"D={D} causal N={N}: tilec "
                f"{flops / med['tilec'] / 1e9:.0f} TFLOP/s (w{best.md['num_warps']}), "
                f"torch {flops / med['torch'] / 1e9:.0f}, triton "
                f"{flops / med['triton'] / 1e9:.0f}; "
                f"{vs_torch:.2f}x torch, {vs_triton:.2f}x Triton")
            summary.append((D, N, vs_torch, vs_triton))
    log("\nD, N, tilec/torch, tilec/Triton (causal backward)")
    for row in summary:
        log("  " + ", ".join(f"{x:.2f}" if isinstance(x, float) else str(x)
                             for x in row))


def profile_once(D=64, N=4096, Z=4, H=32):
    """One tilec and one Triton backward (under ncu: --profile)."""
    torch.manual_seed(0)
    q, k, v, do = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
                   for _ in range(4))
    scale = 0.5
    fwd = torch.ops.aten._scaled_dot_product_flash_attention(
        q, k, v, 0.0, True, False, scale=scale)
    o, M = fwd[0], (fwd[1] / math.log(2)).contiguous()
    arg_k = k * (scale * RCP_LN2)
    delta = torch.empty_like(M)
    grads = [torch.empty_like(q) for _ in range(3)]
    tilec_backward(Kernel(DIR, f"pre_d{D}"), Kernel(DIR, f"bwd_d{D}_w4"), q,
                   arg_k, v, o, do, *grads, M, delta, scale)()
    triton_backward(q, arg_k, v, o, do, *grads, M, delta, scale)
    torch.cuda.synchronize()


if "--profile" in sys.argv:
    profile_once()
elif "--sass" in sys.argv:
    # Triton's SASS of _attn_bwd at the tutorial's configuration, to put
    # beside tilec's (cuobjdump of the carried PTX, assembled here).
    D, N = 64, 1024
    q = torch.randn(1, 1, N, D, device="cuda", dtype=torch.float16)
    M = torch.zeros(1, 1, N, device="cuda")
    g = [torch.empty_like(q) for _ in range(3)]
    compiled = triton_backward(q, q, q, q, q, *g, M, M.clone(), 0.5)
    print(compiled.asm["sass"])
else:
    main()
