"""Memory-bound and hint-free kernels against what a user would otherwise
call (issue 11): softmax and layernorm against torch and against Triton
compiling the same kernel source, the tutorial matmul compiled without
hints against the hinted one and cuBLAS.

Runs on the device machine with what bench/build_kernels.sh compiled.
Every contender is first checked against a float64 reference on fresh
random inputs (outputs poisoned with NaN first). Then, per shape, at least
5 interleaved rounds; each round times every contender (median of CUDA
event timings of 20 launches replayed as a CUDA graph, so that no host
launch cost is timed), and each reported ratio is the median of the
per-round ratios.

usage: python3 bench/kernels_bench.py DIR [LOG] [--rounds N] [--plots FOLDER]
"""
import argparse
import os
import re
import statistics

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, median_ms, rel_error, logger

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--plots", default="",
                    help="folder for PNG plots of each family (matplotlib)")
parser.add_argument("--only", default="softmax,layernorm,matmul,attention",
                    help="comma-separated benchmarks to run")
parser.add_argument("--odd", action="store_true",
                    help="softmax and layernorm at rows that are not 16-byte "
                         "aligned (the general path) instead of the issue's")
parser.add_argument("--baseline", default="",
                    help="a second build folder, timed as 'old' beside DIR")
args = parser.parse_args()
log = logger(args.log)
torch.manual_seed(0)
failures = []
table = []



def check(name, err, tol):
    ok = err == err and err <= tol
    log(f"{'PASS' if ok else 'FAIL'} {name:48s} rel_err={err:.2e} (tol {tol:.0e})")
    if not ok:
        failures.append(name)


def add_baseline(contenders, kernel, label, out, kargs, ref, tol):
    """With --baseline: the same kernel from that build, as contender
    "old", after its check against float64 (`out` is what it writes)."""
    if not args.baseline:
        return
    run = Kernel(args.baseline, kernel).bind(*kargs)
    run()
    torch.cuda.synchronize()
    check(f"{label} old tilec", rel_error(out, ref), tol)
    contenders["old"] = run


# Triton tutorial 02, the kernel examples/softmax.tile ports.
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


# The kernel examples/cumsum.tile ports.
@triton.jit
def cumsum_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                  n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(input_ptr + row * input_row_stride + cols, mask=mask,
                other=0.0)
    tl.store(output_ptr + row * output_row_stride + cols,
             tl.cumsum(x, axis=0), mask=mask)


# Triton tutorial 05, the kernel examples/layernorm.tile ports.
@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


# Triton tutorial 06's forward (pointer form), the kernel
# examples/attention_fwd.tile ports.
@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_kn, stride_vk,
                    start_m, qk_scale, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, STAGE: tl.constexpr, offs_m,
                    offs_n, N_CTX):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
    else:
        lo, hi = 0, N_CTX
    k_ptrs += lo * stride_kn
    v_ptrs += lo * stride_vk
    for start_n in range(lo, hi, BLOCK_N):
        k = tl.load(k_ptrs)
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
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
        k_ptrs += BLOCK_N * stride_kn
        v_ptrs += BLOCK_N * stride_vk
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, sm_scale, M, Out,
             stride_qz, stride_qh, stride_qm, stride_qk,
             stride_kz, stride_kh, stride_kn, stride_kk,
             stride_vz, stride_vh, stride_vk, stride_vn,
             stride_oz, stride_oh, stride_om, stride_on,
             Z, H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_offset = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_offset = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_offset = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = Q + q_offset + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    k_ptrs = K + k_offset + offs_d[:, None] * stride_kk + offs_n[None, :] * stride_kn
    v_ptrs = V + v_offset + offs_n[:, None] * stride_vk + offs_d[None, :] * stride_vn
    o_ptrs = Out + o_offset + offs_m[:, None] * stride_om + offs_d[None, :] * stride_on
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_ptrs)
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs,
                                        stride_kn, stride_vk, start_m,
                                        qk_scale, BLOCK_M, BLOCK_N, 4 - STAGE,
                                        offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs,
                                        stride_kn, stride_vk, start_m,
                                        qk_scale, BLOCK_M, BLOCK_N, 2, offs_m,
                                        offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    tl.store(o_ptrs, acc.to(tl.float16))

ATTN_CONFIGS = [(128, 64, 4, 3), (128, 64, 8, 3), (64, 64, 4, 3)]


def bench_attention():
    Z, H = 4, 32
    for D in [64, 128]:
        for causal in [False, True]:
            for N in [1024, 4096, 16384]:
                stage = 3 if causal else 1
                q, k, v = (torch.randn(Z, H, N, D, device="cuda",
                                       dtype=torch.float16) for _ in range(3))
                sm_scale = D ** -0.5
                # The float64 reference of two heads (all of them would
                # not fit at N = 16384); every head is checked for NaN.
                ref = torch.nn.functional.scaled_dot_product_attention(
                    q[:1, :2].double(), k[:1, :2].double(),
                    v[:1, :2].double(), is_causal=causal, scale=sm_scale)
                name = f"attention D={D} {'causal' if causal else 'full'} N={N}"

                def make(launcher):
                    o = torch.full_like(q, float("nan"))
                    m = torch.full((Z * H, N), float("nan"), device="cuda")
                    return o, m, launcher(o, m)

                def tilec_launcher(index, suffix=""):
                    kern = Kernel(args.dir, f"attention_d{D}_s{stage}{suffix}",
                                  index)
                    return lambda o, m: kern.bind(
                        q, k, v, sm_scale, m, o, *q.stride(), *k.stride(),
                        *v.stride(), *o.stride(), Z, H, N)

                def triton_launcher(cfg):
                    bm, bn, w, s = cfg
                    grid = (triton.cdiv(N, bm), Z * H)
                    return lambda o, m: (lambda: attn_fwd[grid](
                        q, k, v, sm_scale, m, o, *q.stride(), *k.stride(),
                        *v.stride(), *o.stride(), Z, H, N, HEAD_DIM=D,
                        BLOCK_M=bm, BLOCK_N=bn, STAGE=stage, num_warps=w,
                        num_stages=s))
                # Both sides autotuned over the same configs, each checked.
                best = {}
                configs = range(len(ATTN_CONFIGS))
                for who, launchers in [
                        ("tilec", [tilec_launcher(i) for i in configs]),
                        ("tilec_jit", [tilec_launcher(i, "_jit") for i in configs]),
                        ("triton", [triton_launcher(c) for c in ATTN_CONFIGS])]:
                    timed = []
                    for i, launcher in enumerate(launchers):
                        o, m, run = make(launcher)
                        run()
                        torch.cuda.synchronize()
                        err = rel_error(o[:1, :2], ref)
                        if torch.isnan(o).any():
                            err = float("nan")
                        check(f"{name} {who} config {i}", err, 5e-3)
                        if err == err and err <= 5e-3:
                            ms = median_ms(run, reps=5)
                            timed.append((ms, run))
                            extra = ""
                            if who == "triton":
                                compiled = run()
                                extra = (f" ({getattr(compiled, 'n_regs', '?')} registers, "
                                         f"{getattr(compiled, 'n_spills', '?')} spilled)")
                            log(f"  {who} config {ATTN_CONFIGS[i]}: "
                                f"{ms:.4f} ms{extra}")
                    if timed:
                        best[who] = min(timed, key=lambda t: t[0])[1]
                if len(best) < 3:
                    continue
                times = rounds({
                    "tilec": best["tilec"],
                    "tilec_jit": best["tilec_jit"],
                    "sdpa": lambda: torch.nn.functional.scaled_dot_product_attention(
                        q, k, v, is_causal=causal, scale=sm_scale),
                    "triton": best["triton"]}, reps=5)
                flops = 4 * Z * H * N * N * D * (0.5 if causal else 1)
                record(f"attention D={D} {'causal' if causal else 'full'}",
                       f"N={N}", "TFLOP/s", times, flops,
                       {"tilec": "tilec", "sdpa": "torch SDPA",
                        "triton": "Triton"})
                tf = flops / (statistics.median(times["tilec"]) * 1e-3) / 1e12
                table.append((name, f"{tf:.0f} TFLOP/s",
                              ratio(times, "tilec", "sdpa"),
                              ratio(times, "tilec", "triton"), "torch SDPA"))
                tf = flops / (statistics.median(times["tilec_jit"]) * 1e-3) / 1e12
                table.append((name + " (JIT facts)", f"{tf:.0f} TFLOP/s",
                              ratio(times, "tilec_jit", "sdpa"),
                              ratio(times, "tilec_jit", "triton"), "torch SDPA"))


def rounds(contenders, reps=20):
    """Per contender, the list of per-round medians (interleaved). Each
    time is one launch's share of 20 launches replayed as a CUDA graph, so
    that host launch cost (CuPy's for tilec, Python's for Triton, C++'s for
    torch) is not timed: a 4096x256 softmax takes 6 us on the GPU and more
    than that to launch from Python."""
    times = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, fn in contenders.items():
            times[name].append(graph_ms(fn, reps=max(5, reps // 2)))
    return times


def ratio(times, a, b):
    """Median over rounds of time(b) / time(a): a's speed relative to b."""
    return statistics.median(tb / ta for ta, tb in zip(times[a], times[b]))


# For the plots: family -> (unit, [(shape label, {contender: speed})]).
series = {}


def record(family, label, unit, times, work, names):
    """Each contender's speed (work per median time: bytes -> TB/s, flops
    -> TFLOP/s), under the plot's names for them."""
    speeds = {names[c]: work / (statistics.median(t) * 1e-3) / 1e12
              for c, t in times.items() if c in names}
    series.setdefault(family, (unit, []))[1].append((label, speeds))


def bandwidth_row(name, times, nbytes, lib):
    """A table row for a memory-bound kernel timed against torch ("torch")
    and Triton ("triton"): tilec's bandwidth and both ratios."""
    family, shape = name.rsplit(" ", 1)
    record(family, shape, "TB/s", times, nbytes,
           {"tilec": "tilec", "torch": lib, "triton": "Triton"})
    tbs = nbytes / (statistics.median(times["tilec"]) * 1e-3) / 1e12
    if "old" in times:
        log(f"{name}: tilec {ratio(times, 'tilec', 'old'):.3f}x the baseline")
    table.append((name, f"{tbs:.2f} TB/s", ratio(times, "tilec", "torch"),
                  ratio(times, "tilec", "triton"), lib))


def bench_softmax():
    # The shapes, and the tutorial's odd 1823 x 781 (rows of 781
    # floats: not 16-byte aligned, so the general path).
    shapes = [(4096, 256), (4096, 1024), (4096, 4096), (4096, 16384),
              (1823, 781)]
    if args.odd:
        shapes = [(1823, 781), (4096, 1023), (4096, 4095), (4096, 16383)]
    for M, N in shapes:
        block = triton.next_power_of_2(N)
        warps = 16 if block >= 4096 else 8 if block >= 2048 else 4
        k = Kernel(args.dir, f"softmax_{block}")
        x = torch.randn(M, N, device="cuda")
        y = torch.full_like(x, float("nan"))
        y_tr = torch.full_like(x, float("nan"))
        run_tilec = k.bind(y, x, x.stride(0), y.stride(0), M, N)
        grid = (M,)

        def run_triton():
            softmax_kernel[grid](y_tr, x, x.stride(0), y_tr.stride(0), M, N,
                                 BLOCK_SIZE=block, num_warps=warps)
        run_tilec()
        run_triton()
        torch.cuda.synchronize()
        ref = torch.softmax(x.double(), dim=1)
        check(f"softmax {M}x{N} tilec", rel_error(y, ref), 1e-5)
        check(f"softmax {M}x{N} triton", rel_error(y_tr, ref), 1e-5)
        contenders = {"tilec": run_tilec,
                      "torch": lambda: torch.softmax(x, dim=1),
                      "triton": run_triton}
        y_old = torch.full_like(x, float("nan"))
        add_baseline(contenders, f"softmax_{block}", f"softmax {M}x{N}", y_old,
                     (y_old, x, x.stride(0), y_old.stride(0), M, N), ref, 1e-5)
        times = rounds(contenders)
        bandwidth_row(f"softmax fp32 {M}x{N}", times, 2 * M * N * 4,
                      "torch.softmax")


def bench_cumsum():
    shapes = [(4096, 1024), (4096, 4096), (1823, 781)]
    if args.odd:
        shapes = [(1823, 781), (4096, 1023), (4096, 4095)]
    for M, N in shapes:
        block = triton.next_power_of_2(N)
        k = Kernel(args.dir, f"cumsum_{max(block, 1024)}")
        x = torch.randn(M, N, device="cuda")
        y = torch.full_like(x, float("nan"))
        y_tr = torch.full_like(x, float("nan"))
        run_tilec = k.bind(y, x, x.stride(0), y.stride(0), M, N)

        def run_triton():
            cumsum_kernel[(M,)](y_tr, x, x.stride(0), y_tr.stride(0), M, N,
                                BLOCK_SIZE=max(block, 1024), num_warps=4)
        run_tilec()
        run_triton()
        torch.cuda.synchronize()
        ref = x.double().cumsum(1)
        check(f"cumsum {M}x{N} tilec", rel_error(y, ref), 1e-5)
        check(f"cumsum {M}x{N} triton", rel_error(y_tr, ref), 1e-5)
        contenders = {"tilec": run_tilec,
                      "torch": lambda: torch.cumsum(x, dim=1),
                      "triton": run_triton}
        y_old = torch.full_like(x, float("nan"))
        add_baseline(contenders, f"cumsum_{max(block, 1024)}", f"cumsum {M}x{N}",
                     y_old, (y_old, x, x.stride(0), y_old.stride(0), M, N),
                     ref, 1e-5)
        times = rounds(contenders)
        bandwidth_row(f"cumsum fp32 {M}x{N}", times, 2 * M * N * 4,
                      "torch.cumsum")


def bench_layernorm():
    M = 4096
    sizes = [1023, 4095, 8190, 16383] if args.odd else [1024, 4096, 8192, 16384]
    for N in sizes:
        block = min(65536 // 2, triton.next_power_of_2(N))
        warps = min(max(block // 256, 1), 8)
        k = Kernel(args.dir, f"layernorm_{block}")
        x = torch.randn(M, N, device="cuda", dtype=torch.float16)
        w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
        b = torch.randn(N, device="cuda", dtype=torch.float16)
        eps = 1e-5
        outs = {}
        for who in ["tilec", "triton"]:
            outs[who] = (torch.full_like(x, float("nan")),
                         torch.full((M,), float("nan"), device="cuda"),
                         torch.full((M,), float("nan"), device="cuda"))
        y, mean, rstd = outs["tilec"]
        run_tilec = k.bind(x, y, w, b, mean, rstd, x.stride(0), M, N, eps)
        yt, meant, rstdt = outs["triton"]

        def run_triton():
            layer_norm_fwd[(M,)](x, yt, w, b, meant, rstdt, x.stride(0), N,
                                 eps, BLOCK_SIZE=block, num_warps=warps)
        run_tilec()
        run_triton()
        torch.cuda.synchronize()
        ref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(),
                                             b.double(), eps)
        check(f"layernorm {M}x{N} tilec", rel_error(y, ref), 2e-3)
        check(f"layernorm {M}x{N} triton", rel_error(yt, ref), 2e-3)
        xd = x.double()
        check(f"layernorm {M}x{N} tilec mean", rel_error(mean, xd.mean(1)), 1e-5)
        check(f"layernorm {M}x{N} tilec rstd",
              rel_error(rstd, 1 / (xd.var(1, unbiased=False) + eps).sqrt()), 1e-4)
        contenders = {
            "tilec": run_tilec,
            "torch": lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps),
            "triton": run_triton}
        y_old = torch.full_like(x, float("nan"))
        add_baseline(contenders, f"layernorm_{block}", f"layernorm {M}x{N}",
                     y_old, (x, y_old, w, b, torch.empty_like(mean),
                             torch.empty_like(rstd), x.stride(0), M, N, eps),
                     ref, 2e-3)
        times = rounds(contenders)
        bandwidth_row(f"layernorm fp16 {M}x{N}", times, 2 * M * N * 2,
                      "F.layer_norm")


def bench_matmul_without_hints():
    M = N = K = 4096
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    ref = a.double() @ b.double()
    runs = {}
    for name in ["matmul_nohints", "matmul_hints"]:
        k = Kernel(args.dir, name)
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        run = k.bind(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                     b.stride(1), c.stride(0), c.stride(1))
        run()
        torch.cuda.synchronize()
        check(f"{name} {M}x{N}x{K}", rel_error(c, ref), 2e-3)
        runs[name] = run
    # The general path of the hint-free kernel: an odd row stride (a view
    # of a wider matrix) fails the guard; K + 8 (16-byte rows) passes it.
    for pad in [1, 8]:
        a_wide = torch.randn(M, K + pad, device="cuda", dtype=torch.float16)
        a_view = a_wide[:, :K]
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        Kernel(args.dir, "matmul_nohints").bind(
            a_view, b, c, M, N, K, a_view.stride(0), a_view.stride(1),
            b.stride(0), b.stride(1), c.stride(0), c.stride(1))()
        torch.cuda.synchronize()
        check(f"matmul_nohints lda = K + {pad}",
              rel_error(c, a_view.double() @ b.double()), 2e-3)
    runs["cublas"] = lambda: torch.matmul(a, b)
    times = rounds(runs, reps=10)
    record("matmul (tutorial 03, fp16)", f"{M}^3", "TFLOP/s", times,
           2 * M * N * K, {"matmul_nohints": "tilec, as written",
                           "matmul_hints": "tilec, hinted",
                           "cublas": "cuBLAS"})
    flops = 2 * M * N * K / (statistics.median(times["matmul_nohints"]) * 1e-3) / 1e12
    table.append((f"matmul no hints {M}^3 vs hinted", f"{flops:.0f} TFLOP/s",
                  ratio(times, "matmul_nohints", "matmul_hints"), float("nan"),
                  "same kernel with hints"))
    table.append((f"matmul no hints {M}^3 vs cuBLAS", f"{flops:.0f} TFLOP/s",
                  ratio(times, "matmul_nohints", "cublas"), float("nan"),
                  "cuBLAS"))
    # Odd shapes: 1000 (16-byte rows, the guarded fast path) and a K of
    # 4097 (odd rows: the general path).
    for (m, n, k) in [(1000, 1000, 1000), (2048, 3072, 768), (4096, 4096, 4097)]:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        ref = a.double() @ b.double()
        timed = []
        for index in range(4):
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            run = Kernel(args.dir, "matmul_nohints_all", index).bind(
                a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                b.stride(1), c.stride(0), c.stride(1))
            run()
            torch.cuda.synchronize()
            err = rel_error(c, ref)
            check(f"matmul_nohints {m}x{n}x{k} config {index}", err, 2e-3)
            if err <= 2e-3:
                ms = graph_ms(run, reps=20)
                log(f"  config {index} {m}x{n}x{k}: {ms:.4f} ms")
                timed.append((ms, run))
        run = min(timed, key=lambda t: t[0])[1]
        times = rounds({"matmul_nohints": run,
                        "cublas": lambda: torch.matmul(a, b)}, reps=10)
        record("matmul (tutorial 03, fp16)", f"{m}x{n}x{k}", "TFLOP/s",
               times, 2 * m * n * k, {"matmul_nohints": "tilec, as written",
                                      "cublas": "cuBLAS"})
        flops = 2 * m * n * k / (statistics.median(times["matmul_nohints"]) * 1e-3) / 1e12
        table.append((f"matmul no hints {m}x{n}x{k}", f"{flops:.0f} TFLOP/s",
                      ratio(times, "matmul_nohints", "cublas"), float("nan"),
                      "cuBLAS"))


BENCHES = {"softmax": bench_softmax, "layernorm": bench_layernorm,
           "cumsum": bench_cumsum,
           "matmul": bench_matmul_without_hints, "attention": bench_attention}
for name in filter(None, args.only.split(",")):
    BENCHES[name]()

log("")
log(f"{'kernel':36s} {'tilec':>13s} {'vs lib':>7s} {'vs Triton':>9s}  (lib)")
for name, speed, vs_lib, vs_triton, lib in table:
    log(f"{name:36s} {speed:>13s} {vs_lib:6.2f}x {vs_triton:8.2f}x  ({lib})")
log(f"correctness failures: {len(failures)} {failures}")


def plot(folder):
    """One grouped bar chart per family: speed per shape and contender."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(folder, exist_ok=True)
    device = torch.cuda.get_device_name()
    for family, (unit, points) in series.items():
        contenders = list(dict.fromkeys(c for _, sp in points for c in sp))
        fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(points) + 2), 3.6))
        width = 0.8 / len(contenders)
        for i, c in enumerate(contenders):
            xs = [j + (i - (len(contenders) - 1) / 2) * width
                  for j in range(len(points))]
            ax.bar(xs, [sp.get(c, 0) for _, sp in points], width, label=c)
        ax.set_xticks(range(len(points)), [label for label, _ in points])
        ax.set_ylabel(unit)
        ax.set_title(f"{family} ({device}, medians of {args.rounds} rounds)",
                     fontsize=9)
        ax.legend(fontsize=8)
        fig.tight_layout()
        name = re.sub(r"[^a-z0-9]+", "_", family.lower()).strip("_")
        fig.savefig(os.path.join(folder, f"{name}.png"), dpi=110)
        plt.close(fig)
        log(f"plot: {name}.png")


if args.plots:
    plot(args.plots)
