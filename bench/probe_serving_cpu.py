#!/usr/bin/python3
"""Generality probe: serving kernels (bench/kernels/probe_serving*.tile) run
in tilec's CPU mode at small odd sizes against float64 NumPy references,
then compiled for sm_90a as a user would (annotated headers, no
--signature) at the launch settings of the original projects, with ptxas
register / spill counts and SASS instruction counts.

    /usr/bin/python3 bench/probe_serving_cpu.py [--no-gpu-compile] [--only NAME]

Uses TILEC / TILE_RUN from the environment (default build/bin/*).

GPU check: `PROBE_EXPORT=.carry/probe_serving /usr/bin/python3
bench/probe_serving_cpu.py --no-gpu-compile` also compiles every CPU case
for sm_90a (the launch's warps/stages) and saves its inputs and CPU outputs;
then, on the device, `python3 bench/probe_serving_gpu.py
.carry/probe_serving` (carry .carry/probe_serving). On an H100 all cases
agree. (kernl's kernel_fma runs at N=256: at N=70 its
`tl.max_contiguous(tl.multiple_of(n % N, BLOCK_N), BLOCK_N)` hints are
false when the indices wrap; the GPU code trusts them, as Triton does, and
the CPU mode ignores them.)
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TILE = os.path.join(HERE, "kernels", "probe_serving.tile")
TILE_KERNL = os.path.join(HERE, "kernels", "probe_serving_kernl.tile")
BIN = os.path.join(os.path.dirname(HERE), "build", "bin")
TILEC = os.environ.get("TILEC", os.path.join(BIN, "tilec"))
TILE_RUN = os.environ.get("TILE_RUN", os.path.join(BIN, "tile-run"))
PTXAS = "/usr/local/cuda/bin/ptxas"
CUOBJDUMP = ("/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/"
             "nvidia/cu13/bin/cuobjdump")

RESULTS = []


EXPORT = os.environ.get("PROBE_EXPORT")  # a folder: also write GPU cases
_cases = []


def export_case(tile, kernel, defines, grid, args, outs, warps, stages):
    """Compile `kernel` for sm_90a and save its inputs and CPU outputs, for
    bench/probe_serving_gpu.py to run on the device and compare."""
    name = f"case{len(_cases):03d}"
    cmd = [TILEC, tile, "-k", kernel, "--num-warps", str(warps),
           "--num-stages", str(stages), "-o", os.path.join(EXPORT, name + ".ptx")]
    for k, v in defines.items():
        cmd += ["-D", f"{k}={v}"]
    # The arguments' values, for kernels with @triton.heuristics (a buffer
    # is a pointer that is not None).
    for a, v in args.items():
        value = "1" if isinstance(v, np.ndarray) else \
            repr(v) if isinstance(v, float) else str(v)
        cmd += ["--arg", f"{a}={value}"]
    subprocess.run(cmd, check=True)
    case = {"name": name, "kernel": kernel, "grid": list(grid), "args": [],
            "outputs": list(outs), "label": f"{kernel} {defines}"}
    for a, v in args.items():
        if isinstance(v, np.ndarray):
            np.save(os.path.join(EXPORT, f"{name}.{a}.npy"), v)
            case["args"].append({"name": a, "npy": f"{name}.{a}.npy"})
        else:
            case["args"].append({"name": a, "value": v})
    for o, arr in outs.items():
        np.save(os.path.join(EXPORT, f"{name}.{o}.cpu.npy"), arr)
    _cases.append(case)


def run(tile, kernel, defines, grid, args, dumps, warps=4, stages=3):
    """Run `kernel` on the CPU; return {name: array} for `dumps`."""
    res = _run(tile, kernel, defines, grid, args, dumps)
    if EXPORT:
        export_case(tile, kernel, defines, grid, args, res, warps, stages)
    return res


def _run(tile, kernel, defines, grid, args, dumps):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [TILE_RUN, tile, "-k", kernel, "--device", "cpu",
               "--grid", ",".join(str(g) for g in grid)]
        for k, v in defines.items():
            cmd += ["-D", f"{k}={v}"]
        for name, v in args.items():
            if isinstance(v, np.ndarray):
                p = os.path.join(tmp, name + ".npy")
                np.save(p, np.ascontiguousarray(v))
                cmd += ["--arg", f"{name}=file:{p}"]
            else:
                cmd += ["--arg", f"{name}={v!r}" if isinstance(v, float)
                        else f"{name}={v}"]
        outs = {}
        for name in dumps:
            outs[name] = os.path.join(tmp, name + ".out.npy")
            cmd += ["--dump", f"{name}={outs[name]}"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"tile-run failed ({proc.returncode}):\n"
                               f"{' '.join(cmd)}\n{proc.stderr[-3000:]}")
        return {n: np.load(p) for n, p in outs.items()}


def check(name, out, ref, tol, mask=None):
    """Max |out - ref| normalized by max |ref|; fail on NaN or > tol."""
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if mask is not None:
        out, ref = out[mask], ref[mask]
    scale = max(np.abs(ref).max(), 1e-30)
    if np.isnan(out).any():
        err = float("inf")
    else:
        err = float(np.abs(out - ref).max() / scale)
    ok = err <= tol
    RESULTS.append((name, ok, err, tol))
    print(f"{'PASS' if ok else 'FAIL'} {name}: max|err|/max|ref| = "
          f"{err:.3e} (bound {tol:.0e}, max|ref| = {scale:.3g})", flush=True)
    return ok


def guarded(fn):
    def wrapper(*a, **kw):
        try:
            fn(*a, **kw)
        except Exception as e:  # report and go on with the next kernel
            RESULTS.append((fn.__name__, False, float("nan"), 0))
            print(f"FAIL {fn.__name__}: {e}", flush=True)
    wrapper.__name__ = fn.__name__
    return wrapper


def seeded_randn(seed):
    """A randn(*shape, dtype=fp16, scale=1) drawing from its own generator
    (each probe its own seed, so adding cases to one changes no other's)."""
    generator = np.random.default_rng(seed)

    def randn(*shape, dtype=np.float16, scale=1.0):
        return (generator.standard_normal(shape) * scale).astype(dtype)
    return randn


def nan(*shape, dtype=np.float32):
    """An output buffer of NaN: what a kernel leaves unwritten shows."""
    return np.full(shape, np.nan, dtype)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def cdiv(a, b):
    return -(-a // b)


rng = np.random.default_rng(2026)


def randn(*shape, dtype=np.float16, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


# fp16 outputs: ~2^-11 relative rounding of each element plus fp16 operands
# of intermediate dots (attention's P, linear attention's S and state):
FP16_TOL = 4e-3


# --------------------------------------------------------------- 1. MoE
def moe_align_block_size(topk_ids, block_m, num_experts):
    """vLLM's moe_align_block_size, on the host."""
    flat = topk_ids.reshape(-1)
    numel = flat.size
    max_padded = numel + num_experts * (block_m - 1)
    sorted_ids = np.full(max_padded, numel, dtype=np.int32)
    expert_ids = np.zeros(-(-max_padded // block_m), dtype=np.int32)
    pos = 0
    for e in range(num_experts):
        idx = np.nonzero(flat == e)[0]
        n_pad = -(-len(idx) // block_m) * block_m
        sorted_ids[pos:pos + len(idx)] = idx
        expert_ids[pos // block_m:(pos + n_pad) // block_m] = e
        pos += n_pad
    return sorted_ids, expert_ids, np.array([pos], dtype=np.int32)


@guarded
def fused_moe():
    M, K, N, E, topk = 37, 100, 70, 5, 2
    a = randn(M, K)
    w = randn(E, N, K, scale=0.2)
    logits = rng.standard_normal((M, E))
    topk_ids = np.argsort(-logits, axis=1)[:, :topk].astype(np.int32)
    topk_w = rng.uniform(0.1, 1.0, (M, topk)).astype(np.float32)
    for (bm, bn, bk, gm) in [(64, 64, 32, 8), (16, 32, 64, 1)]:
        sorted_ids, expert_ids, ntp = moe_align_block_size(topk_ids, bm, E)
        for mul in (True, False):
            for ep in (False, True):
                eids = expert_ids.copy()
                if ep:  # expert parallelism: expert 3 not on this rank
                    eids[eids == 3] = -1
                EM = sorted_ids.shape[0]
                grid = -(-EM // bm) * -(-N // bn)
                c = np.full((M, topk, N), np.nan, dtype=np.float16)
                args = dict(a_ptr=a, b_ptr=w, c_ptr=c,
                            a_scale_ptr=np.ones(1, np.float32),
                            b_scale_ptr=np.ones(1, np.float32),
                            topk_weights_ptr=topk_w,
                            sorted_token_ids_ptr=sorted_ids,
                            expert_ids_ptr=eids,
                            num_tokens_post_padded_ptr=ntp,
                            N=N, K=K, EM=EM, num_valid_tokens=M * topk,
                            stride_am=K, stride_ak=1, stride_be=N * K,
                            stride_bk=1, stride_bn=K, stride_cm=N,
                            stride_cn=1, stride_asm=0, stride_ask=0,
                            stride_bse=0, stride_bsk=0, stride_bsn=0)
                d = dict(group_n=0, group_k=0, BLOCK_SIZE_M=bm,
                         BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                         MUL_ROUTED_WEIGHT=mul, top_k=topk,
                         compute_type="fp16", use_fp8_w8a8=False,
                         use_int8_w8a8=False, use_int8_w8a16=False,
                         per_channel_quant=False)
                out = run(TILE, "fused_moe_kernel", d, (grid,), args,
                          ["c_ptr"], 4, 3)["c_ptr"]
                ref = np.einsum("mk,mjnk->mjn", a.astype(np.float64),
                                w[topk_ids].astype(np.float64))
                if mul:
                    ref = ref * topk_w[:, :, None]
                if ep:
                    ref[topk_ids == 3] = 0.0
                check(f"fused_moe BM={bm} BN={bn} BK={bk} G={gm} "
                      f"MUL_ROUTED_WEIGHT={mul} expert_-1={ep}",
                      out, ref, FP16_TOL)


# ------------------------------------------------------- 2. flash decoding
def decode_reference(q, kbuf, vbuf, kv_indptr, kv_indices, group, scale,
                     sinks=None, logit_cap=0.0):
    B, H, _ = q.shape
    out = np.zeros((B, H, vbuf.shape[-1]))
    for b in range(B):
        idx = kv_indices[kv_indptr[b]:kv_indptr[b + 1]]
        for h in range(H):
            kk = kbuf[idx, h // group].astype(np.float64)
            vv = vbuf[idx, h // group].astype(np.float64)
            s = kk @ q[b, h].astype(np.float64) * scale
            if logit_cap > 0:
                s = logit_cap * np.tanh(s / logit_cap)
            m = s.max()
            p = np.exp(s - m)
            tot = p.sum()
            if sinks is not None:
                tot += np.exp(sinks[h] - m)
            out[b, h] = p @ vv / tot
    return out


def decode_inputs(B, H, HKV, D, seqlens, splits):
    total = sum(seqlens)
    slots = total + 13
    q = randn(B, H, D)
    kbuf = randn(slots, HKV, D)
    vbuf = randn(slots, HKV, D)
    kv_indptr = np.zeros(B + 1, np.int32)
    kv_indptr[1:] = np.cumsum(seqlens)
    kv_indices = rng.permutation(slots)[:total].astype(np.int32)  # page table
    return q, kbuf, vbuf, kv_indptr, kv_indices, np.array(splits, np.int32)


@guarded
def decode_attention():
    D = 100  # not a power of two: BLOCK_DMODEL = BLOCK_DV = 128
    BD = 128
    seqlens = [37, 100, 5]
    B = len(seqlens)
    MAXS = 4
    for (H, HKV, logit_cap, sink) in [(4, 4, 0.0, False), (4, 4, 30.0, True),
                                      (8, 2, 0.0, False), (8, 2, 0.0, True)]:
        group = H // HKV
        q, kbuf, vbuf, indptr, indices, splits = decode_inputs(
            B, H, HKV, D, seqlens, [2, 4, 1])
        scale = 1.0 / math.sqrt(D)
        att_out = np.full((B, H, MAXS, D), np.nan, np.float32)
        att_lse = np.full((B, H, MAXS), np.nan, np.float32)
        args = dict(Q=q, K_Buffer=kbuf, V_Buffer=vbuf, sm_scale_withk=scale,
                    kv_indptr=indptr, kv_indices=indices, Att_Out=att_out,
                    Att_Lse=att_lse, num_kv_splits=splits,
                    stride_qbs=H * D, stride_qh=D, stride_buf_kbs=HKV * D,
                    stride_buf_kh=D, stride_buf_vbs=HKV * D, stride_buf_vh=D,
                    stride_mid_ob=H * MAXS * D, stride_mid_oh=MAXS * D,
                    stride_mid_os=D)
        if group == 1:
            kname = "_fwd_kernel_stage1"
            d = dict(kv_group_num=1, BLOCK_DMODEL=BD, BLOCK_DV=BD,
                     BLOCK_N=64, MIN_BLOCK_KV=32, logit_cap=logit_cap, Lk=D,
                     Lv=D, xai_temperature_len=-1)
            grid = (B, H, MAXS)
        else:
            kname = "_fwd_grouped_kernel_stage1"
            BH = 16
            d = dict(kv_group_num=group, q_head_num=H, BLOCK_DMODEL=BD,
                     BLOCK_DPE=0, BLOCK_DV=BD, BLOCK_N=32, BLOCK_H=BH,
                     MIN_BLOCK_KV=32, logit_cap=logit_cap,
                     xai_temperature_len=-1, Lk=D, Lv=D)
            grid = (B, -(-H // min(BH, group)), MAXS)
        mid = run(TILE, kname, d, grid, args, ["Att_Out", "Att_Lse"],
                  4 if group == 1 else 4, 2)
        sinks = randn(H, dtype=np.float32) if sink else np.zeros(1, np.float32)
        o = np.full((B, H, D), np.nan, np.float16)
        args2 = dict(Mid_O=mid["Att_Out"], Mid_O_1=mid["Att_Lse"], O=o,
                     v_scale=1.0, kv_indptr=indptr, num_kv_splits=splits,
                     sink_ptr=sinks, stride_mid_ob=H * MAXS * D,
                     stride_mid_oh=MAXS * D, stride_mid_os=D,
                     stride_obs=H * D, stride_oh=D)
        d2 = dict(MAX_KV_SPLITS=MAXS, MIN_BLOCK_KV=32, BLOCK_DV=BD, Lv=D,
                  HAS_SINK=sink)
        out = run(TILE, "_fwd_kernel_stage2", d2, (B, H), args2, ["O"], 4,
                  2)["O"]
        ref = decode_reference(q, kbuf, vbuf, indptr, indices, group, scale,
                               sinks if sink else None, logit_cap)
        check(f"decode {kname} + _fwd_kernel_stage2 H={H} HKV={HKV} D={D} "
              f"logit_cap={logit_cap} sink={sink}", out, ref, FP16_TOL)


# ------------------------------------------------- 3. prefill attention
@guarded
def prefill_attention():
    D = 100
    BD = 128
    seqlens = np.array([37, 100, 5], np.int32)
    B = len(seqlens)
    H, HKV = 4, 2
    total = int(seqlens.sum())
    starts = np.concatenate([[0], np.cumsum(seqlens)[:-1]]).astype(np.int32)
    q = randn(total, H, D)
    k = randn(total, HKV, D)
    v = randn(total, HKV, D)
    scale = 1.0 / math.sqrt(D)
    for causal in (True, False):
        for block in (32, 128):
            o = np.full((total, H, D), np.nan, np.float16)
            args = dict(Q=q, K=k, V=v, sm_scale=scale, B_Start_Loc=starts,
                        B_Seqlen=seqlens, Out=o, stride_qbs=H * D,
                        stride_qh=D, stride_kbs=HKV * D, stride_kh=D,
                        stride_vbs=HKV * D, stride_vh=D, stride_obs=H * D,
                        stride_oh=D)
            d = dict(kv_group_num=H // HKV, BLOCK_M=block, BLOCK_DMODEL=BD,
                     BLOCK_N=block, IS_CAUSAL=causal, Lk=D)
            grid = (B, H, -(-int(seqlens.max()) // block))
            out = run(TILE, "_fwd_kernel", d, grid, args, ["Out"], 8, 1)["Out"]
            ref = np.zeros((total, H, D))
            for b in range(B):
                s0, n = starts[b], seqlens[b]
                for h in range(H):
                    qq = q[s0:s0 + n, h].astype(np.float64)
                    kk = k[s0:s0 + n, h // (H // HKV)].astype(np.float64)
                    vv = v[s0:s0 + n, h // (H // HKV)].astype(np.float64)
                    s = qq @ kk.T * scale
                    if causal:
                        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
                    p = np.exp(s - s.max(1, keepdims=True))
                    ref[s0:s0 + n, h] = (p / p.sum(1, keepdims=True)) @ vv
            check(f"prefill _fwd_kernel BLOCK={block} causal={causal} "
                  f"H={H} HKV={HKV} D={D}", out, ref, FP16_TOL)


# ------------------------------------------- 4a. kernl matmul + bias + act
@guarded
def kernl_fma():
    # N a multiple of both BLOCK_N: kernl's `tl.max_contiguous(
    # tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)` hints are false where a
    # tile wraps past N (N=70: the GPU, trusting them as Triton does, read
    # wrong columns; the CPU mode ignores hints).
    M, N, K = 37, 256, 100
    a = randn(M, K)
    w = randn(N, K, scale=0.2)
    bias = randn(N)
    from math import erf
    acts = {
        "gelu": lambda x: x * 0.5 * (1.0 + np.vectorize(erf)(x / math.sqrt(2))),
        "fast_gelu": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
        "tanh": np.tanh,
        "relu": lambda x: np.maximum(x, 0),
    }
    for act, f in acts.items():
        for (bm, bn, bk, warps) in [(128, 256, 32, 8), (32, 32, 32, 2)]:
            c = np.full((M, N), np.nan, np.float16)
            args = dict(C=c, ACT_INPUTS=np.zeros(1, np.float16), A=a, B=w,
                        bias=bias, M=M, N=N, K=K, CACHE_KEY_M=M // 32,
                        CACHE_KEY_N=N // 32, CACHE_KEY_K=K // 32,
                        output_m_stride=N, output_n_stride=1,
                        act_inputs_m_stride=0, act_inputs_n_stride=0,
                        a_m_stride=K, a_k_stride=1, b_n_stride=K,
                        b_k_stride=1)
            d = dict(BLOCK_M=bm, GROUP_M=8, BLOCK_N=bn, BLOCK_K=bk,
                     SPLIT_K=1, K_LOAD_MASK_NEEDED=(K % bk == 0),
                     HAS_BIAS=True, SHOULD_SAVE_ACT_INPUTS=False,
                     ACTIVATION=act)
            grid = (-(-M // bm) * -(-N // bn),)
            out = run(TILE_KERNL, "kernel_fma", d, grid, args, ["C"], warps,
                      3)["C"]
            ref = f(a.astype(np.float64) @ w.astype(np.float64).T
                    + bias.astype(np.float64))
            check(f"kernl kernel_fma {bm}x{bn}x{bk} ACTIVATION={act}",
                  out, ref, FP16_TOL)


# ------------------------------------------------ 4b. bitsandbytes int8
@guarded
def int8_matmul():
    M, N, K = 37, 70, 100
    a = rng.integers(-127, 128, (M, K)).astype(np.int8)
    b = rng.integers(-127, 128, (K, N)).astype(np.int8)
    sx = rng.uniform(0.5, 3.0, M).astype(np.float16)
    sw = rng.uniform(0.5, 3.0, N).astype(np.float16)
    div = 1.0 / (127.0 * 127.0)
    for (bm, bn, bk) in [(128, 128, 32), (32, 32, 32)]:
        # the kernel loads bias[rn] unmasked: give it whole blocks
        bias = np.zeros(-(-N // bn) * bn, np.float16)
        bias[:N] = randn(N)
        c = np.full((M, N), np.nan, np.float16)
        args = dict(A=a, B=b, C=c, bias=bias, state_x_ptr=sx,
                    state_w_ptr=sw, M=M, N=N, K=K, divfactor=div,
                    stride_am=K, stride_ak=1, stride_bk=N, stride_bn=1,
                    stride_cm=N, stride_cn=1)
        d = dict(has_bias=True, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                 GROUP_M=8, SPLIT_K=1, EVEN_K=(K % bk == 0), ACC_TYPE="fp32")
        grid = (-(-M // bm) * -(-N // bn), 1)
        out = run(TILE, "_int8_matmul_rowwise_dequantize", d, grid, args,
                  ["C"], 4, 4)["C"]
        acc = a.astype(np.int64) @ b.astype(np.int64)
        # exact integer products; the reference dequantizes in float64
        ref = sw[None, :].astype(np.float64) * sx[:, None] * acc * div \
            + bias[None, :N]
        check(f"bnb int8 matmul {bm}x{bn}x{bk}", out, ref, FP16_TOL)


# --------------------------------------------- 5. FLA fused chunk linear attn
@guarded
def fla_fused_chunk():
    B, H, T, K, V = 2, 3, 100, 48, 40
    BT = 64
    BK, BV = min(1 << (K - 1).bit_length(), 64), min(1 << (V - 1).bit_length(), 64)
    NK, NV = -(-K // BK), -(-V // BV)
    q = randn(B, H, T, K)
    k = randn(B, H, T, K)
    v = randn(B, H, T, V)
    h0 = randn(B, H, K, V, dtype=np.float32)
    scale = K ** -0.5
    o = np.full((NK, B, H, T, V), np.nan, np.float16)
    ht = np.full((B, H, K, V), np.nan, np.float32)
    args = dict(q=q, k=k, v=v, o=o, h0=h0, ht=ht, s_k_h=T * K, s_k_t=K,
                s_k_d=1, s_v_h=T * V, s_v_t=V, s_v_d=1, scale=scale, B=B,
                H=H, T=T)
    d = dict(K=K, V=V, BT=BT, BK=BK, BV=BV, USE_INITIAL_STATE=True,
             STORE_FINAL_STATE=True, CHECK=True)
    res = run(TILE, "fused_chunk_linear_attn_fwd_kernel", d, (NV, NK, B * H),
              args, ["o", "ht"], 4, 1)
    qd, kd, vd = (x.astype(np.float64) for x in (q, k, v))
    s = np.einsum("bhtk,bhsk->bhts", qd * scale, kd)
    s = s * np.tril(np.ones((T, T)))
    ref_o = s @ vd + (qd * scale) @ h0.astype(np.float64)
    ref_ht = h0 + np.einsum("bhtk,bhtv->bhkv", kd, vd)
    check(f"fla fused_chunk_linear_attn_fwd B={B} H={H} T={T} K={K} V={V} o",
          res["o"].sum(0), ref_o, FP16_TOL)
    check("fla fused_chunk_linear_attn_fwd ... ht (fp32 state, fp16 dot "
          "operands)", res["ht"], ref_ht, FP16_TOL)


# ----------------------------------------------------------- GPU compile
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages)
    ("fused_moe M>E default", TILE, "fused_moe_kernel",
     "group_n=0 group_k=0 BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32 "
     "GROUP_SIZE_M=8 MUL_ROUTED_WEIGHT=True top_k=2 compute_type=fp16 "
     "use_fp8_w8a8=False use_int8_w8a8=False use_int8_w8a16=False "
     "per_channel_quant=False", 4, 3),
    ("fused_moe M<=E default", TILE, "fused_moe_kernel",
     "group_n=0 group_k=0 BLOCK_SIZE_M=16 BLOCK_SIZE_N=32 BLOCK_SIZE_K=64 "
     "GROUP_SIZE_M=1 MUL_ROUTED_WEIGHT=False top_k=2 compute_type=fp16 "
     "use_fp8_w8a8=False use_int8_w8a8=False use_int8_w8a16=False "
     "per_channel_quant=False", 4, 3),
    ("decode stage1 MHA D=128", TILE, "_fwd_kernel_stage1",
     "kv_group_num=1 BLOCK_DMODEL=128 BLOCK_DV=128 BLOCK_N=64 MIN_BLOCK_KV=32 "
     "logit_cap=0.0 Lk=128 Lv=128 xai_temperature_len=-1", 4, 2),
    ("decode grouped stage1 GQA4 D=128", TILE, "_fwd_grouped_kernel_stage1",
     "kv_group_num=4 q_head_num=32 BLOCK_DMODEL=128 BLOCK_DPE=0 BLOCK_DV=128 "
     "BLOCK_N=32 BLOCK_H=16 MIN_BLOCK_KV=32 logit_cap=0.0 "
     "xai_temperature_len=-1 Lk=128 Lv=128", 4, 2),
    ("decode stage2 D=128", TILE, "_fwd_kernel_stage2",
     "MAX_KV_SPLITS=8 MIN_BLOCK_KV=32 BLOCK_DV=128 Lv=128 HAS_SINK=False",
     4, 2),
    ("prefill D=128 causal", TILE, "_fwd_kernel",
     "kv_group_num=1 BLOCK_M=128 BLOCK_DMODEL=128 BLOCK_N=128 IS_CAUSAL=True "
     "Lk=128", 8, 1),
    ("prefill D=64 causal", TILE, "_fwd_kernel",
     "kv_group_num=1 BLOCK_M=128 BLOCK_DMODEL=64 BLOCK_N=128 IS_CAUSAL=True "
     "Lk=64", 4, 1),
    ("kernl kernel_fma gelu", TILE_KERNL, "kernel_fma",
     "BLOCK_M=128 BLOCK_N=256 BLOCK_K=32 SPLIT_K=1 GROUP_M=8 "
     "K_LOAD_MASK_NEEDED=True HAS_BIAS=True SHOULD_SAVE_ACT_INPUTS=False "
     "ACTIVATION=gelu", 8, 3),
    ("bnb int8 matmul", TILE, "_int8_matmul_rowwise_dequantize",
     "has_bias=True BLOCK_M=128 BLOCK_N=128 BLOCK_K=32 SPLIT_K=1 GROUP_M=8 "
     "EVEN_K=True ACC_TYPE=fp32", 4, 4),
    ("fla fused_chunk fwd K=V=64", TILE, "fused_chunk_linear_attn_fwd_kernel",
     "K=64 V=64 BT=64 BK=64 BV=64 USE_INITIAL_STATE=True "
     "STORE_FINAL_STATE=True CHECK=True", 4, 1),
]


def gpu_compile():
    print("\nGPU builds (sm_90a, no --signature):")
    with tempfile.TemporaryDirectory() as tmp:
        for label, tile, kernel, defs, warps, stages in GPU_BUILDS:
            ptx = os.path.join(tmp, "k.ptx")
            cubin = os.path.join(tmp, "k.cubin")
            cmd = [TILEC, tile, "-k", kernel]
            for d in defs.split():
                cmd += ["-D", d]
            cmd += ["--num-warps", str(warps), "--num-stages", str(stages),
                    "-o", ptx]
            shown = " ".join(c if c != ptx else "x.ptx" for c in cmd)
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode:
                print(f"  {label}: tilec FAILED\n    {shown}\n    {p.stderr}")
                continue
            p = subprocess.run([PTXAS, "-arch=sm_90a", "-v", ptx, "-o", cubin],
                               capture_output=True, text=True)
            info = p.stderr
            regs = re.search(r"Used (\d+) registers", info)
            spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                              info)
            sass = subprocess.run([CUOBJDUMP, "--dump-sass", cubin],
                                  capture_output=True, text=True).stdout
            counts = {op: len(re.findall(r"\b" + op + r"\b", sass))
                      for op in ("HGMMA", "HMMA", "IGMMA", "IMMA", "LDGSTS",
                                 "UTMALDG", "LDL", "STL")}
            print(f"  {label}: regs={regs.group(1) if regs else '?'} "
                  f"spill st/ld={spill.group(1)}/{spill.group(2) if spill else '?'} "
                  + " ".join(f"{k}={v}" for k, v in counts.items()))
            print(f"    {shown}")


if __name__ == "__main__":
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    for fn in (fused_moe, decode_attention, prefill_attention, kernl_fma,
               int8_matmul, fla_fused_chunk):
        if only is None or only == fn.__name__:
            fn()
    if EXPORT:
        import json
        json.dump(_cases, open(os.path.join(EXPORT, "manifest.json"), "w"),
                  indent=1)
    if "--no-gpu-compile" not in sys.argv:
        gpu_compile()
    bad = [r for r in RESULTS if not r[1]]
    print(f"\n{len(RESULTS) - len(bad)}/{len(RESULTS)} CPU checks passed")
    sys.exit(1 if bad else 0)
