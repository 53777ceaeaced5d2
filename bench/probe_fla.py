"""A flash-linear-attention style chunk kernel (bench/kernels/fla_chunk_fwd.tile)
against Triton 3.6 compiling the same source: float64 reference first,
then medians of 5 interleaved rounds (graph-replayed launches).

usage: python3 bench/probe_fla.py DIR   (DIR holds fla.ptx and fla_jit.ptx:
       the kernel as written and with the JIT's facts; see NOTES)
"""
import statistics
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, rel_error

DIR = sys.argv[1]
BT = BK = BV = 64
K = V = 128


@triton.jit
def chunk_fwd(q, k, v, g, o, scale, T, BH,
              BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, K: tl.constexpr, V: tl.constexpr):
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    o_i = tl.arange(0, BT)
    m_s = o_i[:, None] >= o_i[None, :]
    b_o = tl.zeros([BT, BV], dtype=tl.float32)
    b_s = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_q = tl.make_block_ptr(q + i_bh * T * K, (T, K), (K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_k = tl.make_block_ptr(k + i_bh * T * K, (K, T), (1, K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_q = (b_q * scale).to(b_q.dtype)
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_s += tl.dot(b_q, b_k, allow_tf32=False)
    p_g = tl.make_block_ptr(g + i_bh * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,))
    b_s = b_s * tl.exp(b_g[:, None] - b_g[None, :])
    b_s = tl.where(m_s, b_s, 0)
    p_v = tl.make_block_ptr(v + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_o += tl.dot(b_s.to(b_v.dtype), b_v, allow_tf32=False)
    p_o = tl.make_block_ptr(o + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def reference(q, k, v, g, scale, T):
    BH = q.shape[0]
    qs = (q * scale).to(torch.float16).double().view(BH, T // BT, BT, K)
    kk = k.double().view(BH, T // BT, BT, K)
    vv = v.double().view(BH, T // BT, BT, V)
    gg = g.double().view(BH, T // BT, BT)
    s = qs @ kk.transpose(-1, -2) * torch.exp(gg[..., :, None] - gg[..., None, :])
    s = torch.where(torch.ones(BT, BT, device=q.device).tril().bool(), s, 0)
    return (s.to(torch.float16).double() @ vv).view(BH, T, V)


torch.manual_seed(0)
for BH, T in [(64, 4096), (16, 1000)]:
    q = torch.randn(BH, T, K, device="cuda", dtype=torch.float16)
    k = torch.randn(BH, T, K, device="cuda", dtype=torch.float16)
    v = torch.randn(BH, T, V, device="cuda", dtype=torch.float16)
    g = (-torch.rand(BH, T, device="cuda") * 0.1).cumsum(-1)
    scale = K ** -0.5
    ref = reference(q, k, v, g, scale, T) if T % BT == 0 else None
    grid = (V // BV, triton.cdiv(T, BT), BH)
    outs, fns = [], []
    for name in ["fla", "fla_jit"]:
        kern = Kernel(DIR, name)
        out = torch.full_like(v, float("nan"))
        args = (q, k, v, g, out, scale, T, BH)
        if not kern.accepts(*args):
            continue
        fns.append((name, kern.bind(*args)))
        outs.append((name, out))
    o_t = torch.full_like(v, float("nan"))
    fns.append(("triton", lambda: chunk_fwd[grid](q, k, v, g, o_t, scale, T, BH,
                                                  BT=BT, BK=BK, BV=BV, K=K, V=V)))
    outs.append(("triton", o_t))
    for _, f in fns:
        f()
    torch.cuda.synchronize()
    base = outs[-1][1].double()
    for name, out in outs:
        err = rel_error(out, ref) if ref is not None else rel_error(out, base)
        print(f"check BH={BH} T={T} {name}: rel_err={err:.2e} "
              f"({'vs float64' if ref is not None else 'vs Triton'}) "
              f"{'ok' if err < 2e-3 else 'FAIL'}", flush=True)
        if not err < 2e-3:
            sys.exit(1)
    rounds = [[graph_ms(f) for _, f in fns] for _ in range(5)]
    for i, (name, _) in enumerate(fns):
        ms = statistics.median(r[i] for r in rounds)
        vs = statistics.median(r[-1] / r[i] for r in rounds)
        print(f"BH={BH} T={T} {name:8s} {ms * 1000:8.1f} us  vs Triton {vs:.3f}x",
              flush=True)
