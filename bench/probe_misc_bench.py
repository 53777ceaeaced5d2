"""Generality probe: bench/kernels/probe_misc.tile (split-K matmul with
atomic adds, rotary embedding, per-row int8 quantization) against the same
sources under Triton 3.6 (and torch where it has the operation), each
checked against a float64 reference first; CUDA-graph timing, medians of
5 interleaved rounds. DIR holds the PTX/cubins tilec made of them (the
commands are in bench/NOTES.md).

usage: python3 bench/probe_misc_bench.py DIR [LOG]
"""
import statistics
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, logger, rel_error


@triton.jit
def matmul_splitk(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                  stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.atomic_add(c_ptrs, acc, mask=mask)


@triton.jit
def rope(q_ptr, cos_ptr, sin_ptr, q_row_stride, cos_row_stride, seq_len,
         n_heads: tl.constexpr, HALF: tl.constexpr):
    row = tl.program_id(0)
    pos = row % seq_len
    h = tl.arange(0, n_heads)
    d = tl.arange(0, HALF)
    base = q_ptr + row * q_row_stride + h[:, None] * (2 * HALF) + d[None, :]
    x1 = tl.load(base).to(tl.float32)
    x2 = tl.load(base + HALF).to(tl.float32)
    c = tl.load(cos_ptr + pos * cos_row_stride + d)[None, :].to(tl.float32)
    s = tl.load(sin_ptr + pos * cos_row_stride + d)[None, :].to(tl.float32)
    tl.store(base, (x1 * c - x2 * s).to(q_ptr.dtype.element_ty))
    tl.store(base + HALF, (x2 * c + x1 * s).to(q_ptr.dtype.element_ty))


@triton.jit
def quantize_rows(x_ptr, y_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.max(tl.abs(x), axis=0)
    scale = absmax / 127.0
    q = x / scale
    q = tl.where(q >= 0, q + 0.5, q - 0.5).to(tl.int8)
    tl.store(y_ptr + row * stride + cols, q, mask=mask)
    tl.store(scale_ptr + row, scale)


DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
torch.manual_seed(0)


def compare(name, runs, unit, amount):
    times = {k: [] for k in runs}
    for _ in range(5):
        for k, run in runs.items():
            times[k].append(graph_ms(run))
    line = f"{name}:"
    for k, t in times.items():
        line += f" {k} {amount / statistics.median(t):.1f} {unit};"
    for base in [k for k in runs if k != "tilec"]:
        r = statistics.median(b / a for a, b in zip(times["tilec"], times[base]))
        line += f" tilec/{base} {r:.2f}x"
    log(line)


# Split-K: C = A @ B into zeroed fp32 C (the zeroing is part of each run).
M = N = 1024
K, BM, BN, BK, SK = 8192, 64, 64, 64, 4
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
ref = a.double() @ b.double()
grid = (M // BM, N // BN, SK)
c_t, c_tr = (torch.zeros(M, N, device="cuda") for _ in range(2))
k = Kernel(DIR, "splitk")
args = (a, b, c_t, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
        c_t.stride(0), c_t.stride(1))
launch = k.bind(*args, grid=grid)
runs = {
    "tilec": lambda: (c_t.zero_(), launch()),
    "triton": lambda: (c_tr.zero_(), matmul_splitk[grid](
        a, b, c_tr, M, N, K, a.stride(0), a.stride(1), b.stride(0),
        b.stride(1), c_tr.stride(0), c_tr.stride(1), BM, BN, BK, SK,
        num_warps=4, num_stages=3)),
    "torch.mm (fp16 out)": lambda: torch.mm(a, b),
}
for name in ["tilec", "triton"]:
    runs[name]()
    torch.cuda.synchronize()
    out = c_t if name == "tilec" else c_tr
    assert rel_error(out, ref) < 1e-3, (name, rel_error(out, ref))
compare(f"split-K matmul {M}x{N}x{K} (4 splits, 64x64x64)", runs, "TFLOP/s",
        2 * M * N * K / 1e9)

# Rotary embedding in place on [tokens, heads * 128] fp16.
T, H, HALF = 4096 * 4, 32, 64
q0 = torch.randn(T, H * 2 * HALF, device="cuda", dtype=torch.float16)
cos = torch.randn(4096, HALF, device="cuda", dtype=torch.float16)
sin = torch.randn(4096, HALF, device="cuda", dtype=torch.float16)
pos = torch.arange(T, device="cuda") % 4096
x = q0.double().view(T, H, 2 * HALF)
c, s = cos.double()[pos][:, None, :], sin.double()[pos][:, None, :]
ref = torch.cat([x[..., :HALF] * c - x[..., HALF:] * s,
                 x[..., HALF:] * c + x[..., :HALF] * s], -1).view(T, -1)
q_t, q_tr = q0.clone(), q0.clone()
k = Kernel(DIR, "rope")
launch = k.bind(q_t, cos, sin, q_t.stride(0), cos.stride(0), 4096,
                grid=(T, 1, 1))
launch()
rope[(T,)](q_tr, cos, sin, q_tr.stride(0), cos.stride(0), 4096, H, HALF,
           num_warps=4)
torch.cuda.synchronize()
assert rel_error(q_t, ref) < 2e-3, rel_error(q_t, ref)
assert rel_error(q_tr, ref) < 2e-3
compare(f"rope {T} tokens x {H} heads x {2 * HALF}", {
    "tilec": launch,
    "triton": lambda: rope[(T,)](q_tr, cos, sin, q_tr.stride(0), cos.stride(0),
                                 4096, H, HALF, num_warps=4)},
    "TB/s", 2 * q0.numel() * 2 / 1e9)

# Per-row int8 quantization of 4096 x 4096 fp16.
R, C = 4096, 4096
xq = torch.randn(R, C, device="cuda", dtype=torch.float16)
y_t, y_tr = (torch.empty(R, C, device="cuda", dtype=torch.int8) for _ in range(2))
s_t, s_tr = (torch.empty(R, device="cuda") for _ in range(2))
k = Kernel(DIR, "quant")
launch = k.bind(xq, y_t, s_t, C, xq.stride(0), grid=(R, 1, 1))
launch()
quantize_rows[(R,)](xq, y_tr, s_tr, C, xq.stride(0), 4096, num_warps=8)
torch.cuda.synchronize()
assert torch.equal(y_t, y_tr), (y_t != y_tr).sum().item()
assert rel_error(s_t, (xq.double().abs().amax(1) / 127)) < 1e-6
compare(f"int8 row quantization {R}x{C}", {
    "tilec": launch,
    "triton": lambda: quantize_rows[(R,)](xq, y_tr, s_tr, C, xq.stride(0),
                                          4096, num_warps=8)},
    "TB/s", (R * C * 3 + R * 4) / 1e9)
