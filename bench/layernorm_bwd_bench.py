"""Tutorial 05's layer-norm backward (examples/layernorm_bwd.tile: dx with
lock-guarded partial dw/db rows, then their column sums) against torch's
layer-norm backward and against Triton compiling the same source, at the
tutorial's launch settings (bench/build_layernorm_bwd.sh).

Every contender is checked against float64 first (fresh random data,
outputs poisoned with NaN), then timed in 5 interleaved rounds (CUDA
graphs); ratios are medians of per-round ratios. Each launch of the
tutorial's pair zeroes its locks first, as the tutorial allocates them
zeroed per call.

usage: python3 bench/layernorm_bwd_bench.py DIR [LOG]
"""
import sys

import torch
import triton
import triton.language as tl

from tilelaunch import BandwidthComparison, Kernel, logger, rel_error

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
torch.manual_seed(0)
bench = BandwidthComparison(log)


# Triton's tutorial 05 backward, as published (the source the example ports).
@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def case(M, N):
    block = N
    warps = min(max(block // 256, 1), 8)
    group = 256 if N <= 1024 else 128 if N <= 4096 else 96
    x = torch.randn(M, N, device="cuda", dtype=torch.float16)
    dy = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
    b = torch.randn(N, device="cuda", dtype=torch.float16)
    xd = x.double()
    mean = xd.mean(1).float()
    rstd = (1 / (xd.var(1, unbiased=False) + 1e-5).sqrt()).float()
    dx = torch.empty_like(x)
    dw_part = torch.empty(group, N, device="cuda", dtype=torch.float16)
    db_part = torch.empty_like(dw_part)
    locks = torch.zeros(2 * group, device="cuda", dtype=torch.int32)
    dw = torch.empty(N, device="cuda", dtype=torch.float16)
    db = torch.empty_like(dw)
    rows = min(group, M)
    dx_k = Kernel(DIR, f"dx_{N}")
    assert dx_k.md["constexprs"]["BLOCK_SIZE_N"] == block
    assert dx_k.md["constexprs"]["GROUP_SIZE_M"] == group
    assert dx_k.md["num_warps"] == warps
    dwdb_k = Kernel(DIR, "dwdb")
    dx_args = (dx, dy, dw_part, db_part, x, w, mean, rstd, locks, N, N, M)
    dwdb_args = (dw_part, db_part, dw, db, rows, N)
    dx_launch = dx_k.bind(*dx_args)
    dwdb_launch = dwdb_k.bind(*dwdb_args)

    def tilec():
        locks.zero_()
        dx_launch()
        dwdb_launch()

    def triton():
        locks.zero_()
        _layer_norm_bwd_dx_fused[(M,)](*dx_args[:-1], BLOCK_SIZE_N=block,
                                       GROUP_SIZE_M=group, num_warps=warps)
        _layer_norm_bwd_dwdb[(triton_cdiv(N, 128),)](
            *dwdb_args, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128, num_warps=4)

    mean2, rstd2 = mean[:, None], rstd[:, None]

    def torch_bwd():
        return torch.ops.aten.native_layer_norm_backward(
            dy, x, [N], mean2, rstd2, w, b, [True, True, True])

    fns = {"tilec": tilec, "triton": triton, "torch": torch_bwd}
    xhat = (xd - mean.double()[:, None]) * rstd.double()[:, None]
    wdy = w.double() * dy.double()
    c1 = (xhat * wdy).mean(1, keepdim=True)
    c2 = wdy.mean(1, keepdim=True)
    ref = ((wdy - (xhat * c1 + c2)) * rstd.double()[:, None],
           (dy.double() * xhat).sum(0), dy.double().sum(0))

    def check(name):
        for t in (dx, dw, db):
            t.fill_(float("nan"))
        out = fns[name]()
        torch.cuda.synchronize()
        if name != "torch":
            out = (dx, dw, db)
        return max(rel_error(o, r) for o, r in zip(out, ref))
    # dx, dy, x read and dx written once; the partial rows (fp16) written
    # and read back by the column sums.
    nbytes = 2 * (4 * M * N) + 2 * 2 * 2 * rows * N
    bench.compare(f"layernorm bwd fp16 {M}x{N}", fns, nbytes, check, tol=1e-2)


def triton_cdiv(a, b):
    return -(-a // b)


for N in (1024, 4096, 8192):
    case(4096, N)
log("\n" + "\n".join(f"{label}: " + ", ".join(f"tilec/{n} {r:.2f}x"
                                              for n, r in speed.items())
                     for label, _, _, speed in bench.summary))
log(f"correctness failures: {len(bench.failures)} {bench.failures}")
