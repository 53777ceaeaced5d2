"""Check every compiled example on the GPU against a float64 reference.

Runs on the device machine: loads the PTX and JSON metadata that
bench/build_correctness.sh produced, launches each kernel through CuPy with
the grid and shared memory the metadata gives, and compares with PyTorch in
float64 on fresh random inputs. Outputs are poisoned (NaN) before every
launch so unwritten elements fail the check. Times are CUDA-event medians,
for information only.

usage: [ONLY=check_x,...] python3 bench/gpu_correctness.py DIR [LOG]
"""
import json
import math
import os
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import (Kernel as _Kernel, descriptor_parts, logger,
                        median_ms, rel_error)

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
torch.manual_seed(0)
rows = []


def Kernel(name, index=None):
    return _Kernel(DIR, name, index)



def record(test, shape, err, tol, ms=None, extra=""):
    ok = err == err and err <= tol
    rows.append((test, shape, err, tol, ok, ms, extra))
    timing = f"{ms:8.3f} ms" if ms is not None else ""
    log(f"{'PASS' if ok else 'FAIL'} {test:28s} {shape:22s} rel_err={err:.3e} "
        f"(tol {tol:.0e}) {timing} {extra}")


def check_vector_add():
    k = Kernel("vector_add")
    for n in [1, 1000, 98432, (1 << 24) + 3]:
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        z = torch.full((n,), float("nan"), device="cuda")
        k(x, y, z, n)
        torch.cuda.synchronize()
        ref = x.double() + y.double()
        ms = median_ms(lambda: k(x, y, z, n)) if n > 1e6 else None
        record("vector_add", f"n={n}", rel_error(z, ref), 1e-6, ms)


def tf32(x):
    """x rounded to tf32 as cvt.rna.tf32.f32 does (nearest, ties away)."""
    bits = x.contiguous().view(torch.int32)
    return ((bits + 0x1000) & -0x2000).view(torch.float32)


def tf32_truncated(x):
    """x as wgmma's tf32 form reads it from shared memory: the upper 19
    bits (as Triton's Hopper kernels)."""
    return (x.contiguous().view(torch.int32) & -0x2000).view(torch.float32)


def matmul_case(k, dtype, M, N, K, transpose_b=False, act=None, tol=2e-3,
                timed=False, label=None, operands=lambda x: x, out_dtype=None,
                transpose_a=False, odd_rows=""):
    def randn(*shape):  # fp8 has no randn: round normal fp32 values
        return torch.randn(*shape, device="cuda").to(dtype)
    # odd_rows names the operands ("a", "b") whose rows start one element
    # apart from an aligned address (row stride K + 1 or N + 1): the other
    # operand keeps its fast loads in the kernels' per-operand copies.
    a = (randn(K, M).t() if transpose_a else
         randn(M, K + 1)[:, :K] if "a" in odd_rows else randn(M, K))
    b = (randn(N, K).t() if transpose_b else
         randn(K, N + 1)[:, :N] if "b" in odd_rows else randn(K, N))
    c = torch.full((M, N), float("nan"), device="cuda",
                   dtype=out_dtype or dtype)
    args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
            b.stride(1), c.stride(0), c.stride(1))
    k(*args)
    torch.cuda.synchronize()
    # `operands` may list several roundings of the operands, each a valid
    # reading (a kernel of several paths may take either): the closest.
    error = None
    for rounded in (operands if isinstance(operands, list) else [operands]):
        ref = rounded(a).double() @ rounded(b).double()
        if act == "leaky_relu":
            ref = torch.where(ref >= 0, ref, 0.01 * ref)
        e = rel_error(c, ref)
        error = e if error is None else min(error, e)
    ms = median_ms(lambda: k(*args), reps=5) if timed else None
    extra = f"{2 * M * N * K / ms / 1e9:.1f} TFLOP/s" if ms else ""
    shape = (("^T" if transpose_a else "") + f"{M}x{N}x{K}" +
             ("^T" if transpose_b else "") +
             (f" odd rows {odd_rows}" if odd_rows else ""))
    record(label or k.md["kernel"], shape, error, tol, ms, extra)


SHAPES = [(512, 512, 512), (1000, 1000, 1000), (4096, 4096, 4097),
          (8, 4096, 4096)]


def matmul_configs(name, prefix):
    """Each compiled config of the matmul kernel `name`, with its label."""
    for i, cfg in enumerate(json.load(open(f"{DIR}/{name}.json"))):
        c = cfg["constexprs"]
        yield Kernel(name, i), (f"{prefix} "
                                f"{c['BLOCK_M']}x{c['BLOCK_N']}x{c['BLOCK_K']}")


def check_matmul():
    for k, label in matmul_configs("matmul_fp16", "matmul fp16"):
        for (M, N, K) in SHAPES:
            matmul_case(k, torch.float16, M, N, K, timed=(M == 4096),
                        label=label)
        matmul_case(k, torch.float16, 512, 384, 320, transpose_b=True,
                    label=label)
        for odd in ["a", "b"]:
            matmul_case(k, torch.float16, 512, 384, 320, odd_rows=odd,
                        label=label)
        # B transposed: no stride is 1 where the kernel asks, so it runs the
        # general path (scalar loads); timed to follow that path's speed.
        matmul_case(k, torch.float16, 4096, 4096, 4096, transpose_b=True,
                    timed=True, label=label)
    # fp32 inputs: the default "tf32" precision is checked against a
    # reference on tf32-rounded operands (a kernel that skipped the rounding
    # would be off by ~3e-4); "tf32x3" and "ieee" against the plain fp32
    # operands. The tensor cores' fp32 accumulation truncates (measured: the
    # tf32 error against the tf32-rounded reference grows linearly with K,
    # 1.2e-6 at K=512 to 9.6e-6 at K=4097, about K * 2^-28.7), and tf32x3
    # accumulates three products per step, so their tolerance grows with K:
    # 4x that slope per accumulated product. It stays far below the 3e-4 of
    # a tf32 kernel that skipped the rounding, or of "tf32x3" computed as
    # plain tf32.
    # On sm_90a the tf32 kernel's fast path (aligned, unit strides) runs
    # on wgmma, B row-major included (the product computed transposed),
    # which reads the operands truncated; its other paths round.
    for precision, operands in [("tf32", [tf32, tf32_truncated]),
                                ("tf32x3", lambda x: x),
                                ("ieee", lambda x: x)]:
        for k, label in matmul_configs(f"matmul_fp32_{precision}",
                                       f"matmul fp32 {precision}"):
            for (M, N, K) in SHAPES:
                steps = {"tf32": 1, "tf32x3": 3, "ieee": 0}[precision]
                tol = 1e-5 + steps * K * 2.0 ** -27
                matmul_case(k, torch.float32, M, N, K, tol=tol,
                            timed=(M == 4096), label=label, operands=operands)
    # B K-major (A @ W^T, as the JIT states it): wgmma's tf32 form, on the
    # general path of odd sizes too, which reads the operands truncated to
    # tf32 in shared memory.
    # A M-major as well (X^T @ dY): wgmma reads A into registers.
    for name, transpose_a in [("kmajor", False), ("mmajor", True)]:
        for k, label in matmul_configs(f"matmul_fp32_tf32_{name}",
                                       f"matmul fp32 tf32 {name}"):
            for (M, N, K) in [(512, 512, 512), (1024, 768, 4096),
                              (1000, 1000, 1000)]:
                matmul_case(k, torch.float32, M, N, K, transpose_b=True,
                            transpose_a=transpose_a,
                            tol=1e-5 + K * 2.0 ** -27, label=label,
                            operands=tf32_truncated)
    # fp8 A and B, fp16 C (tutorial 03's fp8 run): B K-major as the
    # tutorial passes it (b.T) and N-major.
    for fp8, dtype in [("fp8e4nv", torch.float8_e4m3fn),
                       ("fp8e5", torch.float8_e5m2)]:
        for k, label in matmul_configs(f"matmul_{fp8}", f"matmul {fp8}"):
            for (M, N, K) in [(512, 512, 512), (1000, 1000, 1000)]:
                for transpose_b in (True, False):
                    matmul_case(k, dtype, M, N, K, transpose_b=transpose_b,
                                label=label, out_dtype=torch.float16)
            matmul_case(k, dtype, 4096, 4096, 4096, transpose_b=True,
                        timed=True, label=label, out_dtype=torch.float16)
        for k, label in matmul_configs(f"matmul_{fp8}_kmajor",
                                       f"matmul {fp8} K-major"):
            for (M, N, K) in [(512, 512, 512), (1000, 1000, 1000),
                              (4096, 4096, 4097), (64, 128, 96)]:
                matmul_case(k, dtype, M, N, K, transpose_b=True, label=label,
                            out_dtype=torch.float16)
    k = Kernel("matmul_leaky")
    for (M, N, K) in [(512, 512, 512), (1000, 1000, 1000)]:
        matmul_case(k, torch.float16, M, N, K, act="leaky_relu",
                    label="matmul fp16 leaky_relu")
    for odd in ["a", "b"]:
        matmul_case(k, torch.float16, 512, 384, 320, act="leaky_relu",
                    odd_rows=odd, label="matmul fp16 leaky_relu")
    for k, label in matmul_configs("matmul_2d", "matmul_2d fp16"):
        for (M, N, K) in SHAPES:
            matmul_case(k, torch.float16, M, N, K, label=label)
    for k, label in matmul_configs("matmul_block_ptr", "block_ptr fp16"):
        for (M, N, K) in SHAPES:
            matmul_case(k, torch.float16, M, N, K, timed=(M == 4096),
                        label=label)
        for odd in ["a", "b"]:
            matmul_case(k, torch.float16, 512, 384, 320, odd_rows=odd,
                        label=label)


def check_softmax():
    for block, widths in [(1024, [1, 100, 781, 1000, 1024]),
                          (4096, [3000, 4096])]:
        k = Kernel(f"softmax_{block}")
        for n_cols in widths:
            n_rows = 1823
            x = torch.randn(n_rows, n_cols, device="cuda")
            y = torch.full_like(x, float("nan"))
            args = (y, x, x.stride(0), y.stride(0), n_rows, n_cols)
            k(*args)
            torch.cuda.synchronize()
            ref = torch.softmax(x.double(), dim=1)
            ms = median_ms(lambda: k(*args), reps=5)
            record(f"softmax BLOCK={block}", f"{n_rows}x{n_cols}",
                   rel_error(y, ref), 1e-5, ms)


def check_softmax_persistent():
    """Tutorial 02's persistent softmax (rows walked with a stride of the
    grid, the next row loaded an iteration ahead): odd widths, unaligned
    rows, more programs than rows (empty loops) and fewer."""
    k = Kernel("softmax_persistent")
    for n_rows, n_cols, programs in [(1823, 781, 264), (1823, 1024, 1056),
                                     (5, 1000, 16), (1, 17, 1)]:
        x = torch.randn(n_rows, n_cols, device="cuda")
        y = torch.full_like(x, float("nan"))
        k.bind(y, x, x.stride(0), y.stride(0), n_rows, n_cols,
               grid=(programs, 1, 1))()
        torch.cuda.synchronize()
        record("softmax persistent", f"{n_rows}x{n_cols} ({programs} pr.)",
               rel_error(y, torch.softmax(x.double(), dim=1)), 1e-5)


def check_layernorm():
    k = Kernel("layernorm")
    for N in [1000, 1151, 4097, 8192]:
        M = 1151
        x = torch.randn(M, N, device="cuda", dtype=torch.float16)
        w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
        b = torch.randn(N, device="cuda", dtype=torch.float16)
        y = torch.full_like(x, float("nan"))
        mean = torch.full((M,), float("nan"), device="cuda")
        rstd = torch.full((M,), float("nan"), device="cuda")
        eps = 1e-5
        args = (x, y, w, b, mean, rstd, x.stride(0), M, N, eps)
        k(*args)
        torch.cuda.synchronize()
        xd = x.double()
        mu = xd.mean(dim=1)
        var = xd.var(dim=1, unbiased=False)
        r = 1 / torch.sqrt(var + eps)
        ref = (xd - mu[:, None]) * r[:, None] * w.double() + b.double()
        ms = median_ms(lambda: k(*args), reps=5)
        record("layernorm y (fp16)", f"{M}x{N}", rel_error(y, ref), 2e-3, ms)
        record("layernorm mean", f"{M}x{N}", rel_error(mean, mu), 1e-5)
        record("layernorm rstd", f"{M}x{N}", rel_error(rstd, r), 1e-5)


def check_layernorm_bwd():
    """Tutorial 05's backward: dx, and dw/db through GROUP_SIZE_M (64)
    lock-guarded fp16 partial rows that many programs add into at once
    (the atomic_cas spin lock), then their column sums."""
    dx_kernel = Kernel("layernorm_bwd", 0)
    dwdb_kernel = Kernel("layernorm_bwd", 1)
    group = 64
    for M, N in [(1151, 1000), (4096, 1024), (300, 77)]:
        x = torch.randn(M, N, device="cuda", dtype=torch.float16)
        dy = torch.randn(M, N, device="cuda", dtype=torch.float16)
        w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
        xd = x.double()
        mean = xd.mean(1).float()
        rstd = (1 / (xd.var(1, unbiased=False) + 1e-5).sqrt()).float()
        dx = torch.full_like(x, float("nan"))
        dw_part = torch.zeros(group, N, device="cuda", dtype=torch.float16)
        db_part = torch.zeros(group, N, device="cuda", dtype=torch.float16)
        lock = torch.zeros(2 * group, device="cuda", dtype=torch.int32)
        dx_kernel(dx, dy, dw_part, db_part, x, w, mean, rstd, lock, N, N, M)
        dw = torch.full((N,), float("nan"), device="cuda", dtype=torch.float16)
        db = torch.full_like(dw, float("nan"))
        dwdb_kernel(dw_part, db_part, dw, db, group, N)
        torch.cuda.synchronize()
        xhat = (xd - mean.double()[:, None]) * rstd.double()[:, None]
        wdy = w.double() * dy.double()
        c1 = (xhat * wdy).mean(1, keepdim=True)
        c2 = wdy.mean(1, keepdim=True)
        ref_dx = (wdy - (xhat * c1 + c2)) * rstd.double()[:, None]
        record("layernorm_bwd dx (fp16)", f"{M}x{N}", rel_error(dx, ref_dx), 2e-3)
        # fp16 partial rows of up to M / 64 additions each.
        record("layernorm_bwd dw", f"{M}x{N}",
               rel_error(dw, (dy.double() * xhat).sum(0)), 1e-2)
        record("layernorm_bwd db", f"{M}x{N}",
               rel_error(db, dy.double().sum(0)), 1e-2)
        record("layernorm_bwd locks released", f"{M}x{N}",
               float(lock[:group].abs().sum().item()), 0)


@triton.jit
def triton_random(ints, ints4, uniform, normal, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(ints + offs, tl.randint(seed, offs), mask=mask)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(ints4 + offs * 4, a, mask=mask)
    tl.store(ints4 + offs * 4 + 1, b, mask=mask)
    tl.store(ints4 + offs * 4 + 2, c, mask=mask)
    tl.store(ints4 + offs * 4 + 3, d, mask=mask)
    tl.store(uniform + offs, tl.rand(seed, offs), mask=mask)
    tl.store(normal + offs, tl.randn(seed, offs), mask=mask)


@triton.jit
def triton_dropout(x_ptr, output_ptr, n_elements, p, seed,
                   BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.rand(seed, offsets) > p
    tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0),
             mask=mask)


def check_random():
    """tl.randint, randint4x, rand, randn and the dropout tutorial against
    Triton 3.6 compiling the same source with the same seed: the integers
    and the uniform floats bit for bit."""
    k = Kernel("random")
    for n, seed in [(1000, 123), (4097, -7)]:
        mine = [torch.zeros(n, device="cuda", dtype=torch.int32),
                torch.zeros(4 * n, device="cuda", dtype=torch.int32),
                torch.full((n,), float("nan"), device="cuda"),
                torch.full((n,), float("nan"), device="cuda")]
        theirs = [torch.zeros_like(t) for t in mine]
        k(*mine, n, seed)
        triton_random[(triton.cdiv(n, 256),)](*theirs, n, seed, BLOCK=256)
        torch.cuda.synchronize()
        for name, a, b in zip(["randint", "randint4x", "rand"], mine, theirs):
            record(f"{name} vs Triton (bits differing)", f"n={n} seed={seed}",
                   float((a.view(torch.int32) != b.view(torch.int32)).sum()), 0)
        record("randn vs Triton", f"n={n} seed={seed}",
               rel_error(mine[3], theirs[3].double()), 1e-6)
    k = Kernel("dropout")
    n, p, seed = 100000, 0.3, 2024
    x = torch.randn(n, device="cuda")
    y = torch.full_like(x, float("nan"))
    yt = torch.full_like(x, float("nan"))
    k(x, y, n, p, seed)
    triton_dropout[(triton.cdiv(n, 1024),)](x, yt, n, p, seed, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    record("dropout keep mask vs Triton (differing)", f"n={n} p={p}",
           float(((y == 0) != (yt == 0)).sum()), 0)
    record("dropout values vs Triton", f"n={n} p={p}",
           rel_error(y, yt.double()), 1e-6)


def check_math_functions():
    """The libdevice functions (test/Interpreter/Inputs/math_functions.tile,
    one output row each) against torch in float64."""
    k = Kernel("math_functions")
    refs = [torch.asin, torch.acos, torch.atan, torch.sinh, torch.cosh,
            torch.tan, torch.asinh, lambda x: torch.acosh(x + 2), torch.atanh,
            torch.log1p, torch.expm1, lambda x: torch.log10(x + 1),
            lambda x: torch.sign(x) * torch.abs(x) ** (1 / 3),
            torch.special.erfc, lambda x: torch.trunc(x * 4),
            lambda x: torch.sign(x * 4) * torch.floor(torch.abs(x * 4) + 0.5),
            lambda x: torch.round(x * 4), lambda x: torch.pow(x + 1, x),
            lambda x: torch.atan2(x, x + 1.5), lambda x: torch.fmod(x * 4, 0.75),
            lambda x: torch.copysign(x, -x)]
    n = 1000
    x = torch.rand(n, device="cuda") * 1.8 - 0.9
    out = torch.full((len(refs) * n,), float("nan"), device="cuda")
    k(x, out, n)
    torch.cuda.synchronize()
    out = out.view(len(refs), n)
    for i, ref in enumerate(refs):
        record(f"libdevice function {i}", f"n={n}",
               rel_error(out[i], ref(x.double())), 1e-6)


def check_custom_reduce():
    """tl.reduce with user combine functions (a product; the value of
    largest magnitude with its first index) and tl.xor_sum."""
    k = Kernel("custom_reduce")
    M, N = 32, 64
    x = (torch.rand(M, N, device="cuda") * 0.2 + 0.9) * \
        (torch.randint(0, 2, (M, N), device="cuda") * 2 - 1)
    x[3, 10] = x[3, 20] = 5.0
    bits = torch.randint(-2**31, 2**31 - 1, (M, N), device="cuda",
                         dtype=torch.int32)
    prod = torch.full((M,), float("nan"), device="cuda")
    best = torch.full((M,), float("nan"), device="cuda")
    best_index = torch.full((M,), -1, device="cuda", dtype=torch.int32)
    xor_rows = torch.zeros(M, device="cuda", dtype=torch.int32)
    xor_all = torch.zeros(1, device="cuda", dtype=torch.int32)
    k(x, bits, prod, best, best_index, xor_rows, xor_all)
    torch.cuda.synchronize()
    record("reduce product", f"{M}x{N}",
           rel_error(prod, x.double().prod(1)), 1e-5)
    ref_index = x.abs().argmax(1)
    record("reduce max |x| first index (wrong)", f"{M}x{N}",
           float((best_index.long() != ref_index).sum()), 0)
    record("reduce max |x| value", f"{M}x{N}",
           rel_error(best, x[torch.arange(M), ref_index].double()), 0)
    ref_rows = bits[:, 0].clone()
    for j in range(1, N):
        ref_rows ^= bits[:, j]
    ref_all = ref_rows[0].clone()
    for i in range(1, M):
        ref_all ^= ref_rows[i]
    record("xor_sum rows (wrong)", f"{M}x{N}",
           float((xor_rows != ref_rows).sum()), 0)
    record("xor_sum all (wrong)", f"{M}x{N}", float((xor_all[0] != ref_all)), 0)


def check_scan():
    """tl.cumsum, tl.cumprod (reversed), tl.associative_scan of a (value,
    index) pair, int8 sums in int32 and a 1-D scan across every warp."""
    k = Kernel("scan", 0)
    M, N, L = 32, 64, 4096
    x = (torch.rand(M, N, device="cuda") * 0.2 + 0.9) * \
        (torch.randint(0, 2, (M, N), device="cuda") * 2 - 1)
    q = torch.randint(-128, 128, (M, N), device="cuda", dtype=torch.int8)
    v = torch.randn(L, device="cuda")
    outs = [torch.full((M, N), float("nan"), device="cuda") for _ in range(3)]
    run_index = torch.full((M, N), -1, device="cuda", dtype=torch.int32)
    q_sums = torch.zeros(M, N, device="cuda", dtype=torch.int32)
    v_sums = [torch.full((L,), float("nan"), device="cuda") for _ in range(2)]
    k(x, q, v, outs[0], outs[1], outs[2], run_index, q_sums, *v_sums)
    torch.cuda.synchronize()
    xd = x.double()
    record("cumsum rows", f"{M}x{N}", rel_error(outs[0], xd.cumsum(1)), 1e-5)
    record("cumprod columns reversed", f"{M}x{N}",
           rel_error(outs[1], xd.flip(0).cumprod(0).flip(0)), 1e-5)
    run_max = x.cummax(1).values
    record("running max", f"{M}x{N}", rel_error(outs[2], run_max.double()), 0)
    cols = torch.arange(N, device="cuda").expand(M, N)
    last = torch.where(x == run_max, cols, torch.full_like(cols, -1))
    record("running max index (wrong)", f"{M}x{N}",
           float((run_index.long() != last.cummax(1).values).sum()), 0)
    record("int8 cumsum in int32 (wrong)", f"{M}x{N}",
           float((q_sums.long() != q.long().cumsum(1)).sum()), 0)
    vd = v.double()
    record("cumsum 1-D", f"L={L}", rel_error(v_sums[0], vd.cumsum(0)), 1e-4)
    record("cumsum 1-D reversed", f"L={L}",
           rel_error(v_sums[1], vd.flip(0).cumsum(0).flip(0)), 1e-4)
    S = 32
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    b = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c = torch.full((S, S), float("nan"), device="cuda")
    Kernel("scan", 1)(a, b, c)
    torch.cuda.synchronize()
    ref = (a.double() @ b.double()).flip(0).cumsum(0).flip(0)
    record("cumsum of a dot, reversed", f"{S}x{S}", rel_error(c, ref), 1e-4)


def check_histogram():
    """tl.histogram: masked int32 values with some out of range, uint8
    values, and a block whose elements two threads hold."""
    k = Kernel("histogram")
    N, B, n = 4096, 64, 3000
    x = torch.randint(-8, B + 8, (N,), device="cuda", dtype=torch.int32)
    u = torch.randint(0, 256, (N,), device="cuda", dtype=torch.uint8)
    small = torch.randint(0, 20, (64,), device="cuda", dtype=torch.int32)
    counts = torch.full((B,), -1, device="cuda", dtype=torch.int32)
    u_counts = torch.full((256,), -1, device="cuda", dtype=torch.int32)
    small_counts = torch.full((16,), -1, device="cuda", dtype=torch.int32)
    k(x, u, small, n, counts, u_counts, small_counts)
    torch.cuda.synchronize()

    def bincount(v, bins):
        v = v.long()
        return torch.bincount(v[(v >= 0) & (v < bins)], minlength=bins)
    record("histogram masked, out of range (wrong)", f"N={N}",
           float((counts.long() != bincount(x[:n], B)).sum()), 0)
    record("histogram of uint8 (wrong)", f"N={N}",
           float((u_counts.long() != bincount(u, 256)).sum()), 0)
    record("histogram of a small block (wrong)", "64",
           float((small_counts.long() != bincount(small, 16)).sum()), 0)


def check_sort():
    """tl.sort (ascending, descending, int16, a 1-D block across warps) and
    tl.topk, against torch.sort."""
    k = Kernel("sort")
    M, N, K, L = 4, 256, 16, 2048
    x = torch.randn(M, N, device="cuda")
    x[1, :8] = x[1, 100]
    q = torch.randint(-30000, 30000, (64,), device="cuda", dtype=torch.int16)
    v = torch.randn(L, device="cuda")
    up, down = (torch.full((M, N), float("nan"), device="cuda") for _ in range(2))
    top = torch.full((M, K), float("nan"), device="cuda")
    q_sorted = torch.zeros(64, device="cuda", dtype=torch.int16)
    v_sorted = torch.full((L,), float("nan"), device="cuda")
    k(x, q, v, up, down, top, q_sorted, v_sorted)
    torch.cuda.synchronize()
    for name, got, ref in [
            ("sort rows", up, x.sort(1).values),
            ("sort rows descending", down, x.sort(1, descending=True).values),
            ("topk 16", top, x.sort(1, descending=True).values[:, :K]),
            ("sort int16", q_sorted, q.sort().values),
            ("sort 1-D", v_sorted, v.sort().values)]:
        record(f"{name} (wrong)", str(tuple(got.shape)),
               float((got != ref).sum()), 0)


def check_pointer_casts():
    """int64 addresses loaded from memory and cast to pointers (the grouped
    GEMM's pattern), a block of addresses back to pointers, and a pointer
    cast to another element type."""
    N, G = 256, 4
    groups = [torch.randn(N, device="cuda") for _ in range(G)]
    addrs = torch.tensor([t.data_ptr() for t in groups], device="cuda",
                         dtype=torch.int64)
    out = torch.full((G * N,), float("nan"), device="cuda")
    Kernel("pointer_casts", 0)(addrs, out)
    x = torch.randn(N, device="cuda")
    y = torch.full((N,), float("nan"), device="cuda")
    bits = torch.zeros(N, device="cuda", dtype=torch.int32)
    Kernel("pointer_casts", 1)(x, y, bits)
    torch.cuda.synchronize()
    ref = torch.cat([t * (g + 1) for g, t in enumerate(groups)])
    record("loads through int64 addresses from memory (wrong)", f"{G}x{N}",
           float((out != ref).sum()), 0)
    record("a block of addresses to pointers (wrong)", f"N={N}",
           float((y != x + 1).sum()), 0)
    record("a pointer to another element type (wrong)", f"N={N}",
           float((bits != x.view(torch.int32)).sum()), 0)


def check_gather():
    """tl.gather along rows, along columns and a 1-D permutation, against
    torch.gather."""
    M, N, K, L = 32, 64, 16, 1024
    x = torch.randn(M, N, device="cuda")
    col_idx = torch.randint(0, N, (M, K), device="cuda", dtype=torch.int32)
    row_idx = torch.randint(0, M, (K, N), device="cuda", dtype=torch.int64)
    perm = torch.randperm(L, device="cuda").to(torch.int16)
    v = torch.randn(L, device="cuda")
    by_col = torch.full((M, K), float("nan"), device="cuda")
    by_row = torch.full((K, N), float("nan"), device="cuda")
    permuted = torch.full((L,), float("nan"), device="cuda")
    Kernel("gather")(x, col_idx, row_idx, perm, v, by_col, by_row, permuted)
    torch.cuda.synchronize()
    for name, got, ref in [
            ("gather along rows", by_col, x.gather(1, col_idx.long())),
            ("gather along columns", by_row, x.gather(0, row_idx)),
            ("gather a permutation", permuted, v[perm.long()])]:
        record(f"{name} (wrong)", str(tuple(got.shape)),
               float((got != ref).sum()), 0)


def check_map_elementwise():
    """tl.map_elementwise: selu through a branching scalar function, and a
    2-D map with a broadcast column and two results (fp16, i32)."""
    n = 100000
    x = torch.randn(n, device="cuda")
    y = torch.full_like(x, float("nan"))
    Kernel("map_elementwise", 0)(x, y, n, 1.5)
    torch.cuda.synchronize()
    xd = x.double()
    record("map_elementwise selu", str(n),
           rel_error(y, torch.where(xd > 0, xd, 1.5 * torch.expm1(xd))), 1e-6)
    M, N, stride = 1000, 700, 704
    x = torch.randn(M, stride, device="cuda", dtype=torch.float16)
    limit = (torch.rand(M, device="cuda") + 0.2).half()
    y = torch.full_like(x, float("nan"))
    c = torch.full((M, stride), -7, device="cuda", dtype=torch.int32)
    Kernel("map_elementwise", 1)(x, limit, y, c, M, N, stride)
    torch.cuda.synchronize()
    xs, lim = x[:, :N].double(), limit[:, None].double()
    record("map_elementwise clip values", f"{M}x{N}",
           rel_error(y[:, :N], torch.where(xs > lim, lim, torch.where(
               xs < -lim, -lim, xs * 2))), 1e-3)
    ref_c = torch.where(xs > lim, 1, torch.where(xs < -lim, -1, 0))
    record("map_elementwise clip counts (wrong)", f"{M}x{N}",
           float((c[:, :N] != ref_c).sum()), 0)
    record("map_elementwise padding (written)", f"{M}x{N}",
           float((c[:, N:] != -7).sum()), 0)
    # pack=2 and pack=4 (a thread holds fewer than 4 of the 64-element
    # blocks: groups completed by repeats).
    for index, pack in [(2, 2), (3, 4)]:
        n = 100003
        x = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        y = torch.full_like(x, float("nan"))
        s = torch.full((n,), 7, device="cuda", dtype=torch.int32)
        Kernel("map_elementwise", index)(x, b, y, s, n)
        torch.cuda.synchronize()
        record(f"map_elementwise pack={pack} values", str(n),
               rel_error(y, x.double() * 2 + b.double()), 1e-6)
        record(f"map_elementwise pack={pack} signs (wrong)", str(n),
               float((s != torch.where(x < 0, -1, 1)).sum()), 0)


def check_descriptor():
    """Tensor descriptors: blocks across every edge (zero or NaN padding),
    loads in a loop, a 3-D block, descriptors through a helper; and the
    tutorial 09 descriptor matmul (C = A @ B.T) at odd and even sizes."""
    M, N = 50, 70  # the kernel's blocks are 16 x 32
    sx, sy = 72, 80
    x = torch.randn(M, sx, device="cuda")
    y = torch.full((M + 3, sy), -7.0, device="cuda", dtype=torch.float16)
    Kernel("descriptor", 0)(x, y, M, N, sx, sy)
    sums = torch.full((M,), float("nan"), device="cuda")
    Kernel("descriptor", 1)(x, sums, M, N, sx)
    A, B, C = 3, 5, 12
    x3 = torch.randn(A, B, C, device="cuda")
    y3 = torch.full((2, 4, 8), -1.0, device="cuda")
    z = torch.full((A * B, C), -1.0, device="cuda")
    Kernel("descriptor", 2)(x3, y3, z, A, B, C)
    torch.cuda.synchronize()
    ref = torch.full((M + 3, sy), -7.0, device="cuda", dtype=torch.float64)
    ref[:, :N + 5] = 0
    ref[3:, 5:N + 5] = 2 * x[:, :N].double()
    record("descriptor copy across edges", f"{M}x{N}", rel_error(y, ref), 1e-3)
    record("descriptor row sums in a loop", f"{M}x{N}",
           rel_error(sums, x[:, :N].double().sum(1)), 1e-6)
    ref3 = torch.full((2, 4, 8), float("nan"), device="cuda")
    ref3[:1, :2, :4] = x3[A - 1:, B - 2:, C - 4:]
    same = torch.equal(torch.isnan(y3), torch.isnan(ref3)) and torch.equal(
        y3[~torch.isnan(y3)], ref3[~torch.isnan(ref3)])
    record("descriptor 3-D NaN padding (wrong)", "2x4x8", 0.0 if same else 1.0, 0)
    refz = torch.full((A * B, C), -1.0, device="cuda", dtype=torch.float64)
    refz[1:5, 2:6] = 3 * x3.reshape(A * B, C)[1:5, 2:6].double()
    record("descriptor through a helper", f"{A * B}x{C}", rel_error(z, refz), 1e-7)
    for i in range(2):
        k = Kernel("matmul_descriptor", i)
        for M, N, K in [(1000, 1000, 1000), (384, 520, 136), (2048, 1536, 256)]:
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(N, K, device="cuda", dtype=torch.float16)
            c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
            k(a, b, c, M, N, K)
            torch.cuda.synchronize()
            record(f"matmul_descriptor cfg{i}", f"{M}x{N}x{K}",
                   rel_error(c, a.double() @ b.double().T), 2e-3)
    # The same on fp32 (tf32): wgmma's tf32 form fed by TMA (4-byte
    # elements, 32 to a 128-byte line), against truncated operands.
    for i in range(2):
        k = Kernel("matmul_descriptor_fp32", i)
        for M, N, K in [(1000, 1000, 1000), (384, 520, 136), (2048, 1536, 256)]:
            a = torch.randn(M, K, device="cuda")
            b = torch.randn(N, K, device="cuda")
            c = torch.full((M, N), float("nan"), device="cuda")
            k(a, b, c, M, N, K)
            torch.cuda.synchronize()
            ref = tf32_truncated(a).double() @ tf32_truncated(b).double().T
            record(f"matmul_descriptor fp32 cfg{i}", f"{M}x{N}x{K}",
                   rel_error(c, ref), 1e-5 + K * 2.0 ** -27)
    # Tutorial 09's persistent matmul on pointers, B also transposed; the
    # example's two configs, then the tutorial's 24 as published.
    persistent = [("matmul_persistent", i, cfg) for i, cfg in enumerate(
        json.load(open(f"{DIR}/matmul_persistent.json")))]
    persistent += [("matmul_tutorial09_persistent", i, cfg) for i, cfg in
                   enumerate(json.load(open(
                       f"{DIR}/matmul_tutorial09_persistent.json")))]
    for name, i, cfg in persistent:
        k = Kernel(name, i)
        sizes = [(1000, 1000, 1000), (384, 520, 136), (4096, 4096, 4096)]
        if name != "matmul_persistent":
            sizes = sizes[:2]
        for M, N, K in sizes:
            for transpose_b in (False, True):
                a = torch.randn(M, K, device="cuda", dtype=torch.float16)
                b = (torch.randn(N, K, device="cuda", dtype=torch.float16).t()
                     if transpose_b else
                     torch.randn(K, N, device="cuda", dtype=torch.float16))
                c = torch.full((M, N), float("nan"), device="cuda",
                               dtype=torch.float16)
                k(a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
                torch.cuda.synchronize()
                record(f"{cfg['kernel']}", f"{M}x{N}x{K}" + ("^T" if transpose_b else ""),
                       rel_error(c, a.double() @ b.double()), 2e-3)
        if name != "matmul_persistent":
            continue
        # Every stride 2 (views of every other column): no access has
        # contiguity, so the kernel runs its general path, whose addresses
        # are recomputed from the K loop's index (row pointers plus column
        # offsets after peeling the loop's scalar).
        M, N, K = 384, 520, 200
        a = torch.randn(M, 2 * K, device="cuda", dtype=torch.float16)[:, ::2]
        b = torch.randn(K, 2 * N, device="cuda", dtype=torch.float16)[:, ::2]
        c = torch.full((M, 2 * N), float("nan"), device="cuda",
                       dtype=torch.float16)[:, ::2]
        k(a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
        torch.cuda.synchronize()
        record(f"{cfg['kernel']} strided", f"{M}x{N}x{K}",
               rel_error(c, a.double() @ b.double()), 2e-3)
    # Tutorial 09's kernels on host-made descriptors (examples/matmul_tma.tile),
    # each descriptor passed as its base, shape and leading strides; the
    # one-tile kernels are persistent, and walk several tiles each in the
    # build for 2 SMs.
    for build in ["matmul_tma", "matmul_tma_sms2"]:
        check_matmul_tma_build(build)
    # The fp8 run (FP8_OUTPUT: e4m3 in and out), against the product
    # rounded to e4m3 (saturating, as the kernel's conversion).
    for i, cfg in enumerate(json.load(open(f"{DIR}/matmul_tma_fp8.json"))):
        k = Kernel("matmul_tma_fp8", i)
        for M, N, K in [(1000, 1008, 1024), (4096, 4096, 4096)]:
            a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
            b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
            out = torch.empty(M, N, device="cuda", dtype=torch.float8_e4m3fn)
            k(*descriptor_parts(a), *descriptor_parts(b),
              *descriptor_parts(out), M, N, K)
            torch.cuda.synchronize()
            ref = (a.double() @ b.double().T).clamp(-448, 448)
            record(f"{cfg['kernel']} fp8", f"{M}x{N}x{K}", rel_error(
                out.float(), ref.to(torch.float8_e4m3fn).double()), 1e-2)


def check_matmul_tma_build(build):
    configs = json.load(open(f"{DIR}/{build}.json"))
    for i, cfg in enumerate(configs):
        k = Kernel(build, i)
        c = cfg["constexprs"]
        label = (f"{build} {cfg['kernel']} {c['BLOCK_SIZE_M']}x"
                 f"{c['BLOCK_SIZE_N']}x{c['BLOCK_SIZE_K']}")
        for M, N, K in [(1000, 1000, 1000), (384, 520, 136), (4096, 4096, 4096)]:
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(N, K, device="cuda", dtype=torch.float16)
            out = torch.full((M, N), float("nan"), device="cuda",
                             dtype=torch.float16)
            args = (*descriptor_parts(a), *descriptor_parts(b),
                    *descriptor_parts(out), M, N, K)
            k(*args)
            torch.cuda.synchronize()
            ms = median_ms(lambda: k(*args), reps=5) if M == 4096 else None
            extra = f"{2 * M * N * K / ms / 1e9:.1f} TFLOP/s" if ms else ""
            record(label, f"{M}x{N}x{K}",
                   rel_error(out, a.double() @ b.double().T), 2e-3, ms, extra)


def check_dot_transposed():
    """tl.dot(a, b.T) with B loaded as N x K rows, on mma.sync (32-row
    blocks) and wgmma (64-row blocks), at sizes that cut blocks."""
    for bm in [32, 64]:
        for M, N, K in [(100, 72, 96), (256, 192, 512)]:
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(N, K, device="cuda", dtype=torch.float16)
            c = torch.full((M, N), float("nan"), device="cuda")
            Kernel(f"dot_transposed_{bm}")(a, b, c, M, N, K)
            torch.cuda.synchronize()
            record(f"dot(a, b.T) BM={bm}", f"{M}x{N}x{K}",
                   rel_error(c, a.double() @ b.double().T), 1e-5)


def check_attention_tutorial06():
    """Tutorial 06's forward kernel as published, causal, D=64."""
    Z, H, N, D = 2, 3, 512, 64
    q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
               for _ in range(3))
    o = torch.full_like(q, float("nan"))
    m = torch.empty(Z, H, N, device="cuda")
    Kernel("attention_tutorial06")(D ** -0.5, m, Z, H, q, k, v, o, N)
    torch.cuda.synchronize()
    s = q.double() @ k.double().transpose(-1, -2) * D ** -0.5
    s = s.masked_fill(torch.ones(N, N, device="cuda").tril() == 0,
                      float("-inf"))
    record("attention_tutorial06 causal", f"{Z}x{H}x{N}x{D}",
           rel_error(o, torch.softmax(s, -1) @ v.double()), 1e-2)
    ref = torch.softmax(s, -1) @ v.double()
    # Not causal, head dim 128: a TMA producer warpgroup feeds the loop.
    D2 = 128
    q2, k2, v2 = (torch.randn(Z, H, N, D2, device="cuda", dtype=torch.float16)
                  for _ in range(3))
    o2 = torch.full_like(q2, float("nan"))
    Kernel("attention_tutorial06_full")(D2 ** -0.5, m, Z, H, q2, k2, v2, o2, N)
    torch.cuda.synchronize()
    s2 = q2.double() @ k2.double().transpose(-1, -2) * D2 ** -0.5
    record("attention_tutorial06 not causal, D=128 (warp specialized)",
           f"{Z}x{H}x{N}x{D2}",
           rel_error(o2, torch.softmax(s2, -1) @ v2.double()), 1e-2)
    # Made persistent: with 132 programs over 2 x 48 heads' 4 blocks each,
    # and with 2 programs (--num-sms 2) over 2 x 3 heads, every program
    # walks several tiles.
    for name, H3 in [("attention_tutorial06_full", 48),
                     ("attention_tutorial06_full_sms2", H)]:
        q3, k3, v3 = (torch.randn(Z, H3, N, D2, device="cuda",
                                  dtype=torch.float16) for _ in range(3))
        o3 = torch.full_like(q3, float("nan"))
        m3 = torch.empty(Z, H3, N, device="cuda")
        Kernel(name)(D2 ** -0.5, m3, Z, H3, q3, k3, v3, o3, N)
        torch.cuda.synchronize()
        s3 = q3.double() @ k3.double().transpose(-1, -2) * D2 ** -0.5
        record(f"{name} not causal, D=128, persistent", f"{Z}x{H3}x{N}x{D2}",
               rel_error(o3, torch.softmax(s3, -1) @ v3.double()), 1e-2)
        lse = torch.logsumexp(s3, -1) / math.log(2)
        record(f"{name} M (log2-sum-exp)", f"{Z}x{H3}x{N}x{D2}",
               rel_error(m3, lse), 1e-3)
    # Host-made descriptors over [Z * H * N, D], as the tutorial makes them.
    o.fill_(float("nan"))
    Kernel("attention_tutorial06_hostdesc")(
        D ** -0.5, m, Z, H, *(p for x in (q, k, v, o)
                              for p in descriptor_parts(x.view(-1, D))), N)
    torch.cuda.synchronize()
    record("attention_tutorial06 host descriptors", f"{Z}x{H}x{N}x{D}",
           rel_error(o, ref), 1e-2)
    # The fp8 run (e5m2 in and out, V stored transposed as the tutorial
    # passes it; its V descriptor, [HEAD_DIM, Z*H*N] with row stride N,
    # addresses such a V for one head, Z = H = 1). e5m2 keeps 2 mantissa
    # bits, so the output's own rounding is a few percent; a wrong kernel
    # is off by ~100%.
    q8, k8, v8 = (x[:1, :1].to(torch.float8_e5m2) for x in (q, k, v))
    vt8 = v8.transpose(-1, -2).contiguous()
    o8 = torch.empty_like(q8)
    Kernel("attention_tutorial06_fp8")(D ** -0.5, m, 1, 1, q8, k8, vt8, o8, N)
    torch.cuda.synchronize()
    s8 = q8.double() @ k8.double().transpose(-1, -2) * D ** -0.5
    s8 = s8.masked_fill(torch.ones(N, N, device="cuda").tril() == 0,
                        float("-inf"))
    record("attention_tutorial06 fp8 (e5m2)", f"1x1x{N}x{D}",
           rel_error(o8, torch.softmax(s8, -1) @ v8.double()), 0.1)


def check_attention_bwd_tutorial06():
    """Tutorial 06's backward kernels as published, driven as its host code
    drives them, against float64 gradients of causal attention."""
    Z, H, N, D = 2, 3, 384, 64
    scale = 0.5
    q, k, v, do = (torch.empty(Z, H, N, D, device="cuda", dtype=torch.float16)
                   .normal_(0.0, 0.5) for _ in range(4))
    qd, kd, vd = (x.double().requires_grad_() for x in (q, k, v))
    s = (qd @ kd.transpose(-1, -2) * scale).masked_fill(
        torch.ones(N, N, device="cuda").tril() == 0, float("-inf"))
    o = torch.softmax(s, -1) @ vd
    o.backward(do.double())
    m = (torch.logsumexp(s, -1) / math.log(2)).detach().float().contiguous()
    o = o.detach().half()
    delta = torch.full_like(m, float("nan"))
    pre, bwd = (Kernel("attention_bwd_tutorial06", i) for i in (0, 1))
    pre(o, do, delta, Z, H, N)
    torch.cuda.synchronize()
    record("attention_bwd_tutorial06 preprocess", f"{Z}x{H}x{N}x{D}",
           rel_error(delta, (o.double() * do.double()).sum(-1)), 1e-6)
    grads = [torch.full_like(q, float("nan")) for _ in range(3)]
    arg_k = k * (scale * 1.4426950408889634)
    bwd.bind(q, arg_k, v, scale, do, *grads, m, delta, *q.stride(), H, N,
             grid=(N // 128, 1, Z * H))()
    torch.cuda.synchronize()
    for name, g, ref in zip(("dq", "dk", "dv"), grads,
                            (qd.grad, kd.grad, vd.grad)):
        record(f"attention_bwd_tutorial06 {name}", f"{Z}x{H}x{N}x{D}",
               rel_error(g, ref), 1e-2)


def check_grouped_matmul():
    """Tutorial 08's descriptor grouped GEMM: three GEMMs, K not a multiple
    of 8 (the last K block copied by cp.async with a source size), padded
    leading dimensions, both configs."""
    def launch(kernel, A, B, C, sizes, lds):
        addrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda")
                 for ts in (A, B, C)]
        kernel(*addrs, torch.tensor(sizes, device="cuda", dtype=torch.int32),
               torch.tensor(lds, device="cuda", dtype=torch.int32), len(sizes))
        torch.cuda.synchronize()

    def fp16_group(sizes, lds, b_rows):
        """Each GEMM's A (M rows), B (`b_rows(m, n, k)` rows) and NaN C,
        fp16, at its leading dimensions."""
        A, B, C = [], [], []
        for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds):
            A.append(torch.randn(m, lda, device="cuda", dtype=torch.float16))
            B.append(torch.randn(b_rows(m, n, k), ldb, device="cuda",
                                 dtype=torch.float16))
            C.append(torch.full((m, ldc), float("nan"), device="cuda",
                                dtype=torch.float16))
        return A, B, C

    sizes = [(1000, 520, 100), (256, 1024, 4104), (77, 129, 8)]
    lds = [(104, 104, 528), (4104, 4104, 1024), (8, 8, 136)]
    for i in range(2):
        A, B, C = fp16_group(sizes, lds, lambda m, n, k: n)  # B: N x K
        launch(Kernel("grouped_matmul_tma", i), A, B, C, sizes, lds)
        for (m, n, k), a, b, c in zip(sizes, A, B, C):
            ref = a[:, :k].double() @ b[:, :k].double().T
            record(f"grouped_matmul_tma cfg{i}", f"{m}x{n}x{k}",
                   rel_error(c[:, :n], ref), 2e-3)
            record(f"grouped_matmul_tma cfg{i} padding (written)",
                   f"{m}x{n}x{k}", float((~torch.isnan(c[:, n:])).sum()), 0)
    # The fp8 run (e4m3 A, B and C; leading dimensions of 16 bytes),
    # against the float64 product rounded to e4m3.
    sizes = [(1000, 520, 100), (256, 1024, 4104), (77, 129, 16)]
    lds = [(112, 112, 528), (4112, 4112, 1024), (16, 16, 144)]
    e4m3 = torch.float8_e4m3fn
    A = [torch.randn(m, lda, device="cuda").to(e4m3)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    B = [torch.randn(n, ldb, device="cuda").to(e4m3)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    C = [torch.zeros(m, ldc, device="cuda", dtype=e4m3)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    launch(Kernel("grouped_matmul_tma_fp8"), A, B, C, sizes, lds)
    for (m, n, k), a, b, c in zip(sizes, A, B, C):
        ref = (a[:, :k].double() @ b[:, :k].double().T).to(e4m3).double()
        record("grouped_matmul_tma fp8 (e4m3)", f"{m}x{n}x{k}",
               rel_error(c[:, :n], ref), 2e-2)
    # Tutorial 08's pointer kernel: C = A @ B (B given K x N) in whole
    # tiles of the largest config (its kernel has no masks), padded leading
    # dimensions, each of its six configs (NUM_SM programs each).
    sizes = [(512, 384, 256), (128, 256, 640), (256, 128, 128)]
    lds = [(264, 392, 400), (648, 264, 256), (136, 136, 136)]
    for i in range(6):
        A, B, C = fp16_group(sizes, lds, lambda m, n, k: k)  # B: K x N
        launch(Kernel("grouped_matmul_tutorial08", i), A, B, C, sizes, lds)
        for (m, n, k), a, b, c in zip(sizes, A, B, C):
            ref = a[:, :k].double() @ b[:, :n].double()
            record(f"grouped_matmul_tutorial08 cfg{i}", f"{m}x{n}x{k}",
                   rel_error(c[:, :n], ref), 2e-3)
            record(f"grouped_matmul_tutorial08 cfg{i} padding (written)",
                   f"{m}x{n}x{k}", float((~torch.isnan(c[:, n:])).sum()), 0)
    # Without its hints (which promise aligned tiles), per problem the
    # loaded addresses and leading dimensions pick the fast copy
    # (tile-version-loaded-values) or the general path: odd leading
    # dimensions in the second problem, an A one element into its
    # allocation (2-byte aligned) in the third, the first aligned.
    lds = [(264, 392, 400), (649, 265, 257), (144, 136, 136)]
    for i in range(6):
        A, B, C = fp16_group(sizes, lds, lambda m, n, k: k)
        A[2] = A[2][:, 1:]
        launch(Kernel("grouped_matmul_tutorial08_nohints", i), A, B, C, sizes,
               lds)
        for (m, n, k), a, b, c in zip(sizes, A, B, C):
            ref = a[:, :k].double() @ b[:, :n].double()
            record(f"grouped_matmul_tutorial08 cfg{i} mixed paths",
                   f"{m}x{n}x{k}", rel_error(c[:, :n], ref), 2e-3)
            record(f"grouped_matmul_tutorial08 cfg{i} mixed paths padding",
                   f"{m}x{n}x{k}", float((~torch.isnan(c[:, n:])).sum()), 0)


def check_wgmma_nsplit():
    """64-row tiles on 8 warps (wgmma's warpgroups side by side along N):
    FLA chunk_o's sum of a wgmma and a chained mma.sync result, DeepSeek's
    scaled fp8 product, int8 and tf32, at 64 and 128 columns."""
    r16 = lambda *s: (torch.randn(*s, device="cuda") * 0.3).half()
    a, b, kt, v = r16(64, 128), r16(128, 128), r16(128, 64), r16(64, 128)
    c = torch.full((64, 128), float("nan"), device="cuda")
    Kernel("nsplit_chain_128")(a, b, kt, v, c)
    s = a.double() @ kt.double()
    s = torch.where(torch.tril(torch.ones(64, 64, device="cuda")) > 0, s, 0)
    ref = 0.5 * (a.double() @ b.double()) + 0.5 * (s.half().double() @ v.double())
    record("wgmma N-split chain (FLA)", "64x128", rel_error(c, ref), 2e-3)
    K = 256
    for n in (64, 128):
        e4m3 = torch.float8_e4m3fn
        a8 = (torch.randn(64, K, device="cuda") * 4).to(e4m3)
        b8 = (torch.randn(n, K, device="cuda") * 4).to(e4m3)
        sa = torch.rand(64, K // 128, device="cuda")
        sb = torch.rand(n, K // 128, device="cuda")
        c = torch.full((64, n), float("nan"), device="cuda")
        Kernel(f"nsplit_fp8_scaled_{n}")(a8, b8, sa, sb, c)
        ref = sum((a8[:, i:i + 128].double() @ b8[:, i:i + 128].double().T)
                  * sa[:, i // 128, None].double() * sb[None, :, i // 128].double()
                  for i in range(0, K, 128))
        record("wgmma N-split fp8 scaled", f"64x{n}x{K}", rel_error(c, ref),
               2e-3)
        ai = torch.randint(-100, 100, (64, K), device="cuda", dtype=torch.int8)
        bi = torch.randint(-100, 100, (n, K), device="cuda", dtype=torch.int8)
        ci = torch.zeros(64, n, device="cuda", dtype=torch.int32)
        Kernel(f"nsplit_int8_nt_{n}")(ai, bi, ci)
        ref = ai.double() @ bi.double().T  # exact: sums below 2^22
        record("wgmma N-split int8 (exact)", f"64x{n}x{K}",
               float((ci.double() != ref).sum()), 0)
        af = torch.randn(64, K, device="cuda")
        bf = torch.randn(n, K, device="cuda")
        c = torch.full((64, n), float("nan"), device="cuda")
        Kernel(f"nsplit_tf32_nt_{n}")(af, bf, c)
        record("wgmma N-split tf32", f"64x{n}x{K}",
               rel_error(c, af.double() @ bf.double().T), 4e-3)


def check_inline_asm():
    """tl.inline_asm_elementwise: tanh.approx per element, two results of
    one asm, and pack=4 int8 bytes in one register."""
    N = 256
    x = torch.randn(N, device="cuda")
    y = torch.randn(N, device="cuda")
    # Bytes in [0, 100): adding 0x01010101 to the packed word carries
    # between no bytes (0xff + 1 would).
    q = torch.randint(0, 100, (N,), device="cuda", dtype=torch.int8)
    outs = [torch.full((N,), float("nan"), device="cuda") for _ in range(3)]
    q_out = torch.zeros(N, device="cuda", dtype=torch.int8)
    Kernel("inline_asm")(x, y, q, *outs, q_out)
    torch.cuda.synchronize()
    record("inline asm tanh.approx", f"N={N}",
           rel_error(outs[0], x.double().tanh()), 1e-3)
    record("inline asm two results (wrong)", f"N={N}",
           float(((outs[1] != x + y) | (outs[2] != x - y)).sum()), 0)
    record("inline asm pack=4 int8 (wrong)", f"N={N}",
           float((q_out != q + 1).sum()), 0)


def check_cuda_helpers():
    """tl.extra.cuda: globaltimer read twice (not backwards), smid within
    the GPU's SMs, num_threads and num_warps."""
    times = torch.zeros(8, device="cuda", dtype=torch.int64)
    sms = torch.full((4,), -1, device="cuda", dtype=torch.int32)
    sizes = torch.zeros(2, device="cuda", dtype=torch.int32)
    Kernel("cuda_helpers")(times, sms, sizes)
    torch.cuda.synchronize()
    t = times.view(4, 2)
    count = torch.cuda.get_device_properties(0).multi_processor_count
    record("globaltimer set, not backwards (wrong)", "4 programs",
           float(((t[:, 0] <= 0) | (t[:, 1] < t[:, 0])).sum()), 0)
    record("smid within the SMs (wrong)", "4 programs",
           float(((sms < 0) | (sms >= count)).sum()), 0)
    record("num_threads, num_warps (wrong)", "",
           float((sizes.cpu() != torch.tensor([128, 4],
                                              dtype=torch.int32)).sum()), 0)


def check_join_split():
    """tl.join, tl.interleave, tl.split, and tutorial 09's split of a dot
    accumulator (on wgmma: the #mma layout reshaped and permuted)."""
    k = Kernel("join_split", 0)
    N, BM, BN, BK = 64, 64, 64, 32
    a = torch.randn(N, device="cuda")
    b = torch.randn(N, device="cuda")
    x = torch.randn(BM, BK, device="cuda", dtype=torch.float16)
    y = torch.randn(BK, BN, device="cuda", dtype=torch.float16)
    outs = [torch.full((n,), float("nan"), device="cuda")
            for n in [2 * N, 2 * N, N, N]]
    halves = torch.full((BM * BN,), float("nan"), device="cuda")
    k(a, b, *outs, x, y, halves)
    torch.cuda.synchronize()
    pair = torch.stack([a, b], 1).reshape(-1).double()
    record("join", f"{N}", rel_error(outs[0], pair), 0)
    record("interleave", f"{N}", rel_error(outs[1], pair), 0)
    record("split", f"{N}", rel_error(torch.cat([outs[2], outs[3]]),
                                      torch.cat([2 * a, 2 * b]).double()), 0)
    record("tutorial 09 epilogue split", f"{BM}x{BN}x{BK}",
           rel_error(halves.view(BM, BN), x.double() @ y.double()), 1e-5)
    a2, b2 = torch.randn(16, 4, device="cuda"), torch.randn(16, 4, device="cuda")
    cat = torch.full((128,), float("nan"), device="cuda")
    Kernel("join_split", 1)(a2, b2, cat)
    torch.cuda.synchronize()
    record("cat", "16x4", rel_error(cat, torch.cat([a2, b2]).reshape(-1).double()), 0)
    x2 = torch.randn(16, 8, device="cuda")
    outs = [torch.full((128,), float("nan"), device="cuda") for _ in range(3)]
    Kernel("join_split", 2)(x2, *outs)
    torch.cuda.synchronize()
    for name, got, ref in [("flip dim 0", outs[0], x2.flip(0)),
                           ("flip last dim", outs[1], x2.flip(1)),
                           ("flip 1-D", outs[2], x2.reshape(-1).flip(0))]:
        record(name, "16x8", rel_error(got, ref.reshape(-1).double()), 0)


@triton.jit
def triton_nan_ops(x_ptr, y_ptr, out):
    r = tl.arange(0, 8)
    x = tl.load(x_ptr + r)
    y = tl.load(y_ptr + r)
    tl.store(out + r, tl.maximum(x, y))
    tl.store(out + 8 + r, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + 16 + r, tl.minimum(x, y, tl.PropagateNan.ALL))
    tl.store(out + 24 + r, tl.clamp(x, -1.0, 1.0,
                                    propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + 32 + r, tl.clamp(x, -1.0, 1.0,
                                    propagate_nan=tl.PropagateNan.NONE))


def check_propagate_nan():
    """maximum, minimum and clamp with and without propagate_nan against
    Triton on the same source: the same bits, or NaN in both (the NaN's
    payload may differ: Triton's clamp returns x's own NaN, max.NaN the
    canonical one)."""
    nan = float("nan")
    x = torch.tensor([1, nan, 3, -5, nan, 0.5, 2, -2], device="cuda")
    y = torch.tensor([2, 1, nan, -6, nan, 0.25, 1, -3], device="cuda")
    mine = torch.zeros(40, device="cuda")
    theirs = torch.zeros(40, device="cuda")
    Kernel("propagate_nan")(x, y, mine)
    triton_nan_ops[(1,)](x, y, theirs)
    torch.cuda.synchronize()
    differ = (mine.view(torch.int32) != theirs.view(torch.int32)) & \
        ~(mine.isnan() & theirs.isnan())
    if differ.any():
        log(f"  propagate_nan differs at {differ.nonzero().flatten().tolist()}: "
            f"{mine[differ].tolist()} vs {theirs[differ].tolist()}")
    record("propagate_nan vs Triton (values differing)", "5x8",
           float(differ.sum()), 0)


def check_float_atomic_minmax():
    """tl.atomic_max / atomic_min on fp32 and fp64 (through the bits as
    integers, as Triton): 4 programs fold mixed-sign values into 4 fp32 and
    2 fp64 slots; every returned old value is one the slot held. uint32
    slots take the unsigned max and min."""
    v = torch.randn(200, device="cuda") * 10
    mx = torch.full((4,), float("-inf"), device="cuda")
    mn = torch.full((4,), float("inf"), device="cuda")
    mx64 = torch.full((2,), float("-inf"), device="cuda", dtype=torch.float64)
    mn64 = torch.full((2,), float("inf"), device="cuda", dtype=torch.float64)
    old = torch.full((200,), float("nan"), device="cuda")
    # uint32 slots (int32 storage; negative integer parts wrap high).
    umx = torch.zeros(2, device="cuda", dtype=torch.int32)
    umn = torch.full((2,), -1, device="cuda", dtype=torch.int32)
    Kernel("float_atomic_minmax").bind(v, mx, mn, mx64, mn64, old, umx, umn,
                                       200, grid=(4, 1, 1))()
    torch.cuda.synchronize()
    slot4, slot2 = torch.arange(200, device="cuda") % 4, torch.arange(200, device="cuda") % 2
    want = [torch.stack([v[slot4 == k].max() for k in range(4)]),
            torch.stack([v[slot4 == k].min() for k in range(4)]),
            torch.stack([v[slot2 == k].double().max() for k in range(2)]),
            torch.stack([v[slot2 == k].double().min() for k in range(2)])]
    wrong = sum(int((got != w).sum()) for got, w in zip((mx, mn, mx64, mn64), want))
    wrong += int((old.isnan() | (old > mx[slot4])).sum())
    u = v.to(torch.int32).to(torch.int64) % 2**32
    wrong += sum(int((umx[k].item() % 2**32) != u[slot2 == k].max().item()) +
                 int((umn[k].item() % 2**32) != u[slot2 == k].min().item())
                 for k in range(2))
    record("float and uint32 atomic max/min (wrong)", "200 into 4+2+2",
           float(wrong), 0)


def check_mixed_precision_dots():
    """An ieee dot (FMAs) accumulated into a tf32x3 dot (mma.sync) of the
    same operands: 2 * A @ B."""
    a = torch.randn(32, 32, device="cuda")
    b = torch.randn(32, 32, device="cuda")
    c = torch.full((32, 32), float("nan"), device="cuda")
    Kernel("mixed_precision_dots").bind(a, b, c, grid=(1, 1, 1))()
    torch.cuda.synchronize()
    record("ieee + tf32x3 dots", "32x32x32",
           rel_error(c, 2 * (a.double() @ b.double())), 1e-5)


def check_batched_dot():
    """tl.dot of 3-D blocks with a 3-D accumulator (fp16, wgmma) and at
    ieee precision (fp32): torch's batched matmul in float64."""
    a = torch.randn(4, 32, 16, device="cuda", dtype=torch.float16)
    b = torch.randn(4, 16, 32, device="cuda", dtype=torch.float16)
    c = torch.full((4, 32, 32), float("nan"), device="cuda")
    d = torch.full((4, 32, 32), float("nan"), device="cuda")
    Kernel("batched_dot").bind(a, b, c, d, grid=(1, 1, 1))()
    torch.cuda.synchronize()
    ref = torch.bmm(a.double(), b.double())
    record("batched dot + acc (fp16)", "4x32x32x16", rel_error(c, ref + 1), 1e-3)
    record("batched dot (fp32 ieee)", "4x32x32x16", rel_error(d, ref), 1e-5)


def check_cast_rtz():
    """fp32 to fp16 and bf16 with fp_downcast_rounding="rtz" and "rtne"
    (cvt.rz / cvt.rn) against the same conversions computed here: nearest
    even is torch's; toward zero steps torch's fp16 one value toward zero
    where it went away (or to infinity), and cuts bf16's low 16 bits."""
    x = torch.randn(64, device="cuda") * torch.exp2(
        torch.randint(-20, 20, (64,), device="cuda").float())
    x[:4] = torch.tensor([70000.0, -70000.0, 1e-7, -3.0e-6])
    out = torch.full((256,), float("nan"), device="cuda")
    Kernel("cast_rtz").bind(x, out, grid=(1, 1, 1))()
    torch.cuda.synchronize()
    near16 = x.half()
    away = near16.double().abs() > x.double().abs()
    toward16 = torch.where(away, torch.nextafter(near16, torch.zeros_like(near16)),
                           near16)
    cut = (x.view(torch.int32) & ~0xFFFF).view(torch.float32)
    want = torch.cat([toward16.float(), near16.float(), cut,
                      x.bfloat16().float()])
    wrong = int((out.view(torch.int32) != want.view(torch.int32)).sum())
    record("fp32 -> fp16/bf16 rtz and rtne (wrong bits)", "4x64", float(wrong), 0)


def check_library_builtins():
    """tl.softmax (whole vector; rows with keep_dims and ieee_rounding) and
    tl.swizzle2d (Triton's definition)."""
    x = torch.randn(64, device="cuda")
    o = torch.full((64,), float("nan"), device="cuda")
    o2 = torch.full((64,), float("nan"), device="cuda")
    si = torch.full((64,), -1, device="cuda", dtype=torch.int32)
    sj = torch.full((64,), -1, device="cuda", dtype=torch.int32)
    Kernel("library_builtins")(x, o, o2, si, sj)
    torch.cuda.synchronize()
    record("tl.softmax", "64", rel_error(o, torch.softmax(x.double(), 0)), 1e-6)
    record("tl.softmax rows (ieee)", "8x8",
           rel_error(o2.view(8, 8), torch.softmax(x.view(8, 8).double(), 1)), 1e-6)
    wrong = 0
    for k in range(64):
        i, j = k // 8, k % 8
        ij = i * 8 + j
        off_i = ij // 24 * 3
        g = min(8 - off_i, 3)
        ij %= 24
        wrong += int(si[k].item() != off_i + ij % g or sj[k].item() != ij // g)
    record("tl.swizzle2d (wrong)", "8x8", float(wrong), 0)


def fp8_codes_differ(got, want):
    """How many fp8 codes differ (two NaNs count as equal)."""
    nan = torch.isnan(got.float()) & torch.isnan(want.float())
    return int(((got.view(torch.uint8) != want.view(torch.uint8)) & ~nan).sum())


def check_fp8():
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2

    def satfinite(x, dtype):  # Triton's rounding: saturate, keep NaN
        largest = torch.finfo(dtype).max
        return torch.where(torch.isnan(x), x, x.clamp(-largest, largest)).to(dtype)

    k = Kernel("fp8", 0)
    n = 100003
    special = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 448.0,
               464.0, 480.0, 1e6, -1e6, 57344.0, 61440.0, 2.0**-9, 2.0**-10,
               3 * 2.0**-10, 2.0**-16, 3 * 2.0**-17, 2.0**-18, -2.0**-20]
    x = torch.randn(n, device="cuda") * torch.exp2(
        torch.randint(-12, 12, (n,), device="cuda").float())
    x[:len(special)] = torch.tensor(special, device="cuda")
    h = (torch.randn(n, device="cuda") * 64).half()
    q = (torch.randn(n, device="cuda") * torch.exp2(
        torch.randint(-8, 6, (n,), device="cuda").float())).to(e4)
    outs = [torch.empty(n, device="cuda", dtype=t)
            for t in (e4, e5, e4, e5)]
    up = torch.full((n,), float("nan"), device="cuda")
    total = torch.empty(n, device="cuda", dtype=e4)
    cross = torch.empty(n, device="cuda", dtype=e5)
    k(x, h, q, *outs, up, total, cross, n)
    torch.cuda.synchronize()
    qd = q.double()
    for name, got, want in [
            ("fp32 -> e4m3", outs[0], satfinite(x, e4)),
            ("fp32 -> e5m2", outs[1], satfinite(x, e5)),
            ("fp16 -> e4m3", outs[2], satfinite(h.float(), e4)),
            ("fp16 -> e5m2", outs[3], satfinite(h.float(), e5)),
            # q * 0.5 is an fp8 value too (rounded), then the sum.
            ("e4m3 arithmetic", total, satfinite(
                (qd + satfinite((qd * 0.5).float(), e4).double()).float(), e4)),
            ("e4m3 -> e5m2", cross, satfinite(q.float(), e5))]:
        record(f"fp8 {name}", f"n={n}", float(fp8_codes_differ(got, want)), 0)
    record("fp8 e4m3 -> fp32", f"n={n}", rel_error(up, qd), 0)
    k = Kernel("fp8", 1)
    M, N = 64, 128
    # e4m3fn has no infinity: torch casts anything past 448 to NaN.
    q = (torch.randn(M, N, device="cuda") * 100).clamp(-448, 448).to(e4)
    mx = torch.full((M,), float("nan"), device="cuda")
    sm = torch.full((M,), float("nan"), device="cuda")
    k(q, mx, sm, M)
    torch.cuda.synchronize()
    qd = q.double()
    record("fp8 row max |x|", f"{M}x{N}", rel_error(mx, qd.abs().max(1).values), 0)
    record("fp8 row sum", f"{M}x{N}", rel_error(sm, qd.sum(1)), 1e-6)


def check_dot_scaled():
    """tl.dot_scaled (bench/kernels/dot_scaled.tile) against float64
    references built from the microscaling definitions: e2m1 codes two per
    byte (first in the low bits), e8m0 scales per 32 elements along K."""
    e2m1 = torch.tensor([0, 0.5, 1, 1.5, 2, 3, 4, 6] * 2, device="cuda",
                        dtype=torch.float64) * torch.tensor(
                            [1.0] * 8 + [-1.0] * 8, device="cuda",
                            dtype=torch.float64)

    def pack(codes, dim):  # pairs along dim, the first in the low bits
        lo, hi = codes.unflatten(dim, (-1, 2)).unbind(dim + 1)
        return (lo | (hi << 4)).to(torch.uint8)

    def scaled(v, s, k_dim):
        f = torch.exp2(s.double() - 127).repeat_interleave(32, dim=1)
        return v * (f if k_dim == 1 else f.T)

    def scales(rows, k):
        return torch.randint(120, 134, (rows, k // 32), device="cuda",
                             dtype=torch.uint8)

    for M, N, K in [(80, 72, 128), (256, 192, 512)]:
        ca = torch.randint(0, 16, (M, K), device="cuda")
        cb = torch.randint(0, 16, (K, N), device="cuda")
        sa, sb = scales(M, K), scales(N, K)
        c = torch.full((M, N), float("nan"), device="cuda")
        Kernel("dot_scaled", 0)(pack(ca, 1), pack(cb, 0), sa, sb, c, M, N, K)
        torch.cuda.synchronize()
        ref = scaled(e2m1[ca], sa, 1) @ scaled(e2m1[cb], sb, 0)
        record("dot_scaled mxfp4 x mxfp4", f"{M}x{N}x{K}", rel_error(c, ref), 1e-6)
    B = 64
    a8 = (torch.randn(B, B, device="cuda") * 4).to(torch.float8_e4m3fn)
    cb = torch.randint(0, 16, (B, B), device="cuda")
    sa, sb = scales(B, B), scales(B, B)
    h = torch.randn(B, B, device="cuda", dtype=torch.bfloat16)
    e5 = torch.randn(B, B, device="cuda").to(torch.float8_e5m2)
    c = torch.full((B, B), float("nan"), device="cuda")
    d = torch.full((B, B), float("nan"), device="cuda")
    Kernel("dot_scaled", 1)(a8, pack(cb, 1), sa, sb, h, e5.view(torch.uint8), c, d)
    torch.cuda.synchronize()
    record("dot_scaled e4m3 x fp4 along N", f"{B}^3", rel_error(
        c, scaled(a8.double(), sa, 1) @ scaled(e2m1[cb], sb, 0)), 1e-6)
    record("dot_scaled bf16 x scaled e5m2", f"{B}^3", rel_error(
        d, h.double() @ scaled(e5.double(), sb, 0)), 1e-6)
    # nvfp4: e4m3 scales per 16 along K.
    ca, cb = (torch.randint(0, 16, (B, B), device="cuda") for _ in range(2))
    sa, sb = ((torch.rand(B, B // 16, device="cuda") * 3.5 + 0.5).to(
        torch.float8_e4m3fn) for _ in range(2))
    c = torch.full((B, B), float("nan"), device="cuda")
    Kernel("dot_scaled", 2)(pack(ca, 1), pack(cb, 0), sa, sb, c)
    torch.cuda.synchronize()
    fa = sa.double().repeat_interleave(16, dim=1)
    fb = sb.double().repeat_interleave(16, dim=1)
    record("dot_scaled nvfp4 x nvfp4", f"{B}^3", rel_error(
        c, (e2m1[ca] * fa) @ (e2m1[cb] * fb.T)), 1e-6)


def check_block_scaled():
    """Tutorial 10's block_scaled_matmul_kernel (mxfp4 and mxfp8, M = N =
    256, K = 512), scales in its 5-D layout, against float64."""
    M, N, K, VEC = 256, 256, 512, 32
    e2m1 = torch.tensor([0, 0.5, 1, 1.5, 2, 3, 4, 6] * 2, device="cuda",
                        dtype=torch.float64) * torch.tensor(
                            [1.0] * 8 + [-1.0] * 8, device="cuda",
                            dtype=torch.float64)

    def unshuffle(s):
        return s.permute(0, 3, 2, 1, 4).reshape(s.shape[0] * 128, s.shape[1] * 4)

    for fmt in ["mxfp4", "mxfp8"]:
        # Scales up to 2^0: |a b| <= 36 per product, so the fp16 output
        # cannot overflow (up to 2^4 it could: 6 * 16 squared, 512 times).
        sa, sb = (torch.randint(120, 128, (n // 128, K // VEC // 4, 32, 4, 4),
                                device="cuda", dtype=torch.uint8)
                  for n in (M, N))
        if fmt == "mxfp4":
            ca = torch.randint(0, 16, (M, K), device="cuda")
            cb = torch.randint(0, 16, (N, K), device="cuda")
            a = (ca[:, 0::2] | (ca[:, 1::2] << 4)).to(torch.uint8)
            b = (cb[:, 0::2] | (cb[:, 1::2] << 4)).to(torch.uint8)
            va, vb = e2m1[ca], e2m1[cb]
        else:
            a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
            b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
            va, vb = a.double(), b.double()
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        Kernel(f"block_scaled_{fmt}")(*descriptor_parts(a), sa,
                                      *descriptor_parts(b), sb,
                                      *descriptor_parts(c))
        torch.cuda.synchronize()
        fa = torch.exp2(unshuffle(sa).double() - 127).repeat_interleave(VEC, 1)
        fb = torch.exp2(unshuffle(sb).double() - 127).repeat_interleave(VEC, 1)
        record(f"tutorial 10 {fmt}", f"{M}x{N}x{K}",
               rel_error(c, (va * fa) @ (vb * fb).T), 2e-3)


def check_splitk():
    """Split-K matmul (bench/kernels/probe_misc.tile): fp32 atomic adds of
    each K slice's product, vector adds (aligned sizes) and scalar ones."""
    for name, sizes in [("splitk_aligned", [(1024, 1024, 2048), (64, 128, 4096)]),
                        ("splitk_general", [(1000, 1000, 1000), (70, 130, 300)])]:
        k = Kernel(name)
        # The general kernel also with rows one element longer than K (A)
        # or N (B): one operand's rows misaligned, the other's kept fast by
        # its own copy.
        odd = [(1000, 1000, 1000, 1, 0), (1000, 1000, 1000, 0, 1)]
        for M, N, K, pad_a, pad_b in [s + (0, 0) for s in sizes] + (
                odd if name == "splitk_general" else []):
            a = torch.randn(M, K + pad_a, device="cuda",
                            dtype=torch.float16)[:, :K]
            b = torch.randn(K, N + pad_b, device="cuda",
                            dtype=torch.float16)[:, :N]
            c = torch.zeros(M, N, device="cuda")
            # No @grid: (M tiles, N tiles, SPLIT_K), as the host launches it.
            k.bind(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                   b.stride(1), c.stride(0), c.stride(1),
                   grid=(-(-M // 64), -(-N // 64), 4))()
            torch.cuda.synchronize()
            record(f"split-K {name}",
                   f"{M}x{N}x{K}" + " odd rows a" * pad_a + " odd rows b" * pad_b,
                   rel_error(c, a.double() @ b.double()), 1e-5)


def check_tf32_epilogue():
    """fp32 A @ B with B row-major, computed transposed on wgmma
    (bench/kernels/tf32_epilogue.tile): its accumulator, in the transposed
    #mma layout, summed along rows, maximized along columns and stored as
    fp16, each against float64 on the operands truncated as wgmma reads
    them."""
    for name, bm in [("tf32_epilogue_w8", 128), ("tf32_epilogue_w4", 64)]:
        k = Kernel(name)
        M, N, K = 256, 384, 208  # K not a multiple of BLOCK_K: a masked tail
        a = torch.randn(M, K, device="cuda")
        b = torch.randn(K, N, device="cuda")
        c = torch.full((M, N), float("nan"), device="cuda",
                       dtype=torch.float16)
        rowsum = torch.full((N // 128, M), float("nan"), device="cuda")
        colmax = torch.full((M // bm, N), float("nan"), device="cuda")
        k.bind(a, b, c, rowsum, colmax, M, N, K, a.stride(0), b.stride(0),
               grid=(M // bm, N // 128))()
        torch.cuda.synchronize()
        ref = tf32_truncated(a).double() @ tf32_truncated(b).double()
        tol = 1e-5 + K * 2.0 ** -27
        shape = f"{M}x{N}x{K}"
        record(f"{name} C", shape, rel_error(c, ref), 2e-3)
        record(f"{name} row sums", shape,
               rel_error(rowsum, ref.reshape(M, N // 128, 128).sum(2).t()),
               tol)
        record(f"{name} column maxima", shape,
               rel_error(colmax, ref.reshape(M // bm, bm, N).amax(1)), tol)


def check_int8_matmul():
    """int8 x int8 -> int32 (bench/kernels/int8_matmul.tile): exact against
    the float64 product. K-major builds (wgmma's s8 form) get B as the
    transpose of an N x K matrix; as-written builds both layouts."""
    # Tiles under 64 rows run on mma.sync's m16n8k32 (s8), as do the
    # as-written builds' paths that wgmma does not take.
    for cfg in ["128x128", "64x128", "32x64", "16x64"]:
        bm, bn = map(int, cfg.split("x"))
        for name, layouts, sizes in [
                (f"int8_matmul_aligned_{cfg}", [True], [(512, 384, 1024)]),
                (f"int8_matmul_kmajor_{cfg}", [True], None),
                (f"int8_matmul_{cfg}", [True, False], None)]:
            k = Kernel(name)
            for M, N, K in sizes or [(512, 384, 1024), (300, 200, 4100)]:
                for transposed in layouts:
                    a = torch.randint(-128, 128, (M, K), device="cuda",
                                      dtype=torch.int8)
                    b = small_matmul_b(torch.randint(
                        -128, 128, (N, K) if transposed else (K, N),
                        device="cuda", dtype=torch.int8), transposed)
                    c = torch.full((M, N), -7, device="cuda", dtype=torch.int32)
                    launch_small_matmul(k, a, b, c, bm, bn)
                    want = a.double() @ b.double()
                    err = (c.double() - want).abs().max().item()
                    record(f"{name} {'B^T' if transposed else 'B'}",
                           f"{M}x{N}x{K}", err, 0)


def small_matmul_b(b, transposed):
    """B of int8_matmul.tile's kernels: K x N, or the transpose of N x K."""
    return b.t() if transposed else b


def launch_small_matmul(k, a, b, c, bm, bn):
    """int8_matmul.tile's kernel (or its fp8 copy) on A, B into C."""
    (M, K), N = a.shape, b.shape[1]
    k.bind(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
           b.stride(1), c.stride(0), c.stride(1),
           grid=(-(-M // bm) * -(-N // bn),))()
    torch.cuda.synchronize()


def check_compare_runs():
    """Comparisons of a contiguous index whose results vary inside a
    thread's run of registers (x == N, x <= N, x > N) beside those that do
    not (x < N, x >= N): bench/kernels/compare_runs.tile."""
    k = Kernel("compare_runs")
    x = torch.randn(512, device="cuda")
    i = torch.arange(512, device="cuda")
    for n in [0, 16, 144]:
        q = torch.full((3072,), float("nan"), device="cuda")
        k(x, q, n)
        torch.cuda.synchronize()
        zero = torch.zeros_like(x)
        want = torch.cat([torch.where(i < n, x, zero), torch.where(i >= n, x, zero),
                          torch.where(i == 0, torch.ones_like(x), x),
                          torch.where(i != n, x, zero), torch.where(i <= n, x, zero),
                          torch.where(i > n, x, zero)])
        record("compare runs", f"512 N={n}", rel_error(q, want.double()), 0)


def check_int4_gemm():
    """tritonbench's int4 GEMM (bench/kernels/probe_tritonbench.tile's
    matmul_kernel): bf16 A times B packed two int4 per byte and unpacked in
    the kernel by join / permute / reshape (kept in registers, then stored
    for ldmatrix or wgmma). Exact inputs (small integers as bf16), so the
    float64 product is the reference."""
    for name, bm, bn in [("int4_gemm_16x128x256", 16, 128),
                         ("int4_gemm_facts_16x128x256", 16, 128),
                         ("int4_gemm_64x128x128", 64, 128)]:
        k = Kernel(name)
        # The facts build takes sizes that are multiples of 16.
        sizes = [(64, 256, 512), (208 if "facts" in name else 200, 384, 1024)]
        for M, N, K in sizes:
            a = torch.randint(-8, 8, (M, K), device="cuda").to(torch.bfloat16)
            packed = torch.randint(-128, 128, (K // 2, N), device="cuda",
                                   dtype=torch.int8)
            lo = ((packed.to(torch.int32) << 28) >> 28).double()
            hi = (packed.to(torch.int32) >> 4).double()
            b = torch.stack([lo, hi], 1).reshape(K, N)
            c = torch.full((M, N), float("nan"), device="cuda",
                           dtype=torch.bfloat16)
            launch_small_matmul(k, a, packed, c, bm, bn)
            want = a.double() @ b
            record(name, f"{M}x{N}x{K}", rel_error(c, want), 8e-3)


def check_fp8_small_matmul():
    """e4m3 A x e5m2 B into fp32 on tiles under 64 rows (int8_matmul.tile's
    kernel on fp8 pointers): mma.sync's m16n8k32 fp8 form with both
    operands K-major (the JIT's facts), the fp16 form as written where B
    runs along N; against the float64 product of the fp8 values, K's tail
    masked (4100)."""
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2
    for cfg in ["32x64", "16x64"]:
        bm, bn = map(int, cfg.split("x"))
        for name, layouts in [(f"fp8_small_matmul_kmajor_{cfg}", [True]),
                              (f"fp8_small_matmul_{cfg}", [True, False])]:
            k = Kernel(name)
            for M, N, K in [(512, 384, 1024), (300, 200, 4100)]:
                for transposed in layouts:
                    a = torch.randn(M, K, device="cuda").to(e4)
                    b = small_matmul_b(torch.randn(
                        (N, K) if transposed else (K, N),
                        device="cuda").to(e5), transposed)
                    c = torch.full((M, N), float("nan"), device="cuda")
                    launch_small_matmul(k, a, b, c, bm, bn)
                    want = a.double() @ b.double()
                    record(f"{name} {'B^T' if transposed else 'B'}",
                           f"{M}x{N}x{K}", rel_error(c, want), 1e-5)


def check_reductions():
    k = Kernel("reductions", 0)
    BM, BN = 32, 128
    x = torch.randn(BM, BN, device="cuda")
    outs = [torch.full((BM,), float("nan"), device="cuda"),
            torch.full((BN,), float("nan"), device="cuda"),
            torch.full((BM,), -1, device="cuda", dtype=torch.int32),
            torch.full((BN,), -1, device="cuda", dtype=torch.int32)]
    k(x, *outs)
    torch.cuda.synchronize()
    xd = x.double()
    record("reduce sum axis=1", f"{BM}x{BN}", rel_error(outs[0], xd.sum(1)), 1e-6)
    record("reduce max axis=0", f"{BM}x{BN}", rel_error(outs[1], xd.max(0).values), 0)
    for name, got, ref in [("argmax axis=1", outs[2], xd.argmax(1)),
                           ("argmin axis=0", outs[3], xd.argmin(0))]:
        wrong = (got.long() != ref).sum().item()
        record(f"reduce {name}", f"{BM}x{BN}", float(wrong), 0)
    k = Kernel("reductions", 1)
    BM, BN, BK = 128, 64, 32
    a = torch.randn(BM, BK, device="cuda", dtype=torch.float16)
    b = torch.randn(BK, BN, device="cuda", dtype=torch.float16)
    outs = [torch.full((BM,), float("nan"), device="cuda"),
            torch.full((BN,), float("nan"), device="cuda"),
            torch.full((1,), float("nan"), device="cuda")]
    k(a, b, *outs)
    torch.cuda.synchronize()
    acc = a.double() @ b.double()
    record("reduce mma max axis=1", f"{BM}x{BN}x{BK}",
           rel_error(outs[0], acc.max(1).values), 1e-5)
    record("reduce mma sum axis=0", f"{BM}x{BN}x{BK}",
           rel_error(outs[1], acc.sum(0)), 1e-5)
    record("reduce mma sum all", f"{BM}x{BN}x{BK}",
           rel_error(outs[2], acc.sum().reshape(1)), 1e-5)


for check in [check_vector_add, check_matmul, check_softmax,
              check_softmax_persistent, check_layernorm,
              check_layernorm_bwd, check_random, check_math_functions,
              check_custom_reduce, check_scan, check_histogram, check_sort,
              check_pointer_casts, check_gather, check_map_elementwise,
              check_inline_asm,
              check_descriptor, check_dot_transposed, check_grouped_matmul,
              check_wgmma_nsplit,
              check_attention_tutorial06, check_attention_bwd_tutorial06,
              check_cuda_helpers,
              check_join_split, check_compare_runs, check_int4_gemm, check_propagate_nan,
              check_float_atomic_minmax, check_mixed_precision_dots,
              check_batched_dot, check_cast_rtz,
              check_library_builtins, check_reductions, check_fp8,
              check_dot_scaled, check_splitk, check_int8_matmul,
              check_fp8_small_matmul,
              check_tf32_epilogue, check_block_scaled]:
    # ONLY=check_a,check_b runs those checks alone (a quick experiment).
    only = os.environ.get("ONLY")
    if only and check.__name__ not in only.split(","):
        continue
    try:
        check()
    except Exception as e:  # report and go on with the other examples
        log(f"FAIL {check.__name__}: {type(e).__name__}: {e}")
        rows.append((check.__name__, "", float("nan"), 0, False, None, str(e)))

failed = [r for r in rows if not r[4]]
log(f"\n{len(rows) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
