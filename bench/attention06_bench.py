"""Triton's tutorial 06 attention forward (examples/attention_tutorial06.tile)
compiled by tilec, against the same source under Triton 3.6 and torch's
scaled_dot_product_attention (flash backend), fp16, Z=4, H=32, head dims
64 and 128, causal and not. Every tilec config is checked against float64
first (two heads of the first batch element); then the fastest tilec
config, Triton (autotuned over the same configs) and SDPA are timed in 5
interleaved rounds (CUDA graphs; medians of per-round ratios).

usage: bash bench/build_attention06.sh (here), then on the GPU
       python3 bench/attention06_bench.py .carry/attention06 [LOG]
           [--baseline DIR] [--published] [--head-dim D]
With --baseline, DIR's kernels (another build, e.g. OUT=... TILEC=...
bash bench/build_attention06.sh) are checked too and their fastest config
joins the interleaved rounds: the log then gives tilec/baseline as well.
"""
import glob
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, rel_error, logger

ARGS = sys.argv[1:]
# --published: Triton tunes over the tutorial's own configs (a build with
# PUBLISHED=1 gives tilec the same).
PUBLISHED = "--published" in ARGS
if PUBLISHED:
    ARGS.remove("--published")
HEAD_DIMS = [64, 128]
if "--head-dim" in ARGS:
    i = ARGS.index("--head-dim")
    HEAD_DIMS = [int(ARGS[i + 1])]
    del ARGS[i:i + 2]
BASELINE = None
if "--baseline" in ARGS:
    i = ARGS.index("--baseline")
    BASELINE = ARGS[i + 1]
    del ARGS[i:i + 2]
DIR = ARGS[0]
log = logger(ARGS[1] if len(ARGS) > 1 else None)



CONFIGS = [triton.Config({"BLOCK_M": m, "BLOCK_N": n}, num_stages=3, num_warps=w)
           for m, n, w in [(128, 64, 8), (128, 64, 4), (64, 64, 4), (128, 128, 8)]]


def _prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK_N"] <= kwargs["HEAD_DIM"]]


if PUBLISHED:
    # The tutorial's own list, filter and prune (Triton 3.6, on Hopper).
    CONFIGS = [triton.Config({"BLOCK_M": BM, "BLOCK_N": BN}, num_stages=s,
                             num_warps=w)
               for BM in [64, 128] for BN in [32, 64, 128]
               for s in [2, 3, 4] for w in [4, 8]
               if not (BM * BN < 128 * 128 and w == 8)]

    def _prune(configs, named_args, **kwargs):
        args = {**named_args, **kwargs}  # N_CTX is passed by position here
        N_CTX, STAGE = args["N_CTX"], args["STAGE"]
        return [c for c in configs
                if c.kwargs["BLOCK_N"] <= kwargs["HEAD_DIM"]
                and c.kwargs["BLOCK_M"] <= N_CTX
                and (c.kwargs["BLOCK_M"] >= c.kwargs["BLOCK_N"] or STAGE == 1)]


# --- the tutorial's kernel, as Triton compiles it --------------------------

@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype: tl.constexpr, start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                    offs_m: tl.constexpr, offs_n: tl.constexpr, N_CTX: tl.constexpr, warp_specialize: tl.constexpr,
                    IS_HOPPER: tl.constexpr):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    offsetk_y = offset_y + lo
    if dtype == tl.float8e5:
        offsetv_y = offset_y * HEAD_DIM + lo
    else:
        offsetv_y = offset_y + lo
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=warp_specialize):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([offsetk_y, 0]).T
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        if not IS_HOPPER and warp_specialize and BLOCK_M == 128 and HEAD_DIM == 128:
            BM: tl.constexpr = acc.shape[0]
            BN: tl.constexpr = acc.shape[1]
            acc0, acc1 = acc.reshape([BM, 2, BN // 2]).permute(0, 2, 1).split()
            acc0 = acc0 * alpha[:, None]
            acc1 = acc1 * alpha[:, None]
            acc = tl.join(acc0, acc1).permute(0, 2, 1).reshape([BM, BN])
        else:
            acc = acc * alpha[:, None]
        if dtype == tl.float8e5:
            v = desc_v.load([0, offsetv_y]).T
        else:
            v = desc_v.load([offsetv_y, 0])
        p = p.to(dtype)
        acc = tl.dot(p, v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def _maybe_make_tensor_desc(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.autotune(configs=CONFIGS, key=['N_CTX', 'HEAD_DIM', 'STAGE'], prune_configs_by={'early_config_prune': _prune})
@triton.jit
def _attn_fwd(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o,
                 N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 FP8_OUTPUT: tl.constexpr, STAGE: tl.constexpr, warp_specialize: tl.constexpr,
                 IS_HOPPER: tl.constexpr):
    dtype = tl.float8e5 if FP8_OUTPUT else tl.float16
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H

    y_dim = Z * H * N_CTX
    desc_q = _maybe_make_tensor_desc(desc_q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1],
                                     block_shape=[BLOCK_M, HEAD_DIM])
    if FP8_OUTPUT:
        desc_v = _maybe_make_tensor_desc(desc_v, shape=[HEAD_DIM, y_dim], strides=[N_CTX, 1],
                                         block_shape=[HEAD_DIM, BLOCK_N])
    else:
        desc_v = _maybe_make_tensor_desc(desc_v, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1],
                                         block_shape=[BLOCK_N, HEAD_DIM])
    desc_k = _maybe_make_tensor_desc(desc_k, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1],
                                     block_shape=[BLOCK_N, HEAD_DIM])
    desc_o = _maybe_make_tensor_desc(desc_o, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1],
                                     block_shape=[BLOCK_M, HEAD_DIM])

    offset_y = off_z * (N_CTX * H) + off_h * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([qo_offset_y, 0])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX,
                                        warp_specialize, IS_HOPPER)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, N_CTX,
                                        warp_specialize, IS_HOPPER)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    m_ptrs = M + off_hz * N_CTX + offs_m
    tl.store(m_ptrs, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(dtype))


triton.set_allocator(lambda size, alignment, stream:
                     torch.empty(size, device="cuda", dtype=torch.int8))


def triton_attention(q, k, v, o, m, causal, scale):
    Z, H, N, D = q.shape
    grid = lambda META: (triton.cdiv(N, META["BLOCK_M"]), Z * H, 1)
    _attn_fwd[grid](scale, m, Z, H, q, k, v, o, N, HEAD_DIM=D, FP8_OUTPUT=False,
                    STAGE=3 if causal else 1, warp_specialize=False,
                    IS_HOPPER=True)


def main():
    summary = []
    Z, H = 4, 32
    for D in HEAD_DIMS:
        for causal in [False, True]:
            stage = 3 if causal else 1
            def load(folder):
                kernels = []
                for p in sorted(glob.glob(f"{folder}/attn_d{D}_s{stage}_*.json")):
                    name = os.path.basename(p)[:-5]
                    md = json.load(open(p))
                    # A build of every config (--all-configs): one entry each.
                    for i in range(len(md)) if isinstance(md, list) else [None]:
                        kernels.append(Kernel(folder, name, i))
                return kernels
            kernels = load(DIR)
            baseline = load(BASELINE) if BASELINE else []
            for N in [1024, 4096]:
                torch.manual_seed(N + D + stage)
                q, k, v = (torch.randn(Z, H, N, D, device="cuda",
                                       dtype=torch.float16) * 0.5
                           for _ in range(3))
                o = torch.empty_like(q)
                m = torch.empty(Z, H, N, device="cuda")
                scale = D ** -0.5
                qd, kd, vd = (t[0, :2].double() for t in (q, k, v))
                s = qd @ kd.transpose(-1, -2) * scale
                if causal:
                    s = s.masked_fill(torch.ones(N, N, device="cuda").tril() == 0,
                                      float("-inf"))
                ref = torch.softmax(s, -1) @ vd
                args = (scale, m, Z, H, q, k, v, o, N)
                ok, base_ok = [], []
                for kern in kernels + baseline:
                    o.fill_(float("nan"))
                    kern(*args)
                    torch.cuda.synchronize()
                    err = rel_error(o[0, :2], ref)
                    log(f"  check D={D} causal={causal} N={N} "
                        f"{kern.md['kernel']} {os.path.basename(kern.md.get('source', ''))}"
                        f" cfg={kern.md['constexprs']['BLOCK_M']}x"
                        f"{kern.md['constexprs']['BLOCK_N']} w{kern.md['num_warps']}: "
                        f"rel_err={err:.2e}")
                    if err <= 1e-2:
                        (ok if kern in kernels else base_ok).append(kern)
                o_t = torch.empty_like(q)
                triton_attention(q, k, v, o_t, m.clone(), causal, scale)
                torch.cuda.synchronize()
                log(f"  check triton rel_err={rel_error(o_t[0, :2], ref):.2e}")
                if len(ok) != len(kernels) or len(base_ok) != len(baseline):
                    log(f"FAIL D={D} causal={causal} N={N}: a tilec config is wrong")
                    summary.append((D, causal, N, None, None))
                    continue
                best = min(ok, key=lambda kk: graph_ms(kk.bind(*args)))
                fns = {"tilec": best.bind(*args),
                       "sdpa": lambda: F.scaled_dot_product_attention(
                           q, k, v, is_causal=causal, scale=scale),
                       "triton": lambda: triton_attention(q, k, v, o_t, m, causal,
                                                          scale)}
                if baseline:
                    base = min(base_ok, key=lambda kk: graph_ms(kk.bind(*args)))
                    fns["baseline"] = base.bind(*args)
                times = {name: [] for name in fns}
                for _ in range(5):
                    for name, fn in fns.items():
                        times[name].append(graph_ms(fn))
                flops = 4 * Z * H * N * N * D * (0.5 if causal else 1.0)
                med = {n: statistics.median(t) for n, t in times.items()}
                vs_sdpa = statistics.median(
                    s / t for t, s in zip(times["tilec"], times["sdpa"]))
                vs_triton = statistics.median(
                    s / t for t, s in zip(times["tilec"], times["triton"]))
                log(f"D={D} causal={causal} N={N}: tilec "
                    f"{flops / med['tilec'] / 1e9:.0f} TFLOP/s "
                    f"(BLOCK_M={best.md['constexprs']['BLOCK_M']}, "
                    f"BLOCK_N={best.md['constexprs']['BLOCK_N']}, "
                    f"w{best.md['num_warps']}), sdpa "
                    f"{flops / med['sdpa'] / 1e9:.0f}, triton "
                    f"{flops / med['triton'] / 1e9:.0f}; "
                    f"{vs_sdpa:.2f}x SDPA, {vs_triton:.2f}x Triton" +
                    (f", {statistics.median(b / t for t, b in zip(times['tilec'], times['baseline'])):.3f}x baseline "
                     f"(BLOCK_M={base.md['constexprs']['BLOCK_M']}, "
                     f"BLOCK_N={base.md['constexprs']['BLOCK_N']}, w{base.md['num_warps']})"
                     if baseline else ""))
                summary.append((D, causal, N, vs_sdpa, vs_triton))
    log("\nD, causal, N, tilec/SDPA, tilec/Triton")
    for row in summary:
        log("  " + ", ".join(f"{x:.2f}" if isinstance(x, float) else str(x)
                             for x in row))


main()
