#!/usr/bin/python3
"""Generality probe: the Triton kernels of Meta's tritonbench operators
(bench/kernels/probe_tritonbench.tile, meta-pytorch/tritonbench as
published: jagged sum / mean / softmax, sum, welford layer norm, gather +
gemv, int4 GEMM, bf16 x int16 GEMM, split-K GEMM and its reduction,
template attention, int2 quantize / dequantize) run in tilec's CPU mode at
small odd sizes (not multiples of the blocks where the kernels mask)
against float64 NumPy references written from the kernels' math, then
compiled for sm_90a at the operators' launch settings (their autotune
configs, num_warps / num_stages), as written and with the facts Triton's
JIT would specialize on (--signature: 16-byte aligned pointers, integers
divisible by 16, unit strides), with ptxas register / spill counts.

    /usr/bin/python3 bench/probe_tritonbench_cpu.py [--no-gpu-compile] [--only NAME]

The harness (run, check, guarded) is bench/probe_serving_cpu.py's, the GPU
table bench/probe_generality_cpu.py's, the bf16 bits helpers
bench/probe_generality2_cpu.py's (bf16 buffers travel as uint16 bits).
bf16xint16_matmul_kernel's a_ptr / b_ptr are unannotated (their types follow
TRANSPOSE): its runs and builds go through `typed(SIGNATURE)`, which gives
tile-run / tilec the types with --signature (the facts builds pass their
own --signature).

Kernels whose loads or stores are unmasked by design (gather_gemv, the
split-K GEMM, template attention's hard-coded 4096 x 64 heads, int4's B
tile) run at sizes their launchers allow.

Result (this tilec build): every kernel compiles after the PORT EDITs in
the .tile header; 84/84 CPU checks pass (jagged_sum's variable-length
kernel launched with profile_mem=None, the parameter's published default,
failed until `if profile_mem is not None:` got a version of the kernel
where the pointer is None, as Triton's constexpr None). GPU builds: tilec rejects the sum operator's
BLOCK_SIZE_M = 2^20 on 4 warps ("needs 8192 registers per thread") and
int4_gemm's 128x256x128 config (shared memory; Triton 3.6 rejects that
config too); spills with the JIT facts where Triton 3.6 has none
(bench/probe_tritonbench_triton.py on an H100): int4_gemm 16x128x256
8020/8328 bytes (Triton 160 regs, 0), sum scalar 2^17 8320/8256 (Triton
0), sum 2-D 1024x64 244/180 at 255 regs (Triton 64 regs); jagged_softmax
2048x64 spills in both (tilec LDL/STL 13346/11083, Triton 5236/5059).
"""
import contextlib
import os
import stat
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_serving_cpu as ps  # noqa: E402  (the same CPU-mode harness)
import probe_generality_cpu as pg  # noqa: E402  (the same GPU table)
import probe_generality2_cpu as pg2  # noqa: E402  (bf16 bits)

TILE = os.path.join(HERE, "kernels", "probe_tritonbench.tile")
check, guarded, run = ps.check, ps.guarded, pg.run
FP16_TOL, FP32_TOL, BF16_TOL = ps.FP16_TOL, pg.FP32_TOL, pg2.BF16_TOL
bf16_bits, bf16_value = pg2.bf16_bits, pg2.bf16_value

randn = ps.seeded_randn(2031)
rng = np.random.default_rng(2031)
nan, f64, cdiv = ps.nan, ps.f64, ps.cdiv


def nan_bf16(*shape):
    return np.full(shape, 0x7FC0, np.uint16)  # bf16 NaN bits


@contextlib.contextmanager
def typed(signature):
    """Run tile-run and tilec with `--signature signature` added where the
    command has none (the unannotated pointers of bf16xint16)."""
    saved = ps.TILE_RUN, pg.TILEC
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = []
        for tool in saved:
            path = os.path.join(tmp, os.path.basename(tool))
            with open(path, "w") as f:
                f.write('#!/bin/sh\ncase " $* " in *" --signature "*) exec '
                        f'"{tool}" "$@";; *) exec "{tool}" "$@" --signature '
                        f"'{signature}';; esac\n")
            os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
            wrapped.append(path)
        ps.TILE_RUN, pg.TILEC = wrapped
        try:
            yield
        finally:
            ps.TILE_RUN, pg.TILEC = saved


# ====================================================== 1. jagged
def jagged_inputs(lens, M):
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    values = randn(int(offsets[-1]), M, dtype=np.float32)
    return values, offsets


LENS = (37, 0, 100, 5, 130)  # an empty sequence; 130 > 128 (two blocks)
M_JAG = 70  # not a multiple of BLOCK_SIZE_M (8, 64)


@guarded
def jagged_sum():
    """jagged_sum: out[b] = sum of the rows offsets[b]..offsets[b+1] of the
    (total, M) values; the simple kernels loop to MAX_SEQLEN, the
    variable-length ones from offsets[b] to offsets[b+1]."""
    values, offsets = jagged_inputs(LENS, M_JAG)
    B = len(LENS)
    ref = np.stack([f64(values[offsets[b]:offsets[b + 1]]).sum(0)
                    for b in range(B)])
    for br, bm, w, s in ((8, 8, 4, 2), (8, 64, 8, 4), (64, 8, 4, 2),
                         (64, 64, 8, 4)):
        grid = (B * cdiv(M_JAG, bm),)
        defs = dict(BLOCK_SIZE_RAGGED=br, BLOCK_SIZE_M=bm)
        out = run(TILE, "triton_jagged_sum_kernel_simple_fused_buffer_then_sum",
                  defs, grid, dict(input_ptr_values=values,
                                   input_ptr_offsets=offsets,
                                   output_ptr=nan(B, M_JAG), M=M_JAG,
                                   MAX_SEQLEN=max(LENS)),
                  ["output_ptr"], w, s)["output_ptr"]
        check(f"jagged_sum simple_fused_buffer_then_sum {br}x{bm} lens={LENS} "
              f"M={M_JAG}", out, ref, FP32_TOL)
        res = run(TILE,
                  "triton_jagged_sum_kernel_variable_length_loop_buffer_then_sum",
                  defs, grid, dict(input_ptr_values=values,
                                   input_ptr_offsets=offsets,
                                   output_ptr=nan(B, M_JAG), M=M_JAG,
                                   profile_mem=np.full(grid[0] * 3, -1,
                                                       np.int64)),
                  ["output_ptr", "profile_mem"], w, s)
        label = f"jagged_sum variable_length_loop_buffer_then_sum {br}x{bm}"
        check(label, res["output_ptr"], ref, FP32_TOL)
        pm = res["profile_mem"].reshape(-1, 3)  # smid, start, end per program
        check(label + " profile_mem written (smid >= 0, 0 < start <= end)",
              float(((pm[:, 0] >= 0) & (pm[:, 1] > 0)
                     & (pm[:, 2] >= pm[:, 1])).all()), 1.0, 0.0)
    # profile_mem=None, the parameter's published default: Triton makes a
    # None argument a constexpr None, so `if profile_mem is not None:` drops
    # the profiling stores
    out = run(TILE, "triton_jagged_sum_kernel_variable_length_loop_buffer_then_sum",
              dict(BLOCK_SIZE_RAGGED=8, BLOCK_SIZE_M=64), (B * 2,),
              dict(input_ptr_values=values, input_ptr_offsets=offsets,
                   output_ptr=nan(B, M_JAG), M=M_JAG, profile_mem=None),
              ["output_ptr"], 8, 4)["output_ptr"]
    check("jagged_sum variable_length_loop_buffer_then_sum 8x64 "
          "profile_mem=None", out, ref, FP32_TOL)


@guarded
def jagged_mean():
    """out[b] = sum * (1 / len) (int64 1 / len in fp32: an empty sequence
    gives 0 * inf = NaN, as torch's mean of nothing)."""
    values, offsets = jagged_inputs(LENS, M_JAG)
    B = len(LENS)
    lens = np.diff(offsets)
    ref = np.stack([f64(values[offsets[b]:offsets[b + 1]]).sum(0)
                    for b in range(B)])
    full = lens > 0
    for br, bm, w, s in ((8, 8, 4, 2), (128, 64, 8, 4), (2048, 8, 4, 2)):
        out = run(TILE,
                  "triton_jagged_mean_kernel_variable_length_loop_sum_then_buffer",
                  dict(BLOCK_SIZE_RAGGED=br, BLOCK_SIZE_M=bm),
                  (B * cdiv(M_JAG, bm),),
                  dict(input_ptr_values=values, input_ptr_offsets=offsets,
                       output_ptr=randn(B, M_JAG, dtype=np.float32),
                       M=M_JAG), ["output_ptr"], w, s)["output_ptr"]
        label = f"jagged_mean variable_length_loop_sum_then_buffer {br}x{bm}"
        check(label, out[full], ref[full] / lens[full][:, None], FP32_TOL)
        check(label + " empty sequence -> NaN", float(np.isnan(
            out[~full]).all()), 1.0, 0.0)


@guarded
def jagged_softmax():
    """softmax over each sequence's rows, per column, written in place of
    the values' layout."""
    values, offsets = jagged_inputs(LENS, M_JAG)
    values *= 3.0
    B = len(LENS)
    ref = np.zeros(values.shape)
    for b in range(B):
        x = f64(values[offsets[b]:offsets[b + 1]])
        if len(x):
            e = np.exp(x - x.max(0))
            ref[offsets[b]:offsets[b + 1]] = e / e.sum(0)
    for br, bm, w, s in ((8, 8, 4, 2), (128, 64, 8, 4), (2048, 8, 4, 2)):
        defs = dict(BLOCK_SIZE_RAGGED=br, BLOCK_SIZE_M=bm)
        grid = (B * cdiv(M_JAG, bm),)
        for kernel, extra in (
                ("triton_jagged_softmax_kernel_simple_fused_buffer_then_sum",
                 dict(MAX_SEQLEN=max(LENS))),
                ("triton_jagged_softmax_kernel_variable_length_loop_buffer_"
                 "then_sum", {})):
            out = run(TILE, kernel, defs, grid,
                      dict(input_ptr_values=values, input_ptr_offsets=offsets,
                           output_ptr=nan(*values.shape), M=M_JAG, **extra),
                      ["output_ptr"], w, s)["output_ptr"]
            check(f"jagged_softmax {kernel.split('kernel_')[1]} {br}x{bm}",
                  out, ref, FP32_TOL)


# ====================================================== 2. sum
@guarded
def sum_scalar():
    """atomic_add of each block's sum into one fp32 (other=mask: masked
    elements load False, 0.0); the output starts at a random value."""
    M = 1000
    x = randn(M, dtype=np.float32)
    for block in (64, 1024):  # 16 programs, then next_power_of_2(M)
        init = randn(1, dtype=np.float32)
        out = run(TILE, "triton_sum_kernel_scalar_result",
                  dict(BLOCK_SIZE_M=block), (cdiv(M, block),),
                  dict(input_ptr=x, output_ptr=init.copy(), M=M),
                  ["output_ptr"], 4, 3)["output_ptr"]
        check(f"sum scalar_result BLOCK_SIZE_M={block} M={M}", out,
              f64(init) + f64(x).sum(), FP32_TOL)


@guarded
def sum_1d():
    """sum over dim 0 or 1 of an (M, N) matrix; the grid is the max of the
    four cdivs, so programs past the kept dimension store nothing."""
    M, N = 37, 70
    x = randn(M, N, dtype=np.float32)
    for dim in (0, 1):
        for bnr, br, w in ((2, 2, 2), (16, 4, 4), (4, 16, 8), (16, 16, 8)):
            grid = (max(cdiv(M, br), cdiv(N, bnr), cdiv(M, bnr),
                        cdiv(N, br)),)
            out = run(TILE, "triton_sum_kernel_1D_result_sum_then_buffer",
                      dict(BLOCK_SIZE_NON_REDUCE_DIM=bnr,
                           BLOCK_SIZE_REDUCE_DIM=br, dim=dim), grid,
                      dict(input_ptr=x, output_ptr=nan(N if dim == 0 else M),
                           M=M, N=N), ["output_ptr"], w, 3)["output_ptr"]
            check(f"sum 1D_result_sum_then_buffer dim={dim} {bnr}x{br} "
                  f"M={M} N={N}", out, f64(x).sum(dim), FP32_TOL)


@guarded
def sum_2d():
    """sum over the middle dimension of (M, N, K), M, N, K constexprs."""
    M, N, K = 5, 37, 70
    x = randn(M, N, K, dtype=np.float32)
    for bn, bk, w in ((1, 1, 2), (4, 16, 4), (64, 4, 8), (1024, 64, 8)):
        out = run(TILE, "triton_sum_kernel_2D_result_dim_1_sum_then_buffer",
                  dict(M=M, N=N, K=K, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk),
                  (M * cdiv(K, bk),),
                  dict(input_ptr=x, output_ptr=nan(M, K)), ["output_ptr"],
                  w, 3)["output_ptr"]
        check(f"sum 2D_result_dim_1_sum_then_buffer {bn}x{bk} M={M} N={N} "
              f"K={K}", out, f64(x).sum(1), FP32_TOL)


# ====================================================== 3. welford
@guarded
def welford_layer_norm():
    """Inductor's welford layer norm: mean, rstd = 1/sqrt(var + 1e-5) (var
    over D), y = (x - mean) * rstd * w + b in bf16."""
    S = 41
    for D in (300, 2500):
        x = bf16_bits(rng.standard_normal((S, D)) * 2.0 + 0.7)
        w = bf16_bits(rng.standard_normal(D))
        b = bf16_bits(rng.standard_normal(D))
        xd = bf16_value(x)
        mean = xd.mean(1)
        rstd = 1.0 / np.sqrt(((xd - mean[:, None]) ** 2).mean(1) + 1e-5)
        y = (xd - mean[:, None]) * rstd[:, None] * bf16_value(w) \
            + bf16_value(b)
        for rblock in (1024, 2048):
            res = run(TILE, "triton_red_fused_native_layer_norm_0",
                      dict(XBLOCK=1, RBLOCK=rblock), (S,),
                      dict(in_out_ptr0=nan(S), in_ptr0=x, in_ptr1=w,
                           in_ptr2=b, out_ptr0=nan(S), out_ptr1=nan_bf16(S, D),
                           xnumel=S, rnumel=D),
                      ["in_out_ptr0", "out_ptr0", "out_ptr1"], 8, 1)
            label = f"welford layer_norm XBLOCK=1 RBLOCK={rblock} S={S} D={D}"
            check(label + " mean", res["out_ptr0"], mean, FP32_TOL)
            check(label + " rstd", res["in_out_ptr0"], rstd, FP32_TOL)
            check(label + " y (bf16)", bf16_value(res["out_ptr1"]), y,
                  BF16_TOL)


# ====================================================== 4. gather + gemv
@guarded
def gather_gemv():
    """out[i * S + j] = sum_r W[idx[i] (+8 if negative), j, r] * x[r] for
    i in 0, 1: W int8 (8, S, S), idx int64, x and out bf16. No masks: S a
    multiple of RBLOCK and 2S of XBLOCK, as the operator's 2^11..2^14."""
    for S, configs in ((64, ((64, 8), (64, 4), (64, 64))),
                       (512, ((8, 512), (8, 256))), (2048, ((1, 2048),))):
        W = rng.integers(-128, 128, (8, S, S)).astype(np.int8)
        idx = np.array([-3, 2], np.int64)  # rows 5 and 2
        x = bf16_bits(rng.standard_normal(S))
        ref = np.concatenate([f64(W[i % 8]) @ bf16_value(x) for i in idx])
        for xb, rb in configs:
            out = run(TILE, "triton_red_fused_mv_0", dict(XBLOCK=xb, RBLOCK=rb),
                      (cdiv(2 * S, xb),),
                      dict(in_ptr0=idx, in_ptr1=W, in_ptr2=x,
                           out_ptr1=nan_bf16(2 * S), xnumel=2 * S, rnumel=S),
                      ["out_ptr1"], 8, 1, export=S < 2048)["out_ptr1"]
            check(f"gather_gemv triton_red_fused_mv_0 XBLOCK={xb} "
                  f"RBLOCK={rb} S={S}", bf16_value(out), ref, BF16_TOL)


# ====================================================== 5. int4 GEMM
@guarded
def int4_gemm():
    """C = A @ W, A bf16 (M, K), W int4 in [-8, 6] packed two per int8
    along K (row 2i in the low nibble, 2i+1 in the high one; pack_2xint4),
    the packed (K/2, N) matrix column-major (`.T.contiguous().T`)."""
    M, N = 37, 70
    for (bm, bn, bk, g, w, s), K in (((16, 128, 256, 32, 4, 4), 512),
                                     ((128, 256, 128, 32, 8, 4), 384)):
        a = bf16_bits(rng.standard_normal((M, K)))
        wq = rng.integers(-8, 7, (K, N))
        packed = ((wq[0::2] & 0xF) | (wq[1::2] << 4)).astype(np.int8)
        b_buf = np.ascontiguousarray(packed.T)  # strides (1, K/2)
        out = run(TILE, "matmul_kernel",
                  dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                       GROUP_SIZE_M=g), (cdiv(M, bm) * cdiv(N, bn),),
                  dict(a_ptr=a, b_ptr=b_buf, c_ptr=nan_bf16(M, N), M=M, N=N,
                       K=K, stride_am=K, stride_ak=1, stride_bk=1,
                       stride_bn=K // 2, stride_cm=N, stride_cn=1),
                  ["c_ptr"], w, s)["c_ptr"]
        check(f"int4_gemm matmul_kernel {bm}x{bn}x{bk} M={M} N={N} K={K}",
              bf16_value(out), bf16_value(a) @ f64(wq), BF16_TOL)


# ====================================================== 6. bf16 x int16
SIG_BF16_A = "a_ptr=*bf16,b_ptr=*i16"  # TRANSPOSE=False
SIG_BF16_T = "a_ptr=*i16,b_ptr=*bf16"  # TRANSPOSE=True


@guarded
def bf16xint16_gemm():
    """C = A @ B in bf16 x bf16 with the int16 operand converted to bf16
    (rounded: |w| up to 2^15), fp32 accumulation, bf16 C."""
    M, N, K = 37, 70, 100
    for transpose in (False, True):
        bf = bf16_bits(rng.standard_normal((K, N) if transpose else (M, K)))
        i16 = rng.integers(-2 ** 15, 2 ** 15 - 1,
                           (M, K) if transpose else (K, N)).astype(np.int16)
        a, b = (i16, bf) if transpose else (bf, i16)
        ad = bf16_value(bf16_bits(f64(i16))) if transpose else bf16_value(bf)
        bd = bf16_value(bf) if transpose else bf16_value(bf16_bits(f64(i16)))
        for bm, bn, bk, w, s in ((128, 256, 64, 8, 3), (32, 64, 32, 2, 5)):
            with typed(SIG_BF16_T if transpose else SIG_BF16_A):
                out = run(TILE, "bf16xint16_matmul_kernel",
                          dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                               BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                               TRANSPOSE=transpose),
                          (cdiv(M, bm) * cdiv(N, bn),),
                          dict(a_ptr=a, b_ptr=b, c_ptr=nan_bf16(M, N), M=M,
                               N=N, K=K, stride_am=K, stride_ak=1,
                               stride_bk=N, stride_bn=1, stride_cm=N,
                               stride_cn=1), ["c_ptr"], w, s)["c_ptr"]
            check(f"bf16xint16_matmul_kernel TRANSPOSE={transpose} "
                  f"{bm}x{bn}x{bk} M={M} N={N} K={K}", bf16_value(out),
                  ad @ bd, BF16_TOL)


# ====================================================== 7. split-K GEMM
def partition_k_reference(a, b, PK, PK_SIZE, bm, bn, bk, g):
    """c_buf[m, n, pk] as _matmul_partition_k computes it: program pid's
    (pid_m, pid_n, pid_pk) by its grouped order, rows and columns wrapped
    % M, % N, K offsets (pid_pk * BK + r) % K advanced by PK_SIZE per
    iteration; NaN where no program stores."""
    M, K = a.shape
    N = b.shape[1]
    nm, nn = cdiv(M, bm), cdiv(N, bn)
    cbuf = np.full((M, N, PK), np.nan)
    for pid in range(nm * nn * PK):
        in_group = g * nn * PK
        first_m = pid // in_group * g
        gsize = min(nm - first_m, g)
        pid_m = first_m + pid % gsize
        pid_nk = pid % in_group // gsize
        pid_n, pid_pk = pid_nk // PK, pid_nk % PK
        rows = (pid_m * bm + np.arange(bm)) % M
        cols = (pid_n * bn + np.arange(bn)) % N
        ks = np.concatenate([(pid_pk * bk + np.arange(bk)) % K + i * PK_SIZE
                             for i in range(cdiv(PK_SIZE, bk))])
        assert ks.max() < K
        acc = f64(a[rows][:, ks]) @ f64(b[ks][:, cols])
        cbuf[np.ix_(pid_m * bm + np.arange(bm), pid_n * bn + np.arange(bn),
                    [pid_pk])] = acc[:, :, None]
    return cbuf


@guarded
def partition_k():
    """matmul_partition_k: PK = 32 partial products into c_buf (M, N, 32)
    fp32, then _reduce sums them into C (fp16). c_buf's and C's stores are
    unmasked: M and N are multiples of 32. K = 2048 partitions K exactly
    (PK_SIZE = BK = 64); K = 4096 with BK = 64 (PK_SIZE = 128, two
    iterations) is checked against the same index math (partitions overlap,
    as published)."""
    PK = 32
    for M, N, K, (bm, bn, bk, g, s) in (
            (96, 96, 2048, (32, 32, 64, 1, 4)),
            (96, 64, 2048, (32, 32, 64, 4, 5)),
            (64, 96, 4096, (32, 32, 64, 8, 6))):
        a = randn(M, K)
        b = randn(K, N)
        PK_SIZE = K // PK
        ref = partition_k_reference(a, b, PK, PK_SIZE, bm, bn, bk, g)
        cbuf = run(TILE, "_matmul_partition_k",
                   dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                        GROUP_SIZE_M=g), (cdiv(M, bm) * cdiv(N, bn) * PK,),
                   dict(a_ptr=a, b_ptr=b, c_buf_ptr=nan(M, N, PK), M=M, N=N,
                        K=K, PK=PK, PK_SIZE=PK_SIZE, stride_am=K,
                        stride_ak=1, stride_bk=N, stride_bn=1,
                        stride_cb_m=N * PK, stride_cb_n=PK, stride_cb_k=1),
                   ["c_buf_ptr"], 2, s, export=False)["c_buf_ptr"]
        label = f"partition_k _matmul_partition_k {bm}x{bn}x{bk} G={g} " \
                f"M={M} N={N} K={K}"
        written = ~np.isnan(ref)
        check(label + " c_buf", cbuf[written], ref[written], FP32_TOL)
        check(label + " c_buf unwritten where no program stores",
              float((np.isnan(cbuf) == ~written).all()), 1.0, 0.0)
        # _reduce: pid_m = pid // num_pid_m, pid_n = pid % num_pid_n (as
        # published; a bijection when num_pid_m == num_pid_n)
        c = run(TILE, "_reduce", dict(PK=PK, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32),
                (cdiv(M, 32) * cdiv(N, 32),),
                dict(c_ptr=nan(M, N, dtype=np.float16), c_buf_ptr=cbuf, M=M,
                     N=N, stride_cm=N, stride_cn=1, stride_cb_m=N * PK,
                     stride_cb_n=PK, stride_cb_k=1), ["c_ptr"], 4, 3,
                export=False)["c_ptr"]
        cref = np.full((M, N), np.nan)
        nm, nn = cdiv(M, 32), cdiv(N, 32)
        for pid in range(nm * nn):
            rows = (pid // nm * 32 + np.arange(32)) % M
            cols = (pid % nn * 32 + np.arange(32)) % N
            cref[np.ix_(rows, cols)] = f64(cbuf[np.ix_(rows, cols)]).sum(2)
        if K == 2048 and g == 1:
            check(label + " C = A @ B (c_buf reduced)", c,
                  f64(a) @ f64(b), FP16_TOL)
        written = ~np.isnan(cref)
        check(f"partition_k _reduce 32x32 PK={PK} M={M} N={N} (vs c_buf)",
              c[written], cref[written], FP16_TOL)
        check(f"partition_k _reduce M={M} N={N} C unwritten where no "
              "program stores", float((np.isnan(c) == ~written).all()), 1.0,
              0.0)


# ====================================================== 8. template attention
@guarded
def template_attention():
    """Inductor's template attention (with exp2): heads of 4096 x 64 fp16
    (hard-coded strides), scale 1, score mod: key n is seen by query m where
    (m <= 1024 and n <= 1024) or m >= n. Grid (12, 2): query blocks 0-11 of
    heads 0 and 1 (rows past 1024 take the causal part)."""
    N_CTX, D, heads, blocks = 4096, 64, 2, 12
    q = randn(heads, N_CTX, D)
    k = randn(heads, N_CTX, D)
    v = randn(heads, N_CTX, D)
    out = run(TILE, "triton_tem_fused_with_exp2",
              dict(num_queries=N_CTX, BLOCK_M=128, BLOCK_N=64, BLOCK_DMODEL=64),
              (blocks, heads), dict(arg_Q=q, arg_K=k, arg_V=v,
                                    out_ptr0=nan(heads, N_CTX, D,
                                                 dtype=np.float16)),
              ["out_ptr0"], 4, 3, export=False)["out_ptr0"]
    rows = blocks * 128
    m = np.arange(rows)[:, None]
    n = np.arange(N_CTX)[None, :]
    seen = ((m <= 1024) & (n <= 1024)) | (m >= n)
    ref = np.zeros((heads, rows, D))
    for h in range(heads):
        s = np.where(seen, f64(q[h, :rows]) @ f64(k[h]).T, -np.inf)
        p = np.exp(s - s.max(1, keepdims=True))
        ref[h] = p / p.sum(1, keepdims=True) @ f64(v[h])
    check(f"template_attention triton_tem_fused_with_exp2 128x64x64 "
          f"rows 0-{rows - 1} of {heads} heads", out[:, :rows], ref, FP16_TOL)
    check("template_attention rows past the grid untouched",
          float(np.isnan(out[:, rows:]).all()), 1.0, 0.0)


# ====================================================== 9. int2 quantize
@guarded
def int2_quantize():
    """quantize: -2 -> 0, -1 -> 1, 0 -> 2, anything else -> 3, four per
    int8 (element 4j + i in bits 2i..2i+1); dequantize maps back to -2, -1,
    0, 1. N a multiple of 4 (the launcher asserts it), not of BLOCK_N."""
    M, N = 37, 100
    vals = np.array([-2.0, -1.0, 0.0, 1.0, 0.5, -0.75, 3.0, -2.5])
    x = vals[rng.integers(0, len(vals), (M, N))]
    codes = np.select([x == -2, x == -1, x == 0], [0, 1, 2], 3)
    packed = sum(codes[:, i::4] << (2 * i) for i in range(4))
    ref = packed.astype(np.uint8).view(np.int8)
    for bm, bn, w in ((32, 32, 4), (64, 32, 8), (128, 64, 16)):
        out = run(TILE, "quantize_2d_bf16_to_int2", dict(BLOCK_M=bm, BLOCK_N=bn),
                  (cdiv(M, bm), cdiv(N, bn)),
                  dict(bf16_ptr=bf16_bits(x), int8_ptr=np.full((M, N // 4), 85,
                                                               np.int8),
                       M=M, N=N, stride_bm=N, stride_bn=1, stride_im=N // 4,
                       stride_in=1), ["int8_ptr"], w, 3)["int8_ptr"]
        check(f"quantize_2d_bf16_to_int2 {bm}x{bn} M={M} N={N} (exact)",
              f64(out), f64(ref), 0.0)
    q = rng.integers(-128, 128, (M, N // 4)).astype(np.int8)
    qu = q.view(np.uint8).astype(np.int64)
    deq = np.stack([np.array([-2.0, -1.0, 0.0, 1.0])[(qu >> (2 * i)) & 3]
                    for i in range(4)], -1).reshape(M, N)
    for bm, bn, w in ((32, 128, 4), (64, 128, 8), (128, 256, 16)):
        out = run(TILE, "dequantize_2d_int2_to_bf16",
                  dict(BLOCK_M=bm, BLOCK_N=bn), (cdiv(M, bm), cdiv(N, bn)),
                  dict(int8_ptr=q, bf16_ptr=nan_bf16(M, N), M=M, N=N,
                       stride_im=N // 4, stride_in=1, stride_bm=N,
                       stride_bn=1), ["bf16_ptr"], w, 3)["bf16_ptr"]
        check(f"dequantize_2d_int2_to_bf16 {bm}x{bn} M={M} N={N} (exact)",
              bf16_value(out), deq, 0.0)


# ----------------------------------------------------------- GPU compile
_sig, _ptrs = pg._sig, pg._ptrs
_I16, _I, _I1 = "i32:16", "i32", "i32:1"
# jagged: (B, *, M) fp32 values with M = 128 (tritonbench's default M),
# int64 offsets; MAX_SEQLEN has no fact
SIG_JAG = _sig(input_ptr_values="*fp32:16", input_ptr_offsets="*i64:16",
               output_ptr="*fp32:16", M=_I16, MAX_SEQLEN=_I)
SIG_JAGV = _sig(input_ptr_values="*fp32:16", input_ptr_offsets="*i64:16",
                output_ptr="*fp32:16", M=_I16)
SIG_JAGP = SIG_JAGV + ",profile_mem=*i64:16"
SIG_SUM = _sig(input_ptr="*fp32:16", output_ptr="*fp32:16", M=_I16)
SIG_SUM1 = _sig(input_ptr="*fp32:16", output_ptr="*fp32:16", M=_I16, N=_I16)
SIG_SUM2 = _sig(input_ptr="*fp32:16", output_ptr="*fp32:16")
# welford: (S, D) bf16 rows, S = 2048 * 128, D = 4096
SIG_WF = _sig(**_ptrs("in_out_ptr0 out_ptr0"), **_ptrs(
    "in_ptr0 in_ptr1 in_ptr2 out_ptr1", "*bf16:16"), xnumel=_I16,
    rnumel=_I16)
# gather_gemv at S = 4096
SIG_GG = _sig(in_ptr0="*i64:16", in_ptr1="*i8:16", in_ptr2="*bf16:16",
              out_ptr1="*bf16:16", xnumel=_I16, rnumel=_I16)
# int4 GEMM: A (M, K) bf16 contiguous, B packed (K/2, N) column-major, C (M, N)
SIG_I4 = _sig(a_ptr="*bf16:16", b_ptr="*i8:16", c_ptr="*bf16:16", M=_I16,
              N=_I16, K=_I16, stride_am=_I16, stride_ak=_I1, stride_bk=_I1,
              stride_bn=_I16, stride_cm=_I16, stride_cn=_I1)
_MM = dict(M=_I16, N=_I16, K=_I16, stride_am=_I16, stride_ak=_I1,
           stride_bk=_I16, stride_bn=_I1, stride_cm=_I16, stride_cn=_I1)
SIG_BI = _sig(a_ptr="*bf16:16", b_ptr="*i16:16", c_ptr="*bf16:16", **_MM)
SIG_BIT = _sig(a_ptr="*i16:16", b_ptr="*bf16:16", c_ptr="*bf16:16", **_MM)
# split-K: A, B fp16 4096 x 4096 contiguous, c_buf (M, N, 32)
SIG_PK = _sig(a_ptr="*fp16:16", b_ptr="*fp16:16", c_buf_ptr="*fp32:16",
              M=_I16, N=_I16, K=_I16, PK=_I16, PK_SIZE=_I16, stride_am=_I16,
              stride_ak=_I1, stride_bk=_I16, stride_bn=_I1,
              stride_cb_m=_I16, stride_cb_n=_I16, stride_cb_k=_I1)
SIG_RED = _sig(c_ptr="*fp16:16", c_buf_ptr="*fp32:16", M=_I16, N=_I16,
               stride_cm=_I16, stride_cn=_I1, stride_cb_m=_I16,
               stride_cb_n=_I16, stride_cb_k=_I1)
SIG_TEM = _sig(**_ptrs("arg_Q arg_K arg_V out_ptr0", "*fp16:16"))
# int2: (M, K) bf16 with K = 4096, packed (M, K / 4) int8
SIG_Q2 = _sig(bf16_ptr="*bf16:16", int8_ptr="*i8:16", M=_I16, N=_I16,
              stride_bm=_I16, stride_bn=_I1, stride_im=_I16, stride_in=_I1)
SIG_DQ2 = _sig(int8_ptr="*i8:16", bf16_ptr="*bf16:16", M=_I16, N=_I16,
               stride_im=_I16, stride_in=_I1, stride_bm=_I16, stride_bn=_I1)

GPU_BUILDS = [
    # (label, file, kernel, defines, warps, stages, JIT signature): the
    # first autotune config of each, plus the ones noted; the launchers'
    # num_warps / num_stages (Triton's defaults, 4 and 3, where unset)
    ("jagged_sum simple buffer_then_sum 8x8", TILE,
     "triton_jagged_sum_kernel_simple_fused_buffer_then_sum",
     "BLOCK_SIZE_RAGGED=8 BLOCK_SIZE_M=8", 4, 2, SIG_JAG),
    ("jagged_sum simple buffer_then_sum 64x64", TILE,
     "triton_jagged_sum_kernel_simple_fused_buffer_then_sum",
     "BLOCK_SIZE_RAGGED=64 BLOCK_SIZE_M=64", 8, 4, SIG_JAG),
    ("jagged_sum varlen buffer_then_sum 64x64 profiled", TILE,
     "triton_jagged_sum_kernel_variable_length_loop_buffer_then_sum",
     "BLOCK_SIZE_RAGGED=64 BLOCK_SIZE_M=64", 8, 4, SIG_JAGP),
    ("jagged_mean varlen sum_then_buffer 128x64", TILE,
     "triton_jagged_mean_kernel_variable_length_loop_sum_then_buffer",
     "BLOCK_SIZE_RAGGED=128 BLOCK_SIZE_M=64", 8, 4, SIG_JAGV),
    ("jagged_softmax simple 2048x64", TILE,
     "triton_jagged_softmax_kernel_simple_fused_buffer_then_sum",
     "BLOCK_SIZE_RAGGED=2048 BLOCK_SIZE_M=64", 8, 4, SIG_JAG),
    ("jagged_softmax varlen 128x64", TILE,
     "triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum",
     "BLOCK_SIZE_RAGGED=128 BLOCK_SIZE_M=64", 8, 4, SIG_JAGV),
    # the operator's BLOCK_SIZE_M = min(next_power_of_2(M), 2^20) on 4 warps
    ("sum scalar_result BLOCK 2^20", TILE, "triton_sum_kernel_scalar_result",
     "BLOCK_SIZE_M=1048576", 4, 3, SIG_SUM),
    ("sum scalar_result BLOCK 2^17", TILE, "triton_sum_kernel_scalar_result",
     "BLOCK_SIZE_M=131072", 4, 3, SIG_SUM),
    ("sum scalar_result BLOCK 4096", TILE, "triton_sum_kernel_scalar_result",
     "BLOCK_SIZE_M=4096", 4, 3, SIG_SUM),
    ("sum 1D dim=0 16x16", TILE, "triton_sum_kernel_1D_result_sum_then_buffer",
     "BLOCK_SIZE_NON_REDUCE_DIM=16 BLOCK_SIZE_REDUCE_DIM=16 dim=0", 8, 3,
     SIG_SUM1),
    ("sum 1D dim=1 16x16", TILE, "triton_sum_kernel_1D_result_sum_then_buffer",
     "BLOCK_SIZE_NON_REDUCE_DIM=16 BLOCK_SIZE_REDUCE_DIM=16 dim=1", 8, 3,
     SIG_SUM1),
    ("sum 2D dim 1 1024x64 (16, 4096, 16)", TILE,
     "triton_sum_kernel_2D_result_dim_1_sum_then_buffer",
     "M=16 N=4096 K=16 BLOCK_SIZE_N=1024 BLOCK_SIZE_K=64", 8, 3, SIG_SUM2),
    ("welford layer_norm RBLOCK=1024", TILE,
     "triton_red_fused_native_layer_norm_0", "XBLOCK=1 RBLOCK=1024", 8, 1,
     SIG_WF),
    ("welford layer_norm RBLOCK=2048", TILE,
     "triton_red_fused_native_layer_norm_0", "XBLOCK=1 RBLOCK=2048", 8, 1,
     SIG_WF),
    ("gather_gemv 1x2048", TILE, "triton_red_fused_mv_0",
     "XBLOCK=1 RBLOCK=2048", 8, 1, SIG_GG),
    ("gather_gemv 64x64", TILE, "triton_red_fused_mv_0",
     "XBLOCK=64 RBLOCK=64", 8, 1, SIG_GG),
    ("int4_gemm 16x128x256", TILE, "matmul_kernel",
     "BLOCK_SIZE_M=16 BLOCK_SIZE_N=128 BLOCK_SIZE_K=256 GROUP_SIZE_M=32", 4,
     4, SIG_I4),
    ("int4_gemm 128x256x128", TILE, "matmul_kernel",
     "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=128 GROUP_SIZE_M=32", 8,
     4, SIG_I4),
    ("partition_k 32x32x64 G=1", TILE, "_matmul_partition_k",
     "BLOCK_SIZE_M=32 BLOCK_SIZE_N=32 BLOCK_SIZE_K=64 GROUP_SIZE_M=1", 2, 4,
     SIG_PK),
    ("partition_k _reduce 32x32 PK=32", TILE, "_reduce",
     "PK=32 BLOCK_SIZE_M=32 BLOCK_SIZE_N=32", 4, 3, SIG_RED),
    ("template_attention exp2 128x64x64", TILE, "triton_tem_fused_with_exp2",
     "num_queries=4096 BLOCK_M=128 BLOCK_N=64 BLOCK_DMODEL=64", 4, 3,
     SIG_TEM),
    ("quantize int2 32x32", TILE, "quantize_2d_bf16_to_int2",
     "BLOCK_M=32 BLOCK_N=32", 4, 3, SIG_Q2),
    ("quantize int2 128x64 w16", TILE, "quantize_2d_bf16_to_int2",
     "BLOCK_M=128 BLOCK_N=64", 16, 3, SIG_Q2),
    ("dequantize int2 32x128", TILE, "dequantize_2d_int2_to_bf16",
     "BLOCK_M=32 BLOCK_N=128", 4, 3, SIG_DQ2),
    ("dequantize int2 128x256 w16", TILE, "dequantize_2d_int2_to_bf16",
     "BLOCK_M=128 BLOCK_N=256", 16, 3, SIG_DQ2),
]
# bf16xint16: "as written" has the pointers' types only (typed(...))
GPU_BUILDS_TYPED = [
    (SIG_BF16_A, ("bf16xint16 128x256x64", TILE, "bf16xint16_matmul_kernel",
                  "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 "
                  "GROUP_SIZE_M=8 TRANSPOSE=False", 8, 3, SIG_BI)),
    (SIG_BF16_T, ("bf16xint16 128x256x64 TRANSPOSE", TILE,
                  "bf16xint16_matmul_kernel",
                  "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 "
                  "GROUP_SIZE_M=8 TRANSPOSE=True", 8, 3, SIG_BIT)),
]


CPU_TESTS = (jagged_sum, jagged_mean, jagged_softmax, sum_scalar, sum_1d,
             sum_2d, welford_layer_norm, gather_gemv, int4_gemm,
             bf16xint16_gemm, partition_k, template_attention, int2_quantize)


def typed_gpu_builds():
    """The bf16xint16 builds, compiled through typed(...)."""
    for sig, build in GPU_BUILDS_TYPED:
        with typed(sig):
            pg.GPU_BUILDS[:] = [build]
            pg.gpu_compile()


if __name__ == "__main__":
    pg.main(CPU_TESTS, GPU_BUILDS, typed_gpu_builds)
