#!/usr/bin/python3
"""Generality probe: GPTQ's Triton quantized matmuls (2/4/8-bit weights
packed in int32, dequantized in the kernel with per-group scales and packed
zeros, g_idx for act-order) and LightLLM's token-attention / context
attention kernels (req_to_token indexing: token slots loaded from a table
and used as addresses), bench/kernels/probe_quant_serving.tile, run in
tilec's CPU mode at small odd sizes against float64 NumPy references
written from the math, then compiled for sm_90a at the projects' own launch
settings, as written and with the facts Triton's JIT would specialize on
(--signature), with ptxas register / spill counts.

    /usr/bin/python3 bench/probe_quant_serving_cpu.py [--no-gpu-compile] [--only NAME]
    /usr/bin/python3 bench/probe_quant_serving_cpu.py --only all_configs

The harness (run, check, guarded, the PROBE_EXPORT hand-off) is
bench/probe_serving_cpu.py's, the GPU table bench/probe_generality_cpu.py's.

GPTQ's format (QuantLinear.pack): W[k, n] = (q[k, n] - (z[g[k], n] + 1)) *
s[g[k], n], with q packed 32/bits to an int32 along K (qweight[k // f, n],
bits at (k % f) * bits), the stored zero z (the zero point minus one)
packed along N (qzeros[g, n // f]), s fp16 and g = g_idx[k]. matmul_248:
C = A W; transpose_matmul_248: C = A W^T; dequant_kernel_248: W.

The GPTQ kernels mask only the rows of A and the stores: they read B,
scales, zeros and g_idx unmasked past N (and past K in the transposed one),
so the buffers handed to them here carry a tail of random padding (valid
group indices for g_idx) as GPTQ's callers' allocations would on the GPU;
matmul_248 also reads A and g_idx unmasked along K and so needs K a
multiple of BLOCK_SIZE_K (GPTQ's layers are; the sizes here are), the
transposed one N a multiple of BLOCK_SIZE_N.

Result (this tilec build): all 12 kernels compile as published but for
the PORT EDITs in the .tile header (all host side: the module-level `try:`,
GPTQ's custom_autotune decorator and its nearest_power_of_two /
prune_configs_by, dequant.py's positional autotune configs and their
builder function, one duplicate kernel name); 89/89 CPU checks pass
(max error 6.0e-4 of max|ref|); every GPU build compiles for sm_90a as
written and with the JIT facts and assembles with ptxas. ptxas spills
(bytes stored/loaded, as written | JIT facts): transpose_matmul_248
64x32x256 312/312 | 8/8 (128x32x128: 212/212 | 0), matmul_248 64x256x32
52/52 | 0, LightLLM's _fwd_kernel_token_att2_int8v at d=128 and its
launcher's BLOCK_N=512 5062/4718 | 832/768, the fused softmax+reduceV at
d=128 on one warp 368/368 | 0, context _fwd_kernel at d=64 (BLOCK 128, 4
warps) 1080/1016 | 188/172 (no spill at d=128 with facts). `--only
all_configs` lists every GPTQ autotune config (dequant_kernel_248's eight
are X_BLOCK 128, 128, 256, 256, 512, 512, 1024, 1024 on 4 / 8 warps).
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)
import probe_generality_cpu as pg  # noqa: E402  (the same GPU table)

TILE = os.path.join(HERE, "kernels", "probe_quant_serving.tile")
check, guarded, run = ps.check, ps.guarded, pg.run
FP16_TOL, FP32_TOL = ps.FP16_TOL, pg.FP32_TOL
# fp16 results of fp16 products summed in fp16 (tl.sum of an fp16 block
# stays fp16, as in Triton): D roundings of the running sum, each 2^-11 of
# it; bound for sums of up to 128 terms
FP16_SUM_TOL = 1e-2

rng = np.random.default_rng(2030)


def randn(*shape, dtype=np.float16, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


nan, f64, cdiv = ps.nan, ps.f64, ps.cdiv


def padded(a, extra, fill):
    """a flattened, with `extra` elements of `fill(n)` after it."""
    a = np.ascontiguousarray(a).reshape(-1)
    return np.concatenate([a, fill(extra).astype(a.dtype)])


# ====================================================== GPTQ packing
def gptq_quantized(K, N, G, bits, act_order):
    """q (K, N) in [0, maxq], stored zeros z (G, N) in [0, maxq], scales
    (G, N) fp16 > 0, g_idx (K,) int32; packed qweight (K // f, N) and
    qzeros (G, N // f) int32 as QuantLinear.pack writes them; and the
    float64 W of GPTQ's formula."""
    maxq = 2 ** bits - 1
    f = 32 // bits
    q = rng.integers(0, maxq + 1, (K, N)).astype(np.uint64)
    z = rng.integers(0, maxq + 1, (G, N)).astype(np.uint64)
    s = (rng.uniform(0.5, 1.5, (G, N)) / maxq).astype(np.float16)
    if act_order:  # desc_act: groups of a permutation of the columns
        g_idx = (rng.permutation(K) * G // K).astype(np.int32)
    else:
        g_idx = (np.arange(K) * G // K).astype(np.int32)
    qweight = np.zeros((K // f, N), np.uint64)
    for j in range(f):
        qweight |= q[j::f] << np.uint64(bits * j)
    qzeros = np.zeros((G, N // f), np.uint64)
    for j in range(f):
        qzeros |= z[:, j::f] << np.uint64(bits * j)
    qweight = qweight.astype(np.uint32).view(np.int32)
    qzeros = qzeros.astype(np.uint32).view(np.int32)
    W = (f64(q) - (f64(z[g_idx]) + 1.0)) * f64(s[g_idx])
    return qweight, qzeros, s, g_idx, W


def rand_i32(n):
    return rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)


def rand_f16(n):
    return randn(n)


# ====================================================== 1. matmul_248
MM_CONFIGS = [  # (BM, BN, BK, GROUP_M, warps, stages): the autotune configs
    (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (64, 128, 32, 8, 4, 4),
    (128, 32, 32, 8, 4, 4), (64, 64, 32, 8, 4, 4), (64, 128, 32, 8, 8, 2),
    (64, 64, 64, 8, 8, 3), (32, 32, 128, 8, 4, 2)]


@guarded
def matmul_248():
    """C = A W, fp16 out; M odd, N not a multiple of BLOCK_SIZE_N, K a
    multiple of every BLOCK_SIZE_K (see the docstring); the eight autotune
    configs and the pruner's M=1 decode config (BLOCK_SIZE_M 16)."""
    K, N, G = 384, 96, 3
    for bits in (4, 2, 8):
        for act_order in (False, True):
            qweight, qzeros, s, g_idx, W = gptq_quantized(K, N, G, bits,
                                                          act_order)
            cfgs = MM_CONFIGS if (bits, act_order) == (4, False) else \
                [MM_CONFIGS[0], MM_CONFIGS[6], MM_CONFIGS[7]]
            for M, cfg in [(37, c) for c in cfgs] + [(1, (16, 64, 32, 8, 4,
                                                          4))]:
                bm, bn, bk, gm, warps, stages = cfg
                a = randn(M, K)
                pad = 2 * bn  # unmasked reads past column N
                args = dict(a_ptr=a, b_ptr=padded(qweight, pad, rand_i32),
                            c_ptr=nan(M, N, dtype=np.float16),
                            scales_ptr=padded(s, pad, rand_f16),
                            zeros_ptr=padded(qzeros, pad, rand_i32),
                            g_ptr=g_idx, M=M, N=N, K=K, bits=bits,
                            maxq=2 ** bits - 1, stride_am=K, stride_ak=1,
                            stride_bk=N, stride_bn=1, stride_cm=N,
                            stride_cn=1, stride_scales=N,
                            stride_zeros=N * bits // 32)
                defs = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                            GROUP_SIZE_M=gm)
                out = run(TILE, "matmul_248_kernel", defs,
                          (cdiv(M, bm) * cdiv(N, bn),), args, ["c_ptr"],
                          warps, stages)["c_ptr"]
                check(f"gptq matmul_248_kernel {bm}x{bn}x{bk} w{warps} "
                      f"s{stages} bits={bits} act_order={act_order} M={M} "
                      f"N={N} K={K} groups={G}", out, f64(a) @ W, FP16_TOL)


# ====================================================== 2. transpose_matmul_248
TMM_CONFIGS = [
    (64, 32, 256, 8, 4, 4), (128, 32, 128, 8, 4, 4), (64, 32, 128, 8, 4, 4),
    (128, 32, 32, 8, 4, 4), (64, 32, 64, 8, 4, 4), (64, 32, 128, 8, 8, 2),
    (64, 64, 64, 8, 8, 3), (32, 128, 32, 8, 4, 2)]


@guarded
def transpose_matmul_248():
    """C = A W^T (the backward of QuantLinear: grad_input), fp16 out; M odd,
    K (the output width) not a multiple of BLOCK_SIZE_K, N (the loop) a
    multiple of every BLOCK_SIZE_N."""
    K, N, G = 160, 384, 5
    for bits in (4, 2, 8):
        for act_order in (False, True):
            qweight, qzeros, s, g_idx, W = gptq_quantized(K, N, G, bits,
                                                          act_order)
            cfgs = TMM_CONFIGS if (bits, act_order) == (4, False) else \
                [TMM_CONFIGS[0], TMM_CONFIGS[6], TMM_CONFIGS[7]]
            for cfg in cfgs:
                bm, bn, bk, gm, warps, stages = cfg
                M = 37
                a = randn(M, N)
                kpad = cdiv(K, bk) * bk - K  # g_idx and B rows past K
                args = dict(a_ptr=a,
                            b_ptr=padded(qweight, (kpad * bits // 32 + 1) * N,
                                         rand_i32),
                            c_ptr=nan(M, K, dtype=np.float16),
                            scales_ptr=s, zeros_ptr=qzeros,
                            g_ptr=padded(g_idx, kpad,
                                         lambda n: rng.integers(0, G, n)),
                            M=M, N=N, K=K, bits=bits, maxq=2 ** bits - 1,
                            stride_am=N, stride_ak=1, stride_bk=N,
                            stride_bn=1, stride_cm=K, stride_cn=1,
                            stride_scales=N, stride_zeros=N * bits // 32)
                defs = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                            GROUP_SIZE_M=gm)
                out = run(TILE, "transpose_matmul_248_kernel", defs,
                          (cdiv(M, bm) * cdiv(K, bk),), args, ["c_ptr"],
                          warps, stages)["c_ptr"]
                check(f"gptq transpose_matmul_248_kernel {bm}x{bn}x{bk} "
                      f"w{warps} s{stages} bits={bits} act_order={act_order}"
                      f" M={M} N={N} K={K} groups={G}", out, f64(a) @ W.T,
                      FP16_TOL)


# ====================================================== 3. dequant_kernel_248
@guarded
def dequant_248():
    """out = W (K x N) fp16, one element per x_index; numels a multiple of
    no X_BLOCK for the odd shape (the loads are unmasked: padded)."""
    for K, N, G, bits in ((160, 96, 5, 4), (96, 48, 3, 2), (96, 44, 3, 8),
                          (160, 96, 4, 8)):
        for act_order in (False, True):
            qweight, qzeros, s, g_idx, W = gptq_quantized(K, N, G, bits,
                                                          act_order)
            numels = K * N
            for xb, warps in ((128, 4), (1024, 8)):
                over = cdiv(numels, xb) * xb - numels  # x_index past numels
                rows = cdiv(over, N) + 1
                args = dict(g_idx_ptr=padded(g_idx, rows,
                                             lambda n: rng.integers(0, G, n)),
                            scales_ptr=s,
                            qweight_ptr=padded(qweight, rows * N, rand_i32),
                            qzeros_ptr=qzeros,
                            out_ptr=nan(K, N, dtype=np.float16),
                            numels=numels)
                defs = dict(maxq=2 ** bits - 1, bits=bits, outfeatures=N,
                            num_groups=G, X_BLOCK=xb)
                out = run(TILE, "dequant_kernel_248", defs,
                          (cdiv(numels, xb),), args, ["out_ptr"], warps,
                          3)["out_ptr"]
                check(f"gptq dequant_kernel_248 X_BLOCK={xb} w{warps} "
                      f"bits={bits} act_order={act_order} K={K} N={N} "
                      f"groups={G} (numels % X_BLOCK = {numels % xb})", out,
                      W, FP16_TOL)


# ====================================================== LightLLM batches
def serving_batch(seqlens, heads, kv_heads, d, slots=None, req_rows=6,
                  max_seq=None, kv_dtype=np.float16):
    """A decode batch as LightLLM's ReqManager holds it: each request's
    tokens at random slots of the KV buffer (req_to_token_indexs[req, i]),
    requests at random rows, B_Start_Loc the running sum of the lengths."""
    batch = len(seqlens)
    total = int(sum(seqlens))
    max_seq = max_seq or max(seqlens) + 11
    slots = slots or total + 29
    req_to_tokens = rand_i32(req_rows * max_seq).reshape(req_rows, max_seq)
    req_to_tokens = np.abs(req_to_tokens) % slots  # unused entries: valid
    b_req_idx = rng.permutation(req_rows)[:batch].astype(np.int32)
    perm = rng.permutation(slots)
    pos = 0
    for b, n in enumerate(seqlens):
        req_to_tokens[b_req_idx[b], :n] = perm[pos:pos + n]
        pos += n
    start = np.concatenate([[0], np.cumsum(seqlens)[:-1]]).astype(np.int32)
    return dict(req_to_tokens=req_to_tokens.astype(np.int32),
                b_req_idx=b_req_idx, b_start_loc=start,
                b_seq_len=np.array(seqlens, np.int32), total=total,
                slots=slots, batch=batch)


def token_slots(bt, b):
    return bt["req_to_tokens"][bt["b_req_idx"][b], :bt["b_seq_len"][b]]


# ====================================================== 4. token att1 (q . k)
@guarded
def token_att1():
    """Att[h, start_b + n] = sm_scale q[b, h] . K[slot(b, n), h // group]
    for n < seqlen_b: LightLLM's decode scores, fp32 out (q * k in fp16,
    summed in fp16)."""
    for heads, kv_heads, d, seqlens in ((6, 6, 64, (37, 5, 70)),
                                        (6, 2, 128, (1, 33, 64, 9))):
        bt = serving_batch(seqlens, heads, kv_heads, d)
        group = heads // kv_heads
        q = randn(bt["batch"], heads, d)
        k = randn(bt["slots"], kv_heads, d)
        scale = 1.0 / d ** 0.5
        ref = np.zeros((heads, bt["total"]))
        for b in range(bt["batch"]):
            kk = f64(k[token_slots(bt, b)])  # (n, kv_heads, d)
            for h in range(heads):
                s0 = bt["b_start_loc"][b]
                ref[h, s0:s0 + seqlens[b]] = kk[:, h // group] @ f64(q[b, h]) \
                    * scale
        att = nan(heads, bt["total"])
        args = dict(Q=q, K=k, sm_scale=scale,
                    Req_to_tokens=bt["req_to_tokens"],
                    B_req_idx=bt["b_req_idx"], B_Start_Loc=bt["b_start_loc"],
                    B_Seqlen=bt["b_seq_len"], Att_Out=att,
                    stride_req_to_tokens_b=bt["req_to_tokens"].shape[1],
                    stride_req_to_tokens_s=1, stride_qbs=heads * d,
                    stride_qh=d, stride_qd=1, stride_kbs=kv_heads * d,
                    stride_kh=d, stride_kd=1, att_stride_h=bt["total"],
                    att_stride_bs=1, kv_group_num=group)
        warps = 4 if group == 1 else 2
        out = run(TILE, "_fwd_kernel_token_att1",
                  dict(BLOCK_DMODEL=d, BLOCK_N=32),
                  (bt["batch"], heads, cdiv(max(seqlens), 32)), args,
                  ["Att_Out"], warps, 1)["Att_Out"]
        check(f"lightllm _fwd_kernel_token_att1 heads={heads} "
              f"kv_heads={kv_heads} d={d} seqlens={seqlens}", out, ref,
              FP16_SUM_TOL)

        # int8 K with a per-(token, head) fp16 scale, fp16 out
        k8 = rng.integers(-127, 128, (bt["slots"], kv_heads, d)).astype(
            np.int8)
        ks = (rng.uniform(0.5, 1.5, (bt["slots"], kv_heads, 1)) /
              127).astype(np.float16)
        ref8 = np.zeros((heads, bt["total"]))
        for b in range(bt["batch"]):
            sl = token_slots(bt, b)
            kk = f64(k8[sl]) * f64(ks[sl])
            for h in range(heads):
                s0 = bt["b_start_loc"][b]
                ref8[h, s0:s0 + seqlens[b]] = kk[:, h // group] @ \
                    f64(q[b, h]) * scale
        args8 = dict(args, K=k8, K_scale=ks,
                     Att_Out=nan(heads, bt["total"], dtype=np.float16),
                     stride_ksbs=kv_heads, stride_ksh=1, stride_ksd=1)
        out = run(TILE, "_fwd_kernel_token_att1_int8",
                  dict(BLOCK_DMODEL=d, BLOCK_N=32),
                  (bt["batch"], heads, cdiv(max(seqlens), 32)), args8,
                  ["Att_Out"], warps, 1)["Att_Out"]
        check(f"lightllm _fwd_kernel_token_att1_int8 heads={heads} "
              f"kv_heads={kv_heads} d={d} seqlens={seqlens}", out, ref8,
              FP16_SUM_TOL)


# ====================================================== 5. token softmax
@guarded
def token_softmax():
    """Prob[h, start_b + n] = softmax over n < seqlen_b of Logics[h, ...]."""
    for heads, seqlens in ((5, (37, 5, 70)), (3, (1, 300, 129))):
        total = sum(seqlens)
        start = np.concatenate([[0], np.cumsum(seqlens)[:-1]]).astype(
            np.int32)
        logits = randn(heads, total, scale=3.0)
        ref = np.zeros((heads, total))
        for b, n in enumerate(seqlens):
            x = f64(logits[:, start[b]:start[b] + n])
            e = np.exp(x - x.max(1, keepdims=True))
            ref[:, start[b]:start[b] + n] = e / e.sum(1, keepdims=True)
        block = 1 << (max(seqlens) - 1).bit_length()
        warps = 4 if block < 2048 else 8 if block < 4096 else 16
        args = dict(Logics=logits, B_Start_Loc=start,
                    B_Seqlen=np.array(seqlens, np.int32),
                    Prob_Out=nan(heads, total, dtype=np.float16),
                    stride_logic_h=total, stride_logic_bs=1,
                    stride_prob_h=total, stride_prob_bs=1)
        out = run(TILE, "_fwd_kernel_token_softmax", dict(BLOCK_SIZE=block),
                  (len(seqlens), heads), args, ["Prob_Out"], warps,
                  3)["Prob_Out"]
        check(f"lightllm _fwd_kernel_token_softmax heads={heads} "
              f"seqlens={seqlens} BLOCK_SIZE={block}", out, ref, FP16_TOL)


# ====================================================== 6. token att2 (p @ V)
@guarded
def token_att2():
    """Out[b, h] = sum_n Prob[h, start_b + n] V[slot(b, n), h // group]
    (BLOCK_N 128 as token_att_fwd2 launches it; the int8 V one with
    next_power_of_2(max_len) capped at 512)."""
    for heads, kv_heads, d, seqlens in ((6, 6, 64, (37, 5, 200)),
                                        (6, 3, 128, (1, 129, 64, 300))):
        bt = serving_batch(seqlens, heads, kv_heads, d)
        group = heads // kv_heads
        prob = np.zeros((heads, bt["total"]), np.float16)
        for b, n in enumerate(seqlens):
            s0 = bt["b_start_loc"][b]
            e = np.exp(rng.standard_normal((heads, n)))
            prob[:, s0:s0 + n] = e / e.sum(1, keepdims=True)
        v = randn(bt["slots"], kv_heads, d)
        v8 = rng.integers(-127, 128, (bt["slots"], kv_heads, d)).astype(
            np.int8)
        vs = (rng.uniform(0.5, 1.5, (bt["slots"], kv_heads, 1)) /
              127).astype(np.float16)
        ref = np.zeros((bt["batch"], heads, d))
        ref8 = np.zeros((bt["batch"], heads, d))
        for b in range(bt["batch"]):
            sl = token_slots(bt, b)
            s0 = bt["b_start_loc"][b]
            for h in range(heads):
                p = f64(prob[h, s0:s0 + seqlens[b]])
                ref[b, h] = p @ f64(v[sl, h // group])
                ref8[b, h] = p @ (f64(v8[sl, h // group]) *
                                  f64(vs[sl, h // group]))
        args = dict(Prob=prob, V=v,
                    Out=nan(bt["batch"], heads, d, dtype=np.float16),
                    Req_to_tokens=bt["req_to_tokens"],
                    B_req_idx=bt["b_req_idx"], B_Start_Loc=bt["b_start_loc"],
                    B_Seqlen=bt["b_seq_len"],
                    stride_req_to_tokens_b=bt["req_to_tokens"].shape[1],
                    stride_req_to_tokens_s=1, stride_ph=bt["total"],
                    stride_pbs=1, stride_vbs=kv_heads * d, stride_vh=d,
                    stride_vd=1, stride_obs=heads * d, stride_oh=d,
                    stride_od=1, kv_group_num=group)
        out = run(TILE, "_fwd_kernel_token_att2",
                  dict(BLOCK_DMODEL=d, BLOCK_N=128), (bt["batch"], heads),
                  args, ["Out"], 4, 1)["Out"]
        check(f"lightllm _fwd_kernel_token_att2 heads={heads} "
              f"kv_heads={kv_heads} d={d} seqlens={seqlens}", out, ref,
              FP16_TOL)
        mx = max(seqlens)
        block = 1 << (mx - 1).bit_length() if mx < 512 else 512
        args8 = dict(args, V=v8, V_scale=vs,
                     Out=nan(bt["batch"], heads, d, dtype=np.float16),
                     stride_vsbs=kv_heads, stride_vsh=1, stride_vsd=1)
        out = run(TILE, "_fwd_kernel_token_att2_int8v",
                  dict(BLOCK_DMODEL=d, BLOCK_N=block), (bt["batch"], heads),
                  args8, ["Out"], 4, 1)["Out"]
        check(f"lightllm _fwd_kernel_token_att2_int8v BLOCK_N={block} "
              f"heads={heads} kv_heads={kv_heads} d={d} seqlens={seqlens}",
              out, ref8, FP16_SUM_TOL)


# ====================================================== 7. softmax + reduceV
@guarded
def token_softmax_reducev():
    """Out[b, h] = softmax_n(Logics[h, start_b + n]) V[slot(b, n)] (online
    softmax over BLOCK_N 64, one warp, as token_softmax_reducev_fwd)."""
    for heads, kv_heads, d, seqlens in ((6, 2, 64, (37, 5, 200)),
                                        (4, 4, 128, (1, 64, 65))):
        bt = serving_batch(seqlens, heads, kv_heads, d)
        group = heads // kv_heads
        logits = randn(heads, bt["total"], dtype=np.float32, scale=3.0)
        v = randn(bt["slots"], kv_heads, d)
        ref = np.zeros((bt["batch"], heads, d))
        for b in range(bt["batch"]):
            sl = token_slots(bt, b)
            s0 = bt["b_start_loc"][b]
            for h in range(heads):
                x = f64(logits[h, s0:s0 + seqlens[b]])
                p = np.exp(x - x.max())
                ref[b, h] = p @ f64(v[sl, h // group]) / p.sum()
        args = dict(Logics=logits, V=v,
                    Out=nan(bt["batch"], heads, d, dtype=np.float16),
                    Req_to_tokens=bt["req_to_tokens"],
                    B_req_idx=bt["b_req_idx"], B_Start_Loc=bt["b_start_loc"],
                    B_Seqlen=bt["b_seq_len"], stride_logic_h=bt["total"],
                    stride_logic_bs=1, stride_vbs=kv_heads * d, stride_vh=d,
                    stride_vd=1, stride_obs=heads * d, stride_oh=d,
                    stride_od=1,
                    stride_req_to_token_b=bt["req_to_tokens"].shape[1],
                    stride_req_to_token_s=1, other_kv_index=0,
                    kv_group_num=group)
        out = run(TILE, "_fwd_kernel_token_softmax_reducev",
                  dict(BLOCK_DMODEL=d, BLOCK_N=64), (bt["batch"], heads),
                  args, ["Out"], 1, 3)["Out"]
        check(f"lightllm token_softmax_reducev _fwd_kernel heads={heads} "
              f"kv_heads={kv_heads} d={d} seqlens={seqlens}", out, ref,
              FP16_TOL)


# ====================================================== 8. context attention
def causal_attention(q, k, v, pcl):
    """q (n_new, d), k v (n_new + pcl, d): row m sees keys j <= m + pcl."""
    s = f64(q) @ f64(k).T / math.sqrt(q.shape[-1])
    m = np.arange(q.shape[0])[:, None] + pcl >= np.arange(k.shape[0])[None]
    s = np.where(m, s, -np.inf)
    p = np.exp(s - s.max(1, keepdims=True))
    return (p / p.sum(1, keepdims=True)) @ f64(v)


@guarded
def context_attention():
    """Prefill: the new tokens of each request (seq_len - prompt_cache_len
    of them, at B_Start_Loc in q and o) against all seq_len tokens, causal
    with the cached prefix in front. _fwd_kernel reads K and V at the
    req_to_token slots; _fwd_kernel_no_prompt_cache reads them at the same
    rows as q (no cache); _fwd_kernel_int8kv reads them from a (batch,
    kv_heads, max_len, d) buffer (kv_dequant)."""
    for heads, kv_heads, d, seqlens, pcls, bm in (
            (4, 2, 64, (37, 150, 9), (0, 20, 3), 128),
            (4, 4, 128, (37, 150, 9), (5, 0, 8), 128),
            (4, 2, 64, (37, 150, 9), (0, 20, 3), 64)):  # is_tesla()
        batch = len(seqlens)
        group = heads // kv_heads
        news = [n - p for n, p in zip(seqlens, pcls)]
        qstart = np.concatenate([[0], np.cumsum(news)[:-1]]).astype(np.int32)
        nq = sum(news)
        bt = serving_batch(seqlens, heads, kv_heads, d)
        q = randn(nq, heads, d)
        k = randn(bt["slots"], kv_heads, d)
        v = randn(bt["slots"], kv_heads, d)
        ref = np.zeros((nq, heads, d))
        for b in range(batch):
            sl = token_slots(bt, b)
            rows = slice(qstart[b], qstart[b] + news[b])
            for h in range(heads):
                ref[rows, h] = causal_attention(q[rows, h], k[sl, h // group],
                                                v[sl, h // group], pcls[b])
        warps = 4 if d <= 64 else 8
        scale = 1.0 / d ** 0.5 * 1.4426950408889634
        max_len = max(seqlens)
        grid = (cdiv(max_len, bm), batch * heads, 1)
        args = dict(Q=q, K=k, V=v, sm_scale=scale,
                    Out=nan(nq, heads, d, dtype=np.float16),
                    B_Start_Loc=qstart, B_Seqlen=bt["b_seq_len"],
                    Req_to_tokens=bt["req_to_tokens"],
                    B_req_idx=bt["b_req_idx"], stride_qbs=heads * d,
                    stride_qh=d, stride_qd=1, stride_kbs=kv_heads * d,
                    stride_kh=d, stride_kd=1, stride_vbs=kv_heads * d,
                    stride_vh=d, stride_vd=1, stride_obs=heads * d,
                    stride_oh=d, stride_od=1,
                    stride_req_to_tokens_b=bt["req_to_tokens"].shape[1],
                    stride_req_to_tokens_s=1, kv_group_num=group,
                    b_prompt_cache_len=np.array(pcls, np.int32))
        defs = dict(H=heads, BLOCK_DMODEL=d, BLOCK_M=bm, BLOCK_N=bm)
        out = run(TILE, "_fwd_kernel", defs, grid, args, ["Out"], warps,
                  1)["Out"]
        label = (f"heads={heads} kv_heads={kv_heads} d={d} seqlens={seqlens}"
                 f" BLOCK={bm}")
        check(f"lightllm context _fwd_kernel prompt_cache={pcls} {label}",
              out, ref, FP16_TOL)

        # int8kv: K/V as (batch, 2 * kv_heads, max_len, d), k = [:, :kvh]
        kvd = randn(batch, 2 * kv_heads, max_len + 3, d)
        ref8 = np.zeros((nq, heads, d))
        for b in range(batch):
            rows = slice(qstart[b], qstart[b] + news[b])
            for h in range(heads):
                kh = h // group
                ref8[rows, h] = causal_attention(
                    q[rows, h], kvd[b, kh, :seqlens[b]],
                    kvd[b, kv_heads + kh, :seqlens[b]], pcls[b])
        L = max_len + 3
        kvf = kvd.reshape(-1)
        args8 = dict(Q=q, K=kvf, V=kvf[kv_heads * L * d:], sm_scale=scale,
                     Out=nan(nq, heads, d, dtype=np.float16),
                     B_Start_Loc=qstart, B_Seqlen=bt["b_seq_len"],
                     b_prompt_cache_len=np.array(pcls, np.int32),
                     stride_qbs=heads * d, stride_qh=d, stride_qd=1,
                     stride_kb=2 * kv_heads * L * d, stride_kh=L * d,
                     stride_ks=d, stride_kd=1,
                     stride_vb=2 * kv_heads * L * d, stride_vh=L * d,
                     stride_vs=d, stride_vd=1, stride_obs=heads * d,
                     stride_oh=d, stride_od=1, kv_group_num=group)
        out = run(TILE, "_fwd_kernel_int8kv", defs, grid, args8, ["Out"],
                  warps, 1)["Out"]
        check(f"lightllm context _fwd_kernel_int8kv prompt_cache={pcls} "
              f"{label}", out, ref8, FP16_TOL)

        # no prompt cache: K, V rows with q's (B_Start_Loc), m >= n
        kc, vc = randn(nq, kv_heads, d), randn(nq, kv_heads, d)
        ref0 = np.zeros((nq, heads, d))
        for b in range(batch):
            rows = slice(qstart[b], qstart[b] + news[b])
            for h in range(heads):
                ref0[rows, h] = causal_attention(
                    q[rows, h], kc[rows, h // group], vc[rows, h // group], 0)
        args0 = dict(Q=q, K=kc, V=vc, sm_scale=scale,
                     Out=nan(nq, heads, d, dtype=np.float16),
                     B_Start_Loc=qstart,
                     B_Seqlen=np.array(news, np.int32),
                     stride_qbs=heads * d, stride_qh=d, stride_qd=1,
                     stride_kbs=kv_heads * d, stride_kh=d, stride_kd=1,
                     stride_vbs=kv_heads * d, stride_vh=d, stride_vd=1,
                     stride_obs=heads * d, stride_oh=d, stride_od=1,
                     kv_group_num=group, H=heads)
        out = run(TILE, "_fwd_kernel_no_prompt_cache",
                  dict(BLOCK_DMODEL=d, BLOCK_M=bm, BLOCK_N=bm),
                  (cdiv(max(news), bm), batch * heads, 1), args0, ["Out"],
                  warps, 1)["Out"]
        check(f"lightllm context _fwd_kernel_no_prompt_cache new={news} "
              f"heads={heads} kv_heads={kv_heads} d={d} BLOCK={bm}", out,
              ref0, FP16_TOL)


# ----------------------------------------------------------- GPU compile
_sig, _ptrs = pg._sig, pg._ptrs
_I16, _I, _I1 = "i32:16", "i32", "i32:1"
# GPTQ 4-bit LLaMA-7B q_proj (K = N = 4096, groupsize 128: 32 groups), as
# matmul248 passes it: A (M, 4096) fp16, qweight (512, 4096), scales
# (32, 4096) fp16, qzeros (32, 512), g_idx (4096,); bits 4 and maxq 15 are
# no multiples of 16; prefill M = 2048 (i32:16), decode M = 1 (i32:1).
_GQ = dict(a_ptr="*fp16:16", b_ptr="*i32:16", c_ptr="*fp16:16",
           scales_ptr="*fp16:16", zeros_ptr="*i32:16", g_ptr="*i32:16")
_GQS = dict(N=_I16, K=_I16, bits=_I, maxq=_I, stride_am=_I16, stride_ak=_I1,
            stride_bk=_I16, stride_bn=_I1, stride_cm=_I16, stride_cn=_I1,
            stride_scales=_I16, stride_zeros=_I16)
SIG_MM = _sig(**_GQ, M=_I16, **_GQS)
SIG_MM1 = _sig(**_GQ, M=_I1, **_GQS)
SIG_TMM = _sig(**_GQ, M=_I16, **_GQS)  # grad_output (2048, 4096)
SIG_DQ = _sig(g_idx_ptr="*i32:16", scales_ptr="*fp16:16",
              qweight_ptr="*i32:16", qzeros_ptr="*i32:16",
              out_ptr="*fp16:16", numels=_I16)
# LightLLM, LLaMA-2-7B fp16 (32 heads of 128, kv_buffer (size + 1, 64, 128)
# per layer: K = [:, :32], V = [:, 32:]), decode batch 16 x 1024 tokens
# (total_token_num 16384), req_to_token_indexs (max_req + 1, 2048) int32;
# kv_group_num 1 (i32:1); the GQA rows: LLaMA-3-8B (8 kv heads: group 4)
_RT = dict(Req_to_tokens="*i32:16", B_req_idx="*i32:16",
           B_Start_Loc="*i32:16", B_Seqlen="*i32:16")
SIG_ATT1 = _sig(Q="*fp16:16", K="*fp16:16", sm_scale="fp32", **_RT,
                Att_Out="*fp32:16", stride_req_to_tokens_b=_I16,
                stride_req_to_tokens_s=_I1, stride_qbs=_I16, stride_qh=_I16,
                stride_qd=_I1, stride_kbs=_I16, stride_kh=_I16, stride_kd=_I1,
                att_stride_h=_I16, att_stride_bs=_I1, kv_group_num=_I1)
SIG_ATT1_GQA = SIG_ATT1.replace("kv_group_num=i32:1", "kv_group_num=i32")
SIG_ATT1_I8 = _sig(Q="*fp16:16", K="*i8:16", K_scale="*fp16:16",
                   sm_scale="fp32", **_RT, Att_Out="*fp16:16",
                   stride_req_to_tokens_b=_I16, stride_req_to_tokens_s=_I1,
                   stride_qbs=_I16, stride_qh=_I16, stride_qd=_I1,
                   stride_kbs=_I16, stride_kh=_I16, stride_kd=_I1,
                   stride_ksbs=_I16, stride_ksh=_I1, stride_ksd=_I1,
                   att_stride_h=_I16, att_stride_bs=_I1, kv_group_num=_I1)
SIG_SOFTMAX = _sig(Logics="*fp16:16", B_Start_Loc="*i32:16",
                   B_Seqlen="*i32:16", Prob_Out="*fp16:16",
                   stride_logic_h=_I16, stride_logic_bs=_I1,
                   stride_prob_h=_I16, stride_prob_bs=_I1)
_ATT2 = dict(stride_req_to_tokens_b=_I16, stride_req_to_tokens_s=_I1,
             stride_ph=_I16, stride_pbs=_I1, stride_vbs=_I16, stride_vh=_I16,
             stride_vd=_I1)
_ATT2O = dict(stride_obs=_I16, stride_oh=_I16, stride_od=_I1,
              kv_group_num=_I1)
SIG_ATT2 = _sig(Prob="*fp16:16", V="*fp16:16", Out="*fp16:16", **_RT,
                **_ATT2, **_ATT2O)
SIG_ATT2_I8 = _sig(Prob="*fp16:16", V="*i8:16", V_scale="*fp16:16",
                   Out="*fp16:16", **_RT, **_ATT2, stride_vsbs=_I16,
                   stride_vsh=_I1, stride_vsd=_I1, **_ATT2O)
SIG_SMRV = _sig(Logics="*fp32:16", V="*fp16:16", Out="*fp16:16",
                Req_to_tokens="*i32:16", B_req_idx="*i32:16",
                B_Start_Loc="*i32:16", B_Seqlen="*i32:16",
                stride_logic_h=_I16, stride_logic_bs=_I1, stride_vbs=_I16,
                stride_vh=_I16, stride_vd=_I1, stride_obs=_I16,
                stride_oh=_I16, stride_od=_I1, stride_req_to_token_b=_I16,
                stride_req_to_token_s=_I1, other_kv_index=_I16,
                kv_group_num=_I1)
# prefill of 16 x 1024 new tokens: q, o (16384, 32, 128)
_CTX = dict(Q="*fp16:16", K="*fp16:16", V="*fp16:16", sm_scale="fp32",
            Out="*fp16:16", B_Start_Loc="*i32:16", B_Seqlen="*i32:16")
_CTXS = dict(stride_qbs=_I16, stride_qh=_I16, stride_qd=_I1)
_CTXO = dict(stride_obs=_I16, stride_oh=_I16, stride_od=_I1)
SIG_CTX = _sig(**_CTX, Req_to_tokens="*i32:16", B_req_idx="*i32:16",
               **_CTXS, stride_kbs=_I16, stride_kh=_I16, stride_kd=_I1,
               stride_vbs=_I16, stride_vh=_I16, stride_vd=_I1, **_CTXO,
               stride_req_to_tokens_b=_I16, stride_req_to_tokens_s=_I1,
               kv_group_num=_I1, b_prompt_cache_len="*i32:16")
SIG_CTX0 = _sig(**_CTX, **_CTXS, stride_kbs=_I16, stride_kh=_I16,
                stride_kd=_I1, stride_vbs=_I16, stride_vh=_I16, stride_vd=_I1,
                **_CTXO, kv_group_num=_I1, H=_I16)
SIG_CTX8 = _sig(**_CTX, b_prompt_cache_len="*i32:16", **_CTXS,
                stride_kb=_I16, stride_kh=_I16, stride_ks=_I16, stride_kd=_I1,
                stride_vb=_I16, stride_vh=_I16, stride_vs=_I16, stride_vd=_I1,
                **_CTXO, kv_group_num=_I1)

_MM = "GROUP_SIZE_M=8 "
GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature)
    ("gptq matmul_248 64x256x32 (cfg 0, M=2048)", TILE, "matmul_248_kernel",
     _MM + "BLOCK_SIZE_M=64 BLOCK_SIZE_N=256 BLOCK_SIZE_K=32", 4, 4, SIG_MM),
    ("gptq matmul_248 64x64x64 w8 (cfg 6)", TILE, "matmul_248_kernel",
     _MM + "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=64", 8, 3, SIG_MM),
    ("gptq matmul_248 16x256x32 (pruned, M=1)", TILE, "matmul_248_kernel",
     _MM + "BLOCK_SIZE_M=16 BLOCK_SIZE_N=256 BLOCK_SIZE_K=32", 4, 4, SIG_MM1),
    ("gptq transpose_matmul_248 64x32x256 (cfg 0)", TILE,
     "transpose_matmul_248_kernel",
     _MM + "BLOCK_SIZE_M=64 BLOCK_SIZE_N=32 BLOCK_SIZE_K=256", 4, 4, SIG_TMM),
    ("gptq transpose_matmul_248 32x128x32 (cfg 7)", TILE,
     "transpose_matmul_248_kernel",
     _MM + "BLOCK_SIZE_M=32 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32", 4, 2, SIG_TMM),
    ("gptq dequant_248 X_BLOCK=128 w4", TILE, "dequant_kernel_248",
     "maxq=15 bits=4 outfeatures=4096 num_groups=32 X_BLOCK=128", 4, 3,
     SIG_DQ),
    ("gptq dequant_248 X_BLOCK=1024 w8", TILE, "dequant_kernel_248",
     "maxq=15 bits=4 outfeatures=4096 num_groups=32 X_BLOCK=1024", 8, 3,
     SIG_DQ),
    ("lightllm token_att1 d=128", TILE, "_fwd_kernel_token_att1",
     "BLOCK_DMODEL=128 BLOCK_N=32", 4, 1, SIG_ATT1),
    ("lightllm token_att1 d=128 GQA (w2)", TILE, "_fwd_kernel_token_att1",
     "BLOCK_DMODEL=128 BLOCK_N=32", 2, 1, SIG_ATT1_GQA),
    ("lightllm token_att1_int8 d=128", TILE, "_fwd_kernel_token_att1_int8",
     "BLOCK_DMODEL=128 BLOCK_N=32", 4, 1, SIG_ATT1_I8),
    ("lightllm token_softmax 1024", TILE, "_fwd_kernel_token_softmax",
     "BLOCK_SIZE=1024", 4, 3, SIG_SOFTMAX),
    ("lightllm token_softmax 4096 (w16)", TILE, "_fwd_kernel_token_softmax",
     "BLOCK_SIZE=4096", 16, 3, SIG_SOFTMAX),
    ("lightllm token_att2 d=128", TILE, "_fwd_kernel_token_att2",
     "BLOCK_DMODEL=128 BLOCK_N=128", 4, 1, SIG_ATT2),
    ("lightllm token_att2_int8v d=128 N=512", TILE,
     "_fwd_kernel_token_att2_int8v", "BLOCK_DMODEL=128 BLOCK_N=512", 4, 1,
     SIG_ATT2_I8),
    ("lightllm token_softmax_reducev d=128", TILE,
     "_fwd_kernel_token_softmax_reducev", "BLOCK_DMODEL=128 BLOCK_N=64", 1,
     3, SIG_SMRV),
    ("lightllm context _fwd_kernel d=64 (w4)", TILE, "_fwd_kernel",
     "H=32 BLOCK_DMODEL=64 BLOCK_M=128 BLOCK_N=128", 4, 1, SIG_CTX),
    ("lightllm context _fwd_kernel d=128", TILE, "_fwd_kernel",
     "H=32 BLOCK_DMODEL=128 BLOCK_M=128 BLOCK_N=128", 8, 1, SIG_CTX),
    ("lightllm context no_prompt_cache d=128", TILE,
     "_fwd_kernel_no_prompt_cache", "BLOCK_DMODEL=128 BLOCK_M=128 "
     "BLOCK_N=128", 8, 1, SIG_CTX0),
    ("lightllm context int8kv d=128", TILE, "_fwd_kernel_int8kv",
     "H=32 BLOCK_DMODEL=128 BLOCK_M=128 BLOCK_N=128", 8, 1, SIG_CTX8),
]

# every @autotune config (tilec --all-configs): kernel, defines, signature
ALL_CONFIGS = [
    ("matmul_248_kernel", "", SIG_MM),
    ("transpose_matmul_248_kernel", "", SIG_TMM),
    ("dequant_kernel_248", "maxq=15 bits=4 outfeatures=4096 num_groups=32",
     SIG_DQ),
]


def all_configs():
    """ptxas registers and spills of every autotune config, as written and
    with the JIT facts (probe_mamba_cpu's table on this file)."""
    import probe_mamba_cpu as pm
    pm.TILE, pm.ALL_CONFIGS = TILE, ALL_CONFIGS
    pm.all_configs()


CPU_TESTS = (matmul_248, transpose_matmul_248, dequant_248, token_att1,
             token_softmax, token_att2, token_softmax_reducev,
             context_attention)

if __name__ == "__main__":
    if "--only" in sys.argv and sys.argv[sys.argv.index("--only") + 1] == \
            "all_configs":
        all_configs()
        sys.exit(0)
    pg.main(CPU_TESTS, GPU_BUILDS)
