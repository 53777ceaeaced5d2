"""A second generality probe: ten kernels of Liger-Kernel
(linkedin/Liger-Kernel @ ead96b61, src/liger_kernel/ops/*.py: layer norm
forward and backward, GEGLU forward and backward, fused add + RMSNorm
forward, RoPE, DyT forward, KL divergence forward, JSD, group norm
forward) ported to bench/kernels/liger2.tile as a user would (header
only), against the same sources under Triton 3.6 (the @triton.jit kernels
below, copied verbatim) and what a user would otherwise call in torch.
Each kernel runs at Liger's launch settings (calculate_settings' block and
warps, Liger's grid; DyT at the config Triton's autotuner picks here).
Checked against float64 first on fresh random data; then 5 interleaved
rounds (CUDA graphs), medians of per-round ratios; bandwidth counts each
byte the operation must read or write once.

usage: bash bench/build_liger2.sh (here), then
       python3 bench/liger2_bench.py .carry/liger2 [LOG]
"""
import json
import math
import statistics
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra.libdevice import rsqrt
from triton.language.extra.libdevice import tanh

from tilelaunch import BandwidthComparison, Kernel, cdiv, rel_error, logger

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
torch.manual_seed(0)
cases = BandwidthComparison(log)
compare, failures, summary = cases.compare, cases.failures, cases.summary

# Liger's module constants, which its kernels read.
_CASTING_MODE_NONE: tl.constexpr = tl.constexpr(-1)
_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)
_CASTING_MODE_GEMMA: tl.constexpr = tl.constexpr(1)

_REDUCTION_MODE_NONE: tl.constexpr = tl.constexpr(0)
_REDUCTION_MODE_SUM: tl.constexpr = tl.constexpr(1)
_REDUCTION_MODE_MEAN: tl.constexpr = tl.constexpr(2)
_REDUCTION_MODE_BATCHMEAN: tl.constexpr = tl.constexpr(3)


# The Liger kernels as Liger has them (decorators, headers and bodies);
# bench/kernels/liger2.tile has the same bodies under typed headers.
@triton.jit
def _layer_norm_forward_kernel(
    Y_ptr,  # pointer to output, shape (n_rows, n_cols)
    Y_row_stride,  # stride of each row in output
    X_ptr,  # pointer to input, shape (n_rows, n_cols)
    X_row_stride,  # stride of each row in input
    W_ptr,  # pointer to weights, shape (n_cols,)
    W_row_stride,  # stride of each row in weights
    B_ptr,  # pointer to bias, shape (n_cols,)
    B_row_stride,  # stride of each row in bias
    Mean_ptr,  # pointer to mean, shape (n_rows,)
    Mean_row_stride,  # stride of each row in mean
    RSTD_ptr,  # pointer to rstd, shape (n_rows,)
    RSTD_row_stride,  # stride of each row in rstd
    n_cols,
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    """
    References:
    https://arxiv.org/abs/1607.06450
    https://github.com/karpathy/llm.c/blob/master/doc/layernorm/layernorm.md
    """
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    # Pre-load weights and bias in fp32 to avoid repeated conversions
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0)
    B_row = tl.load(B_ptr + col_offsets, mask=mask, other=0.0)
    W_f32 = W_row.to(tl.float32)
    B_f32 = B_row.to(tl.float32)

    # Calculate pointers for this row
    row_X_ptr = X_ptr + row_idx * X_row_stride
    row_Y_ptr = Y_ptr + row_idx * Y_row_stride
    row_Mean_ptr = Mean_ptr + row_idx * Mean_row_stride
    row_RSTD_ptr = RSTD_ptr + row_idx * RSTD_row_stride

    # Load input data and convert to fp32 for numerical stability
    X_row = tl.load(row_X_ptr + col_offsets, mask=mask, other=0.0)
    X_f32 = X_row.to(tl.float32)

    # Compute statistics in fp32 for numerical stability
    mean = tl.sum(X_f32, axis=0) / n_cols
    X_centered = X_f32 - mean
    # Apply mask to variance calculation to exclude contributions from masked elements
    X_centered_masked = tl.where(mask, X_centered, 0.0)
    var = tl.sum(X_centered_masked * X_centered_masked, axis=0) / n_cols
    rstd = rsqrt(var + eps.to(tl.float32))

    # Store statistics (convert back to original dtype only once)
    tl.store(row_Mean_ptr, mean.to(X_row.dtype))
    tl.store(row_RSTD_ptr, rstd.to(X_row.dtype))

    # Fused normalization and affine transformation
    # Y = (X - mean) * rstd * W + B = X_centered * rstd * W + B
    Y_f32 = X_centered * rstd * W_f32 + B_f32

    # Store output (single conversion back to original dtype)
    tl.store(row_Y_ptr + col_offsets, Y_f32.to(X_row.dtype), mask=mask)


@triton.jit
def _layer_norm_backward_kernel(
    X_ptr,  # pointer to input, shape (n_rows, n_cols)
    stride_x,  # stride of each row in input
    W_ptr,  # pointer to weights, shape (n_cols,)
    Mean_ptr,  # pointer to mean, shape (n_rows,)
    stride_mean,  # stride of each row in mean
    RSTD_ptr,  # pointer to rstd, shape (n_rows,)
    stride_rstd,  # stride of each row in rstd
    DX_ptr,  # pointer to input grad, shape (n_rows, n_cols)
    stride_dx,  # stride of each row in input grad
    DW_ptr,  # pointer to weights grad, shape (n_cols,)
    stride_dw,  # stride of each row in weights grad
    DB_ptr,  # pointer to bias grad, shape (n_cols,)
    stride_db,  # stride of each row in bias grad
    DY_ptr,  # pointer to output grad, shape (n_rows, n_cols)
    stride_dy,  # stride of each row in output grad
    n_rows,
    n_cols,
    rows_per_program: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
    References:
    https://arxiv.org/abs/1607.06450
    https://github.com/karpathy/llm.c/blob/master/doc/layernorm/layernorm.md
    """
    row_block_id = tl.program_id(0).to(tl.int64)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols

    dW_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    db_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)

    # Pre-load weights once (same optimization as forward pass)
    w = tl.load(W_ptr + cols, mask=mask, other=0.0)
    w_f32 = w.to(tl.float32)

    for row_idx in range(row_start, row_end):
        # Calculate pointers for this specific row
        row_X_ptr = X_ptr + row_idx * stride_x
        row_DX_ptr = DX_ptr + row_idx * stride_dx
        row_DY_ptr = DY_ptr + row_idx * stride_dy
        row_Mean_ptr = Mean_ptr + row_idx * stride_mean
        row_RSTD_ptr = RSTD_ptr + row_idx * stride_rstd

        # Load data for this row
        x = tl.load(row_X_ptr + cols, mask=mask, other=0.0)
        dy = tl.load(row_DY_ptr + cols, mask=mask, other=0.0)
        mean = tl.load(row_Mean_ptr)
        rstd = tl.load(row_RSTD_ptr)

        # Convert to fp32 for numerical stability
        x_f32 = x.to(tl.float32)
        dy_f32 = dy.to(tl.float32)
        mean_f32 = mean.to(tl.float32)
        rstd_f32 = rstd.to(tl.float32)

        # Compute backward pass for this row
        x_hat = (x_f32 - mean_f32) * rstd_f32
        wdy = w_f32 * dy_f32
        c1 = tl.sum(x_hat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        dx = (wdy - (x_hat * c1 + c2)) * rstd_f32

        # Store input gradient
        tl.store(row_DX_ptr + cols, dx, mask=mask)

        # Accumulate weight and bias gradients for this thread block's assigned rows
        dw = dy_f32 * x_hat
        db = dy_f32
        dW_row += dw
        db_row += db

    tl.store(DW_ptr + row_block_id * stride_dw + cols, dW_row, mask=mask)
    tl.store(DB_ptr + row_block_id * stride_db + cols, db_row, mask=mask)


@triton.jit
def _geglu_tanh_forward_kernel(a, b, c, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)

    # locate start index
    a += program_id * stride
    b += program_id * stride
    c += program_id * stride

    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    a_row = tl.load(a + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b + col_offsets, mask=mask, other=0)

    # tanh approximation form of GELU is computed with:
    # 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3)))
    sqrt_2_over_pi = 0.7978845608028654  # sqrt(2 / pi)
    a_cubed = a_row * a_row * a_row
    tanh_arg = sqrt_2_over_pi * (a_row + 0.044715 * a_cubed)
    tanh_result = tanh(tanh_arg)
    geglu_a = 0.5 * a_row * (1 + tanh_result)
    c_row = geglu_a.cast(b_row.dtype) * b_row
    tl.store(c + col_offsets, c_row, mask=mask)


@triton.jit
def _geglu_tanh_backward_kernel(dc, a, b, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)

    # locate start index
    dc += program_id * stride
    a += program_id * stride
    b += program_id * stride

    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    dc_row = tl.load(dc + col_offsets, mask=mask, other=0)
    a_row = tl.load(a + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b + col_offsets, mask=mask, other=0)

    # recomputation to save memory
    sqrt_2_over_pi = 0.7978845608028654  # sqrt(2 / pi)
    a_cubed = a_row * a_row * a_row
    tanh_arg = sqrt_2_over_pi * (a_row + 0.044715 * a_cubed)
    tanh_result = tanh(tanh_arg)
    geglu_a = 0.5 * a_row * (1 + tanh_result)
    geglu_a = geglu_a.to(dc_row.dtype).to(tl.float32)

    db_row = dc_row.cast(tl.float32) * geglu_a

    # Gradient w.r.t. a can be computed with:
    # b * (0.5 * (1 + tanh(z)) + 0.5 * a * (1 - tanh(z)^2) * (sqrt(2/pi) * (1 + 3 * 0.044715 * a^2)))
    # where z = sqrt(2/pi) * (a + 0.044715 * a^3)
    term1 = 0.5 * (1 + tanh_result)
    tanh_sq = tanh_result * tanh_result
    term2 = 0.5 * a_row * (1 - tanh_sq) * (sqrt_2_over_pi * (1 + 3 * 0.044715 * a_row * a_row))
    da_row = dc_row * b_row * (term1 + term2)

    tl.store(a + col_offsets, da_row, mask=mask)
    tl.store(b + col_offsets, db_row.to(dc_row.dtype), mask=mask)


@triton.jit
def _fused_add_rms_norm_forward_kernel(
    Y_ptr,
    Y_row_stride,
    S_ptr,  # output residual
    S_row_stride,
    X_ptr,
    X_row_stride,
    R_ptr,  # input residual
    R_row_stride,
    W_ptr,
    W_row_stride,
    RSTD_ptr,
    RSTD_row_stride,
    n_cols,
    eps,
    offset,
    casting_mode: tl.constexpr,  # constexpr so the `if` blocks can be optimized out
    BLOCK_SIZE: tl.constexpr,
):
    """
    This kernel computes the following:
    1. hidden_states = residual + hidden_states
    2. residual = hidden_states
    3. hidden_states = rmsnorm(hidden_states)

    This is a commonly used pattern in the decoder layers of LLMs.
    Some examples:
    1. https://github.com/huggingface/transformers/blob/0dc2df5ddafe3cb5824ad24e85beba13e0aa6726/src/transformers/models/qwen3/modeling_qwen3.py#L271
    2. https://github.com/huggingface/transformers/blob/0dc2df5ddafe3cb5824ad24e85beba13e0aa6726/src/transformers/models/llama4/modeling_llama4.py#L393

    This kernel is inspired by the rms_norm forward kernel, and is adapted to support the residual addition in the forward pass.
    The backward pass is also adapted to support the residual addition in the backward pass.
    """

    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    Y_ptr += row_idx * Y_row_stride
    S_ptr += row_idx * S_row_stride
    X_ptr += row_idx * X_row_stride
    R_ptr += row_idx * R_row_stride
    RSTD_ptr += row_idx * RSTD_row_stride

    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0)
    R_row = tl.load(R_ptr + col_offsets, mask=mask, other=0)
    S_row = X_row + R_row
    tl.store(S_ptr + col_offsets, S_row, mask=mask)
    S_row_dtype = S_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)

    # On Llama, only rstd is computed on fp32
    if casting_mode == _CASTING_MODE_LLAMA:
        S_row = S_row.to(tl.float32)

    # Gemma computes everything on fp32, and then casts back the output to the original dtype
    if casting_mode == _CASTING_MODE_GEMMA:
        W_row = W_row.to(tl.float32)
        S_row = S_row.to(tl.float32)

    if casting_mode == _CASTING_MODE_NONE:
        eps = eps.to(S_row_dtype)
        offset = offset.to(S_row_dtype)
    else:
        # Force fp32 scalars: Inductor may use fp64 under torch.compile and tank throughput.
        eps = eps.to(tl.float32)
        offset = offset.to(tl.float32)

    mean_square = tl.sum(S_row * S_row, axis=0) / n_cols
    rstd = rsqrt(mean_square + eps)

    # We can save time by caching rms with minimal memory overhead
    # because rms is much smaller compared to X_row, as rms is for each row.
    # However, on the computation side, it can save 4 operations (*, sum, /, sqrt).
    tl.store(RSTD_ptr, rstd)

    S_row = S_row * rstd

    # On Llama, the multiplication with the weight is done on the original dtype
    if casting_mode == _CASTING_MODE_LLAMA:
        S_row = S_row.to(S_row_dtype)

    Y_row = S_row * (offset + W_row)

    if casting_mode == _CASTING_MODE_GEMMA:
        Y_row = Y_row.to(S_row_dtype)

    tl.store(Y_ptr + col_offsets, Y_row, mask=mask)


@triton.jit
def _triton_rope(
    q_ptr,
    q_row_stride,
    k_ptr,
    k_row_stride,
    cos,
    cos_row_stride,
    sin,
    sin_row_stride,
    sl,
    bs: tl.constexpr,
    cos_bs: tl.constexpr,
    n_qh: tl.constexpr,
    n_kh: tl.constexpr,
    hd: tl.constexpr,
    pad_n_qh: tl.constexpr,
    pad_n_kh: tl.constexpr,
    pad_hd: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    BACKWARD_PASS: tl.constexpr = False,
):
    # q size: (bsz, seq_len, num_q_heads, head_dim)
    # q stride: (seq_len * num_q_heads * head_dim, num_q_heads * head_dim, head_dim, 1)
    # k size: (bsz, seq_len, num_kv_heads, head_dim)
    # k stride: (seq_len * num_kv_heads * head_dim, num_kv_heads * head_dim, head_dim, 1)

    # cos size: (1, seq_len, head_dim) or (bsz, seq_len, head_dim)
    # stride: (seq_len * head_dim, head_dim, 1)
    pid = tl.program_id(0).to(tl.int64)

    # locate start address
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride

    # ####################################################################
    # get the cos(mθ_{i...d/2}) and sin(mθ_{i...d/2}) for token position
    # m of this program instance
    # ####################################################################

    # 1. program instances are laid out in a 1D vector of size bsz * seq_len, which
    # effectively represents a 2D grid of size [bsz, seq_len] with seq_len dimension
    # being the fastest changing dimension. Thus we can simply do pid // sl to get the batch index
    # and pid % sl to get the sequence index.
    # 2. We only need the left half of cos and sin matrix because the right half is just
    # a clone of the left half.
    batch_idx = pid // sl
    cos_row_idx = pid % sl
    cos = cos + tl.where(
        cos_bs == 1,
        cos_row_idx * cos_row_stride,
        batch_idx * (sl * cos_row_stride) + cos_row_idx * cos_row_stride,
    )
    sin = sin + tl.where(
        cos_bs == 1,
        cos_row_idx * sin_row_stride,
        batch_idx * (sl * sin_row_stride) + cos_row_idx * sin_row_stride,
    )

    cos_offsets = tl.arange(0, pad_hd // 2)
    cos_mask = cos_offsets < hd // 2
    cos_row = tl.load(cos + cos_offsets, mask=cos_mask, other=0)
    sin_row = tl.load(sin + cos_offsets, mask=cos_mask, other=0)

    # ####################################################################
    # Load the left and right half of q and k for the current
    # program instance (i.e. for the current token) separately
    # ####################################################################
    # left half of the head
    first_half_q_offsets = tl.arange(0, pad_n_qh)[:, None] * hd + tl.arange(0, pad_hd // 2)[None, :]
    first_half_k_offsets = tl.arange(0, pad_n_kh)[:, None] * hd + tl.arange(0, pad_hd // 2)[None, :]
    first_q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & (tl.arange(0, pad_hd // 2)[None, :] < hd // 2)
    first_k_mask = (tl.arange(0, pad_n_kh)[:, None] < n_kh) & (tl.arange(0, pad_hd // 2)[None, :] < hd // 2)
    q_tile_1 = tl.load(q_ptr + first_half_q_offsets, mask=first_q_mask, other=0).to(sin_row.dtype)
    k_tile_1 = tl.load(k_ptr + first_half_k_offsets, mask=first_k_mask, other=0).to(sin_row.dtype)

    # right half of the head
    second_half_q_offsets = first_half_q_offsets + (hd // 2)
    second_half_k_offsets = first_half_k_offsets + (hd // 2)
    second_q_mask = first_q_mask
    second_k_mask = first_k_mask
    q_tile_2 = tl.load(q_ptr + second_half_q_offsets, mask=second_q_mask, other=0).to(sin_row.dtype)
    k_tile_2 = tl.load(k_ptr + second_half_k_offsets, mask=second_k_mask, other=0).to(sin_row.dtype)

    if not BACKWARD_PASS:
        # y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
        new_q_tile_1 = q_tile_1 * cos_row - q_tile_2 * sin_row
        tl.store(q_ptr + first_half_q_offsets, new_q_tile_1, mask=first_q_mask)
        new_q_tile_2 = q_tile_2 * cos_row + q_tile_1 * sin_row
        tl.store(q_ptr + second_half_q_offsets, new_q_tile_2, mask=second_q_mask)

        new_k_tile_1 = k_tile_1 * cos_row - k_tile_2 * sin_row
        tl.store(k_ptr + first_half_k_offsets, new_k_tile_1, mask=first_k_mask)
        new_k_tile_2 = k_tile_2 * cos_row + k_tile_1 * sin_row
        tl.store(k_ptr + second_half_k_offsets, new_k_tile_2, mask=second_k_mask)
    else:
        # with some math, we can get:
        # dy = [dx1, dx2] * [cos, cos] + [-dx2, dx1] * [-sin, -sin]
        new_q_tile_1 = q_tile_1 * cos_row + q_tile_2 * sin_row
        tl.store(q_ptr + first_half_q_offsets, new_q_tile_1, mask=first_q_mask)
        new_q_tile_2 = q_tile_2 * cos_row - q_tile_1 * sin_row
        tl.store(q_ptr + second_half_q_offsets, new_q_tile_2, mask=second_q_mask)

        new_k_tile_1 = k_tile_1 * cos_row + k_tile_2 * sin_row
        tl.store(k_ptr + first_half_k_offsets, new_k_tile_1, mask=first_k_mask)
        new_k_tile_2 = k_tile_2 * cos_row - k_tile_1 * sin_row
        tl.store(k_ptr + second_half_k_offsets, new_k_tile_2, mask=second_k_mask)


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_N": bn}, num_stages=ns, num_warps=nw)
        for bn in [1024, 2048, 4096]
        for ns in [1, 2]
        for nw in [4, 8, 16]
    ],
    key=["N"],
)
@triton.jit
def _dyt_fwd_kernel(X, Y, Alpha, Gamma, Beta, HAVE_BETA: tl.constexpr, N: tl.constexpr, BLOCK_N: tl.constexpr):
    col = tl.cast(tl.program_id(0), tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = col < N
    row_id = tl.cast(tl.program_id(1), tl.int64)

    X += row_id * N
    Y += row_id * N
    alpha = tl.load(Alpha).to(tl.float32)

    gamma = tl.load(Gamma + col, mask=mask, other=0.0).to(tl.float32)

    x = tl.load(X + col, mask=mask, other=0.0).to(tl.float32)

    tanh_x = tanh(alpha * x)
    y = tanh_x * gamma
    if HAVE_BETA:
        beta = tl.load(Beta + col, mask=mask, other=0.0).to(tl.float32)
        y += beta
    tl.store(Y + col, y, mask=mask)


@triton.jit
def _kldiv_kernel_forward(
    y_ptr,  # [B, S], prediction ptr, the kernel expects the prediction in log-space
    y_stride,  # int, prediction stride
    gt_ptr,  # [B, S], ground truth ptr
    gt_stride,  # int, ground truth stride
    loss_ptr,  # [B] or [B, S] if reduction == _REDUCTION_MODE_NONE, output ptr
    loss_stride,  # int, output stride
    n_cols,  # int, number of columns in the input tensor
    eps,
    BLOCK_SIZE: tl.constexpr,
    log_target: tl.constexpr = False,
    reduction: tl.constexpr = _REDUCTION_MODE_BATCHMEAN,
):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride

    base_offsets = tl.arange(0, BLOCK_SIZE)

    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0)

        # KL(y_true || y) = y_true * (log(y_true) - log(y))
        # We compute KL(y_true || y) with y in the log-space
        if not log_target:
            loss = y_true * (tl.log(tl.maximum(y_true, eps)) - y)
        else:
            loss = tl.exp(y_true) * (y_true - y)

        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(loss, axis=0)

    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


@triton.jit
def _jsd_kernel(
    X_ptr,  # input in logspace, X = log Q
    X_stride,
    Y_ptr,  # ground truth in logspace, Y = log P
    Y_stride,
    loss_ptr,
    loss_stride,
    dX_ptr,
    dX_stride,
    label_ptr,
    beta: tl.constexpr,
    n_non_ignore: int,
    ignore_index: tl.constexpr,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
    HAS_LABEL: tl.constexpr,
):
    # JSD(P || Q) = (KL(P || M) + KL(Q || M)) / 2, M = (1/2) * (P + Q) = (1/2) * (e ^ Y + e ^ X)
    #             = sum(P * log P + Q * log Q - 2 * M * log M) / 2
    #             = sum(e ^ Y * Y + e ^ X * X - 2 * M * log M) / 2
    # grad_x_i = 0.5 * Q * (X - log_M)
    pid = tl.program_id(0).to(tl.int64)
    X_ptr += pid * X_stride
    dX_ptr += pid * dX_stride
    Y_ptr += pid * Y_stride
    loss_ptr += pid * loss_stride
    label_ptr += pid

    if HAS_LABEL:
        label = tl.load(label_ptr)
        if label == ignore_index:
            for i in range(0, n_cols, BLOCK_SIZE):
                offsets = i + tl.arange(0, BLOCK_SIZE)
                tl.store(dX_ptr + offsets, 0.0, mask=offsets < n_cols)
            return

    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        X = tl.load(X_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        Y = tl.load(Y_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)

        if beta == 0.0:  # forward KL
            Y_max = tl.max(Y, axis=0)
            Y_shifted = Y - Y_max
            Y_prob = tl.exp(Y_shifted) * tl.exp(Y_max)  # Compensate for the shift
            loss = Y_prob * (Y - X)
            dX = -Y_prob
        elif beta == 1.0:  # reverse KL
            X_max = tl.max(X, axis=0)
            X_shifted = X - X_max
            X_prob = tl.exp(X_shifted) * tl.exp(X_max)  # Compensate for the shift
            loss = X_prob * (X - Y)
            dX = loss + X_prob
        else:
            max_val = tl.maximum(tl.max(X, axis=0), tl.max(Y, axis=0))
            X_shifted = X - max_val
            Y_shifted = Y - max_val

            # Pre-compute exp(max_val) since it's used twice
            exp_max = tl.exp(max_val)

            # Compute exp terms with compensation
            Q = tl.exp(X_shifted) * exp_max  # = exp(X)
            P = tl.exp(Y_shifted) * exp_max  # = exp(Y)

            # Pre-compute common terms
            beta_P = beta * P
            one_minus_beta_Q = (1 - beta) * Q
            M = beta_P + one_minus_beta_Q
            log_M = tl.log(M)  # No need to compensate as M is already in original scale

            loss = beta_P * Y + one_minus_beta_Q * X - M * log_M
            dX = one_minus_beta_Q * (X - log_M)

        # Pre-compute scaling factor
        scale = 1.0 / n_non_ignore
        loss = loss * scale
        dX = dX * scale

        tl.store(loss_ptr + offsets, loss, mask=mask)
        tl.store(dX_ptr + offsets, dX, mask=mask)


@triton.jit
def _group_norm_forward_kernel(
    Y_ptr,  # pointer to output, shape (n_rows, n_groups, hidden_size)
    Y_row_stride,  # stride of each row in output
    Y_col_stride,  # stride of each column in output
    X_ptr,  # pointer to input, shape (n_rows, n_groups, hidden_size)
    X_row_stride,  # stride of each row in input
    X_col_stride,  # stride of each column in input
    Mean_ptr,  # pointer to mean, shape (n_rows, n_groups)
    Mean_row_stride,  # stride of each row in mean
    Mean_col_stride,  # stride of each column in mean
    RSTD_ptr,  # pointer to rstd, shape (n_rows, n_groups)
    RSTD_row_stride,  # stride of each row in rstd
    RSTD_col_stride,  # stride of each column in rstd
    W_ptr,  # pointer to W
    B_ptr,  # pointer to B
    hidden_size,  # hidden size of X
    channels_per_group,  # the number of channels per group
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    """
    References:
    https://nn.labml.ai/normalization/group_norm/index.html
    """
    batch_idx = tl.program_id(0)
    group_idx = tl.program_id(1)

    X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride
    Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride

    block_range = tl.arange(0, BLOCK_SIZE)

    # Compute mean and variance using the online algorithm
    s = 0.0
    squared_sum = 0.0
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        hidden_size_offsets = i + block_range
        mask = hidden_size_offsets < hidden_size
        X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=0.0)
        s += tl.sum(X)
        # X**2
        squared_sum += tl.sum(X * X)

    m = s / hidden_size

    # variance = E[X**2] - E[X]**2
    variance = (squared_sum / hidden_size) - (m * m)

    # 1/std
    rstd = rsqrt(variance + eps.to(tl.float32))

    # Normalize — flat loop over full hidden_size (not per-channel)
    # This avoids the nested channel × per_channel_hidden loop where
    # BLOCK_SIZE >> hidden_size_per_channel causes massive padding waste.
    hidden_size_per_channel = hidden_size // channels_per_group
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        hidden_size_offsets = i + block_range
        mask = hidden_size_offsets < hidden_size
        X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=m)
        # Determine which channel each element belongs to, then load W/B
        local_channel = hidden_size_offsets // hidden_size_per_channel
        global_channel = group_idx * channels_per_group + local_channel
        W = tl.load(W_ptr + global_channel, mask=mask)
        B = tl.load(B_ptr + global_channel, mask=mask)
        Y = (X - m) * rstd * W + B
        tl.store(Y_ptr + hidden_size_offsets, Y, mask=mask)

    tl.store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m)
    tl.store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd)


def tilec_kernel(name, warps, index=None, **constexprs):
    """The tilec build `name`, checked to have been compiled with the
    constexprs and warps that Triton is launched with here, so a build out
    of step with this script fails loudly instead of timing another kernel."""
    k = Kernel(DIR, name, index)
    got = {c: k.md["constexprs"].get(c) for c in constexprs}
    if got != constexprs or k.md["num_warps"] != warps:
        raise SystemExit(f"{name}: built with {k.md['constexprs']} and "
                         f"{k.md['num_warps']} warps, launched here with "
                         f"{constexprs} and {warps} warps")
    return k


# The tolerance for bf16 results: one rounding to bf16 alone is ~2e-3
# (RMS).
BF16 = 1e-2


def bench_layer_norm(M, N, block, warps):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    # Liger keeps the row statistics in X's dtype.
    mean = torch.empty(M, device="cuda", dtype=x.dtype)
    rstd = torch.empty(M, device="cuda", dtype=x.dtype)
    eps = 1e-6
    k = tilec_kernel(f"layer_norm_fwd_{N}", warps, BLOCK_SIZE=block)
    args = (y, N, x, N, w, 1, b, 1, mean, 1, rstd, 1, N, eps)
    fns = {"tilec": k.bind(*args, grid=(M,)),
           "triton": lambda: _layer_norm_forward_kernel[(M,)](
               *args, BLOCK_SIZE=block, num_warps=warps),
           "torch": lambda: F.layer_norm(x, (N,), w, b, eps)}
    xd = x.double()
    mu = xd.mean(-1)
    rs = torch.rsqrt(xd.var(-1, unbiased=False) + eps)
    ref = (xd - mu[:, None]) * rs[:, None] * w.double() + b.double()

    def check(name):
        for t in (y, mean, rstd):
            t.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name == "torch":
            return rel_error(out, ref)
        return max(rel_error(y, ref), rel_error(mean, mu), rel_error(rstd, rs))
    compare(f"layer_norm fwd {M}x{N} bf16", fns, 2 * (2 * M * N + 2 * N + 2 * M),
            check, BF16)


def bench_layer_norm_bwd(M, N, block, warps):
    # Liger's backward is persistent: one program per SM, each taking
    # rows_per_program rows (a constexpr, so the build depends on the SM
    # count) and writing a row of partial dW and dB sums in fp32.
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rpp = math.ceil(M / sms)
    build = f"layer_norm_bwd_{N}"
    built = json.load(open(f"{DIR}/{build}.json"))["constexprs"]["rows_per_program"]
    if built != rpp:
        log(f"  layer_norm bwd {M}x{N}: FAIL, built for rows_per_program="
            f"{built}, this GPU ({sms} SMs) needs {rpp}: "
            f"SMS={sms} bash bench/build_liger2.sh")
        failures.append(f"layer_norm bwd {M}x{N} (build)")
        return
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    xd, dyd, wd = x.double(), dy.double(), w.double()
    mu = xd.mean(-1)
    rs = torch.rsqrt(xd.var(-1, unbiased=False) + 1e-6)
    # The statistics as Liger's forward leaves them (X's dtype), and as
    # torch's forward does (fp32, one per row).
    mean, rstd = mu.to(x.dtype), rs.to(x.dtype)
    mean32, rstd32 = mu.float()[:, None], rs.float()[:, None]
    dx = torch.empty_like(x)
    dw_part = torch.empty(sms, N, device="cuda")
    db_part = torch.empty(sms, N, device="cuda")
    k = tilec_kernel(build, warps, BLOCK_SIZE=block, rows_per_program=rpp)
    args = (x, N, w, mean, 1, rstd, 1, dx, N, dw_part, N, db_part, N, dy, N, M, N)
    # Timed: the kernels alone; Liger then sums the partials on the host
    # (2 * sms * N fp32 more read), which torch's op does inside.
    fns = {"tilec": k.bind(*args, grid=(sms,)),
           "triton": lambda: _layer_norm_backward_kernel[(sms,)](
               *args, rows_per_program=rpp, BLOCK_SIZE=block, num_warps=warps),
           "torch": lambda: torch.ops.aten.native_layer_norm_backward(
               dy, x, [N], mean32, rstd32, w, b, [True, True, True])}
    xh = (xd - mu[:, None]) * rs[:, None]
    wdy = wd * dyd
    c1 = (xh * wdy).mean(-1, keepdim=True)
    c2 = wdy.mean(-1, keepdim=True)
    ref_dx = (wdy - (xh * c1 + c2)) * rs[:, None]
    ref_dw = (dyd * xh).sum(0)
    ref_db = dyd.sum(0)

    def check(name):
        for t in (dx, dw_part, db_part):
            t.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name != "torch":
            out = dx, dw_part.sum(0), db_part.sum(0)
        return max(rel_error(o, r) for o, r in zip(out, (ref_dx, ref_dw, ref_db)))
    compare(f"layer_norm bwd {M}x{N} bf16", fns,
            2 * (3 * M * N + N + 2 * M) + 4 * 2 * sms * N, check, BF16)


def bench_geglu(M, N, block, warps):
    a = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty_like(a)
    k = tilec_kernel(f"geglu_fwd_{N}", warps, n_cols=N, BLOCK_SIZE=block)
    fns = {"tilec": k.bind(a, b, c, N, grid=(M,)),
           "triton": lambda: _geglu_tanh_forward_kernel[(M,)](
               a, b, c, N, n_cols=N, BLOCK_SIZE=block, num_warps=warps),
           "torch": lambda: F.gelu(a, approximate="tanh") * b}
    ad = a.double()
    ref = 0.5 * ad * (1 + torch.tanh(math.sqrt(2 / math.pi) * (ad + 0.044715 * ad ** 3))) * b.double()

    def check(name):
        c.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        return rel_error(out if name == "torch" else c, ref)
    compare(f"geglu fwd {M}x{N} bf16", fns, 3 * 2 * M * N, check, BF16)


def bench_geglu_bwd(M, N, block, warps):
    a0 = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    b0 = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    dc = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    # The kernel writes the gradients over a and b. The timed launches
    # repeat it on their own results, which stay finite (products of
    # normals shrink) and do not change the work.
    a, b = a0.clone(), b0.clone()
    k = tilec_kernel(f"geglu_bwd_{N}", warps, n_cols=N, BLOCK_SIZE=block)

    def torch_geglu_bwd():
        # What autograd runs for F.gelu(a, approximate="tanh") * b.
        return (torch.ops.aten.gelu_backward(dc * b0, a0, approximate="tanh"),
                dc * F.gelu(a0, approximate="tanh"))
    fns = {"tilec": k.bind(dc, a, b, N, grid=(M,)),
           "triton": lambda: _geglu_tanh_backward_kernel[(M,)](
               dc, a, b, N, n_cols=N, BLOCK_SIZE=block, num_warps=warps),
           "torch": torch_geglu_bwd}
    ad, bd, dcd = a0.double(), b0.double(), dc.double()
    t = torch.tanh(math.sqrt(2 / math.pi) * (ad + 0.044715 * ad ** 3))
    dgelu = 0.5 * (1 + t) + 0.5 * ad * (1 - t * t) * math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * ad * ad)
    ref_da = dcd * bd * dgelu
    ref_db = dcd * 0.5 * ad * (1 + t)

    def check(name):
        a.copy_(a0)
        b.copy_(b0)
        out = fns[name]()
        torch.cuda.synchronize()
        da, db = out if name == "torch" else (a, b)
        return max(rel_error(da, ref_da), rel_error(db, ref_db))
    compare(f"geglu bwd {M}x{N} bf16", fns, 5 * 2 * M * N, check, BF16)


def bench_fused_add_rms_norm(M, N, block, warps):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    r = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    y, s = torch.empty_like(x), torch.empty_like(x)
    rstd = torch.empty(M, device="cuda")  # fp32 in the llama casting mode
    eps, offset = 1e-6, 0.0
    k = tilec_kernel(f"fused_add_rms_norm_{N}", warps, BLOCK_SIZE=block,
                     casting_mode=_CASTING_MODE_LLAMA.value)
    args = (y, N, s, N, x, N, r, N, w, 1, rstd, 1, N, eps, offset)

    def torch_fused_add_rms_norm():
        s_ = x + r
        return F.rms_norm(s_, (N,), w, eps), s_
    fns = {"tilec": k.bind(*args, grid=(M,)),
           "triton": lambda: _fused_add_rms_norm_forward_kernel[(M,)](
               *args, _CASTING_MODE_LLAMA.value, BLOCK_SIZE=block,
               num_warps=warps, num_stages=2),
           "torch": torch_fused_add_rms_norm}
    sd = x.double() + r.double()
    rs = torch.rsqrt(sd.pow(2).mean(-1) + eps)
    ref = sd * rs[:, None] * w.double()

    def check(name):
        for t in (y, s, rstd):
            t.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name == "torch":
            return max(rel_error(out[0], ref), rel_error(out[1], sd))
        return max(rel_error(y, ref), rel_error(s, sd), rel_error(rstd, rs))
    compare(f"fused_add_rms_norm {M}x{N} bf16", fns,
            2 * (4 * M * N + N) + 4 * M, check, BF16)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def bench_rope(bs, sl, n_qh, n_kh, hd):
    # q and k as Liger's rope_forward sees them after its transposes:
    # (batch, seq, heads, head_dim), contiguous; cos and sin as HF's Llama
    # rotary embedding makes them, in the model's dtype.
    q0 = torch.randn(bs, sl, n_qh, hd, device="cuda", dtype=torch.bfloat16)
    k0 = torch.randn(bs, sl, n_kh, hd, device="cuda", dtype=torch.bfloat16)
    inv_freq = 1.0 / 10000 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float64) / hd)
    freqs = torch.outer(torch.arange(sl, device="cuda", dtype=torch.float64), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)[None]
    cos, sin = emb.cos().to(q0.dtype), emb.sin().to(q0.dtype)
    q, k = q0.clone(), k0.clone()
    pad_hd = triton.next_power_of_2(hd)
    pad_n_qh = triton.next_power_of_2(n_qh)
    pad_n_kh = triton.next_power_of_2(n_kh)
    block = max(pad_n_qh, pad_n_kh)
    cos_bs = cos.shape[0]
    kern = tilec_kernel("rope", 4, bs=bs, cos_bs=cos_bs, n_qh=n_qh, n_kh=n_kh,
                        hd=hd, pad_n_qh=pad_n_qh, pad_n_kh=pad_n_kh,
                        pad_hd=pad_hd, BLOCK_SIZE=block, BACKWARD_PASS=False)
    args = (q, q.stride(1), k, k.stride(1), cos, cos.stride(-2), sin, sin.stride(-2), sl)

    def torch_rope():
        # HF's apply_rotary_pos_emb, out of place.
        c, s = cos[:, :, None, :], sin[:, :, None, :]
        return q0 * c + rotate_half(q0) * s, k0 * c + rotate_half(k0) * s
    # In place, as Liger: the timed launches rotate the rotated q and k.
    fns = {"tilec": kern.bind(*args, grid=(bs * sl,)),
           "triton": lambda: _triton_rope[(bs * sl,)](
               *args, bs, cos_bs, n_qh, n_kh, hd, pad_n_qh, pad_n_kh, pad_hd,
               BLOCK_SIZE=block, BACKWARD_PASS=False),
           "torch": torch_rope}
    cd, sd = cos.double()[:, :, None, :], sin.double()[:, :, None, :]
    ref_q = q0.double() * cd + rotate_half(q0.double()) * sd
    ref_k = k0.double() * cd + rotate_half(k0.double()) * sd

    def check(name):
        q.copy_(q0)
        k.copy_(k0)
        out = fns[name]()
        torch.cuda.synchronize()
        oq, ok = out if name == "torch" else (q, k)
        return max(rel_error(oq, ref_q), rel_error(ok, ref_k))
    # q and k read and written; half a row of cos and of sin per token.
    compare(f"rope {bs}x{sl}x{n_qh}/{n_kh}x{hd} bf16", fns,
            2 * (2 * bs * sl * (n_qh + n_kh) * hd + 2 * cos_bs * sl * hd // 2),
            check, BF16)


def bench_dyt(M, N):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    alpha = torch.full((1,), 0.5, device="cuda", dtype=torch.bfloat16)
    gamma = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    beta = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), M)  # Liger's

    def triton_dyt():
        _dyt_fwd_kernel[grid](x, y, alpha, gamma, beta, True, N)
    # Liger autotunes this kernel over 18 configs: tune now (outside the
    # graphs), then run tilec's build of the config Triton picked.
    triton_dyt()
    cfg = _dyt_fwd_kernel.best_config
    bn, nw, ns = cfg.kwargs["BLOCK_N"], cfg.num_warps, cfg.num_stages
    configs = json.load(open(f"{DIR}/dyt_{N}.json"))
    index = next(i for i, m in enumerate(configs)
                 if m["constexprs"]["BLOCK_N"] == bn and m["num_warps"] == nw
                 and m["num_stages"] == ns)
    k = tilec_kernel(f"dyt_{N}", nw, index, HAVE_BETA=True, N=N, BLOCK_N=bn)
    fns = {"tilec": k.bind(x, y, alpha, gamma, beta, grid=(cdiv(N, bn), M)),
           "triton": triton_dyt,
           "torch": lambda: gamma * torch.tanh(alpha * x) + beta}
    ref = torch.tanh(alpha.double() * x.double()) * gamma.double() + beta.double()

    def check(name):
        y.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        return rel_error(out if name == "torch" else y, ref)
    compare(f"dyt fwd {M}x{N} bf16 (BLOCK_N={bn}, {nw} warps)", fns,
            2 * (2 * M * N + 2 * N), check, BF16)


def bench_kl_div(BT, V):
    y_pred = torch.log_softmax(torch.randn(BT, V, device="cuda"), -1)
    y_true = torch.softmax(torch.randn(BT, V, device="cuda"), -1)
    loss = torch.empty(BT, device="cuda")
    # Liger's kldiv_forward_triton: blocks of at most 65536 // 4, its
    # get_num_warps (calculate_settings' warps), batchmean reduction: the
    # kernel sums each row, the host the rows (not timed).
    block = min(65536 // 4, triton.next_power_of_2(V))
    warps = 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4
    eps = 1e-10
    k = tilec_kernel(f"kl_div_{block}", warps, BLOCK_SIZE=block, log_target=False,
                     reduction=_REDUCTION_MODE_BATCHMEAN.value)
    args = (y_pred, V, y_true, V, loss, 1, V, eps)
    fns = {"tilec": k.bind(*args, grid=(BT,)),
           "triton": lambda: _kldiv_kernel_forward[(BT,)](
               *args, BLOCK_SIZE=block, num_warps=warps, log_target=False,
               reduction=_REDUCTION_MODE_BATCHMEAN.value),
           "torch": lambda: F.kl_div(y_pred, y_true, reduction="batchmean")}
    td = y_true.double()
    ref = (td * (torch.log(td.clamp_min(eps)) - y_pred.double())).sum(-1)

    def check(name):
        loss.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        return rel_error(out, ref.sum() / BT) if name == "torch" else rel_error(loss, ref)
    compare(f"kl_div fwd {BT}x{V} fp32", fns, 2 * 4 * BT * V + 4 * BT, check)


def bench_jsd(BT, V, beta=0.5):
    X = torch.log_softmax(torch.randn(BT, V, device="cuda"), -1)
    Y = torch.log_softmax(torch.randn(BT, V, device="cuda"), -1)
    loss = torch.zeros(BT, V, device="cuda")
    dX = torch.empty_like(X)
    # Without labels Liger passes a dummy label pointer, never read; an
    # int64 one here, as the tilec header types it.
    label = torch.empty(1, device="cuda", dtype=torch.int64)
    block = min(65536, triton.next_power_of_2(V))
    # Liger's jsd_forward passes no num_warps: Triton's default 4.
    k = tilec_kernel(f"jsd_{block}", 4, beta=beta, ignore_index=-100,
                     BLOCK_SIZE=block, HAS_LABEL=False)

    def torch_jsd():
        q, p = X.exp(), Y.exp()
        m = beta * p + (1 - beta) * q
        log_m = m.log()
        return ((beta * p * Y + (1 - beta) * q * X - m * log_m).sum() / BT,
                (1 - beta) * q * (X - log_m) / BT)
    fns = {"tilec": k.bind(X, V, Y, V, loss, V, dX, V, label, BT, V, grid=(BT,)),
           "triton": lambda: _jsd_kernel[(BT,)](
               X_ptr=X, X_stride=X.stride(-2), Y_ptr=Y, Y_stride=Y.stride(-2),
               loss_ptr=loss, loss_stride=loss.stride(-2), dX_ptr=dX,
               dX_stride=dX.stride(-2), label_ptr=label, beta=beta,
               n_non_ignore=BT, ignore_index=-100, n_cols=V,
               BLOCK_SIZE=block, HAS_LABEL=False),
           "torch": torch_jsd}
    Xd, Yd = X.double(), Y.double()
    q, p = Xd.exp(), Yd.exp()
    m = beta * p + (1 - beta) * q
    ref_loss = (beta * p * Yd + (1 - beta) * q * Xd - m * m.log()) / BT
    ref_dx = (1 - beta) * q * (Xd - m.log()) / BT
    del Xd, Yd, q, p, m

    def check(name):
        loss.fill_(float("nan"))
        dX.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name == "torch":
            return max(rel_error(out[0], ref_loss.sum()), rel_error(out[1], ref_dx))
        return max(rel_error(loss, ref_loss), rel_error(dX, ref_dx))
    compare(f"jsd {BT}x{V} fp32 (beta={beta})", fns, 4 * 4 * BT * V, check)


def bench_group_norm(B, C, G, HW):
    x = torch.randn(B, C, HW, device="cuda")
    w = torch.randn(C, device="cuda")
    b = torch.randn(C, device="cuda")
    eps = 1e-6
    cpg = C // G
    X = x.view(B, G, -1)
    hidden = X.shape[-1]
    block = min(65536, triton.next_power_of_2(hidden))
    y = torch.empty_like(X)
    mean = torch.empty(B, G, device="cuda")
    rstd = torch.empty(B, G, device="cuda")
    # Liger's group_norm_forward passes no num_warps: Triton's default 4.
    k = tilec_kernel(f"group_norm_{block}", 4, BLOCK_SIZE=block)
    args = (y, y.stride(0), y.stride(1), X, X.stride(0), X.stride(1),
            mean, mean.stride(0), mean.stride(1), rstd, rstd.stride(0),
            rstd.stride(1), w, b, hidden, cpg, eps)
    fns = {"tilec": k.bind(*args, grid=(B, G)),
           "triton": lambda: _group_norm_forward_kernel[(B, G)](
               *args, BLOCK_SIZE=block),
           "torch": lambda: F.group_norm(x, G, w, b, eps)}
    xd = X.double()
    mu = xd.mean(-1)
    rs = torch.rsqrt(xd.var(-1, unbiased=False) + eps)
    ref = ((xd - mu[..., None]) * rs[..., None]).view(B, C, HW) * w.double()[:, None] + b.double()[:, None]

    def check(name):
        for t in (y, mean, rstd):
            t.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name == "torch":
            return rel_error(out, ref)
        return max(rel_error(y.view(B, C, HW), ref), rel_error(mean, mu),
                   rel_error(rstd, rs))
    compare(f"group_norm fwd {B}x{C}x{HW} G={G} fp32", fns,
            4 * (2 * B * C * HW + 2 * C + 2 * B * G), check)


bench_layer_norm(4096, 4096, 4096, 8)
bench_layer_norm(4096, 8192, 8192, 16)
bench_layer_norm_bwd(4096, 4096, 4096, 8)
bench_layer_norm_bwd(4096, 8192, 8192, 16)
bench_geglu(4096, 11008, 16384, 16)
bench_geglu_bwd(4096, 11008, 16384, 16)
bench_fused_add_rms_norm(4096, 4096, 4096, 8)
bench_fused_add_rms_norm(4096, 8192, 8192, 16)
bench_rope(1, 4096, 32, 8, 128)
bench_dyt(4096, 4096)
bench_dyt(4096, 8192)
bench_kl_div(2048, 32000)
bench_kl_div(2048, 128256)
bench_jsd(2048, 32000)
bench_group_norm(32, 256, 32, 1024)

log("\nsummary: TB/s, and tilec's speed over the others' (>1: tilec faster)")
log(f"{'case':52s} {'tilec ms':>8s} {'tilec':>6s} {'triton':>6s} {'torch':>6s}"
    f" {'vs triton':>9s} {'vs torch':>8s}")
for label, ms, tbs, speed in summary:
    log(f"{label:52s} {ms:8.4f} {tbs['tilec']:6.2f} {tbs['triton']:6.2f} "
        f"{tbs['torch']:6.2f} {speed['triton']:8.2f}x {speed['torch']:7.2f}x")
if summary:
    log(f"{'geometric mean':52s} {'':8s} {'':6s} {'':6s} {'':6s} "
        f"{statistics.geometric_mean(s['triton'] for *_, s in summary):8.2f}x "
        f"{statistics.geometric_mean(s['torch'] for *_, s in summary):7.2f}x")
log(f"\n{'all correct' if not failures else 'FAILED: ' + ', '.join(failures)}")
sys.exit(1 if failures else 0)
