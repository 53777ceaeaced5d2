"""A generality probe: three kernels of Liger-Kernel (linkedin/Liger-Kernel:
RMSNorm forward, SwiGLU forward, cross entropy with the gradient in place)
ported to bench/kernels/liger.tile as a user would (header only), against
the same sources under Triton 3.6 and what a user would otherwise call in
torch. Checked against float64 first; then 5 interleaved rounds (CUDA
graphs), medians of per-round ratios; bandwidth counts each byte read or
written once.

usage: bash bench/build_liger.sh (here), then
       python3 bench/liger_bench.py .carry/liger [LOG]
"""
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from tilelaunch import BandwidthComparison, Kernel, rel_error, logger

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
torch.manual_seed(0)
cases = BandwidthComparison(log)
compare, failures = cases.compare, cases.failures


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr,
                             RSTD_ptr, RSTD_row_stride, n_cols, eps, offset,
                             BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    Y_ptr += row_idx * Y_row_stride
    X_ptr += row_idx * X_row_stride
    RSTD_ptr += row_idx * RSTD_row_stride
    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = tl.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr, rstd)
    X_row = X_row * rstd
    X_row = X_row.to(X_row_dtype)
    Y_row = X_row * (offset + W_row)
    tl.store(Y_ptr + col_offsets, Y_row, mask=mask)


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def _swiglu_forward_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols: tl.constexpr,
                           BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    a_ptr += program_id * stride
    b_ptr += program_id * stride
    c_ptr += program_id * stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    a_row = tl.load(a_ptr + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b_ptr + col_offsets, mask=mask, other=0)
    c_row = silu(a_row).to(b_row.dtype) * b_row
    tl.store(c_ptr + col_offsets, c_row, mask=mask)


@triton.jit
def _cross_entropy_kernel(X_ptr, X_stride, Y_ptr, loss_ptr, n_cols,
                          BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    Y_ptr += program_id
    y = tl.load(Y_ptr)
    X_ptr += program_id * X_stride
    loss_ptr += program_id
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y)
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols,
                          other=float("-inf"))
        block_max = tl.max(X_block)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols,
                          other=float("-inf"))
        X_block = tl.exp(X_block - m) / d
        X_block = tl.where(X_offsets != y, X_block, X_block - 1.0)
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)
    loss = -(ori_X_y - m - tl.log(d))
    tl.store(loss_ptr, loss)


def bench_rms_norm(M, N, block, warps):
    x = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.randn(N, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    rstd = torch.empty(M, device="cuda")
    k = Kernel(DIR, f"rms_norm_{block}")
    eps, offset = 1e-6, 0.0
    args = (y, N, x, N, w, rstd, 1, M, N, eps, offset)
    fns = {"tilec": k.bind(*args),
           "triton": lambda: _rms_norm_forward_kernel[(M,)](
               y, N, x, N, w, rstd, 1, N, eps, offset, BLOCK_SIZE=block,
               num_warps=warps),
           "torch": lambda: F.rms_norm(x, (N,), w, eps)}
    xd = x.double()
    ref = (xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + eps)) * w.double()

    def check(name):
        y.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        return rel_error(out if name == "torch" else y, ref)
    compare(f"rms_norm {M}x{N} fp16", fns, 2 * (2 * M * N + N) + 4 * M, check)


def bench_swiglu(M, N):
    a = torch.randn(M, N, device="cuda", dtype=torch.float16)
    b = torch.randn(M, N, device="cuda", dtype=torch.float16)
    c = torch.empty_like(a)
    k = Kernel(DIR, f"swiglu_{N}")
    fns = {"tilec": k.bind(a, b, c, N, M),
           "triton": lambda: _swiglu_forward_kernel[(M,)](
               a, b, c, N, n_cols=N, BLOCK_SIZE=16384, num_warps=32),
           "torch": lambda: F.silu(a) * b}
    ad = a.double()
    ref = ad * torch.sigmoid(ad) * b.double()

    def check(name):
        c.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        return rel_error(out if name == "torch" else c, ref)
    compare(f"swiglu {M}x{N} fp16", fns, 3 * 2 * M * N, check)


def bench_cross_entropy(M, V):
    x0 = torch.randn(M, V, device="cuda")
    y = torch.randint(0, V, (M,), device="cuda")
    x = x0.clone()
    loss = torch.empty(M, device="cuda")
    k = Kernel(DIR, "cross_entropy")

    def torch_ce():
        xr = x0.detach().requires_grad_()
        l = F.cross_entropy(xr, y, reduction="none")
        l.backward(torch.ones_like(l))
        return l, xr.grad
    fns = {"tilec": k.bind(x, V, y, loss, M, V),
           "triton": lambda: _cross_entropy_kernel[(M,)](
               x, V, y, loss, V, BLOCK_SIZE=32768, num_warps=32),
           "torch": torch_ce}
    xd = x0.double()
    ref_loss = F.cross_entropy(xd, y, reduction="none")
    ref_grad = torch.softmax(xd, -1) - F.one_hot(y, V).double()

    def check(name):
        x.copy_(x0)
        loss.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        got_loss, got_grad = out if name == "torch" else (loss, x)
        return max(rel_error(got_loss, ref_loss), rel_error(got_grad, ref_grad))
    # The kernel reads the logits twice and writes the gradient once.
    compare(f"cross_entropy {M}x{V} fp32", fns, 3 * 4 * M * V, check)


bench_rms_norm(4096, 4096, 4096, 8)
bench_rms_norm(4096, 8192, 8192, 16)
bench_swiglu(4096, 11008)
bench_swiglu(4096, 14336)
bench_cross_entropy(2048, 32000)
log(f"\n{'all correct' if not failures else 'FAILED: ' + ', '.join(failures)}")
sys.exit(1 if failures else 0)
