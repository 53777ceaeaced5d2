"""Triton 3.2's tutorial kernels on the GPU
(bench/kernels/tutorials_triton32.tile, compiled by
bench/build_tutorials_triton32.sh): tutorial 09's flat persistent matmul on
pointers (against cuBLAS and against Triton 3.6 compiling the same source),
on host-made descriptors and on descriptors made in the kernel (against
cuBLAS: torch.matmul(a, b.T)), and tutorial 06's _attn_fwd_tma against
torch's scaled_dot_product_attention. fp16; every kernel checked against float64
first, then the fastest config per case (as Triton's autotuner would pick)
timed against its baseline in interleaved rounds (CUDA graphs); ratios are
medians of the rounds.

usage: python3 bench/tutorials_triton32_bench.py DIR [--rounds 5] [--log F]
       [--check-only --sizes 3072x3072x128 --batch 1,2]  (a run small
       enough for compute-sanitizer, with more tiles than programs: the
       checks, no timing)
"""
import argparse
import glob
import os
import statistics

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from tilelaunch import Kernel, check_output, descriptor_parts, graph_ms, logger

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--sizes", default="4096,8192",
                    help="N (for N^3) or MxNxK, comma-separated")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--batch", default="4,32", help="Z,H of the attention")
parser.add_argument("--check-only", action="store_true")
parser.add_argument("--attention", default="attn_*",
                    help="glob of the attention builds to run ('' for none)")
parser.add_argument("--log")
parser.add_argument("--baseline", default="",
                    help="another build's folder: its pointer kernel in the "
                    "same rounds, as the baseline")
parser.add_argument("--dump-triton", default="",
                    help="a folder for the PTX and cubin Triton compiles "
                    "the pointer kernel to (to read its SASS beside ours)")
args = parser.parse_args()
log = logger(args.log)


def compare(name, ours, baseline, flops):
    """Medians of interleaved rounds of the fastest of `ours` (launchers)
    against `baseline`; logs TFLOP/s and the ratio."""
    if args.check_only:
        return
    best = min(ours, key=lambda k: graph_ms(ours[k], reps=5))
    fns = [ours[best], baseline]
    rounds = [[graph_ms(f, reps=10) for f in fns] for _ in range(args.rounds)]
    med = [statistics.median(r[i] for r in rounds) for i in range(2)]
    ratio = statistics.median(r[1] / r[0] for r in rounds)
    log(f"RESULT {name}: tilec {flops / med[0] / 1e9:6.1f} | baseline "
        f"{flops / med[1] / 1e9:6.1f} TFLOP/s | ratio {ratio:4.2f}x "
        f"(median of {len(rounds)} rounds) [{best}]")


@triton.jit
def matmul_kernel_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                             stride_bk, stride_bn, stride_cm, stride_cn,
                             BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    """Triton 3.2's tutorial 09 pointer kernel, as in the .tile file."""
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tiles_per_SM = num_tiles // NUM_SMS
    if start_pid < num_tiles % NUM_SMS:
        tiles_per_SM += 1
    tile_id = start_pid - NUM_SMS
    ki = -1
    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    pid_m = 0
    pid_n = 0
    offs_am = tl.arange(0, BLOCK_SIZE_M)
    offs_bn = tl.arange(0, BLOCK_SIZE_N)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for _ in range(0, k_tiles * tiles_per_SM):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile_id += NUM_SMS
            group_id = tile_id // num_pid_in_group
            first_pid_m = group_id * GROUP_SIZE_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
            pid_m = first_pid_m + (tile_id % group_size_m)
            pid_n = (tile_id % num_pid_in_group) // group_size_m
            start_m = pid_m * BLOCK_SIZE_M
            start_n = pid_n * BLOCK_SIZE_N
            offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
            offs_am = tl.where(offs_am < M, offs_am, 0)
            offs_bn = tl.where(offs_bn < N, offs_bn, 0)
            offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M)
            offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N)
        offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        if ki == k_tiles - 1:
            offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
            c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
            c = accumulator.to(tl.float16)
            tl.store(c_ptrs, c, mask=c_mask)
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)


def triton_persistent(a, b, c):
    M, K = a.shape
    N = b.shape[1]
    grid = (min(132, triton.cdiv(M, 128) * triton.cdiv(N, 256)),)
    return matmul_kernel_persistent[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                   b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), BLOCK_SIZE_M=128,
                                   BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                                   GROUP_SIZE_M=8, NUM_SMS=132, num_stages=3,
                                   num_warps=8)


# Tutorial 09's persistent matmuls: C = A @ B (pointers, B row-major) and
# C = A @ B.T (descriptors of A and of B given as N x K).
pointers = Kernel(args.dir, "pointers")
host = Kernel(args.dir, "host")
device = Kernel(args.dir, "device")
for size in [s for s in args.sizes.split(",") if s]:
    # N (N^3) or MxNxK.
    M, N, K = ([int(x) for x in size.split("x")] if "x" in size
               else [int(size)] * 3)
    size = size if "x" in size else f"{size}"
    torch.manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16)
    ref = a.double() @ b.double().T
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    workspace = torch.empty(132 * 3 * 128, device="cuda", dtype=torch.uint8)
    bt = b.T.contiguous()  # K x N for the pointer kernel
    ref_p = a.double() @ bt.double()
    c_p = torch.empty_like(c)
    pointer_args = (a, bt, c_p, M, N, K, K, 1, N, 1, N, 1)
    ours_p = pointers.bind(*pointer_args)
    c_t = torch.empty_like(c)
    check_output(log, f"{size} pointers", ours_p, c_p, ref_p, 2e-3)
    check_output(log, f"{size} triton pointers",
                 lambda: triton_persistent(a, bt, c_t), c_t, ref_p, 2e-3)
    if args.dump_triton:
        os.makedirs(args.dump_triton, exist_ok=True)
        compiled = triton_persistent(a, bt, c_t)
        for kind in ("ptx", "cubin"):
            mode = "wb" if kind == "cubin" else "w"
            with open(f"{args.dump_triton}/triton_pointers.{kind}", mode) as f:
                f.write(compiled.asm[kind])
    compare(f"tutorial 09 (3.2) pointers {size} vs cuBLAS",
            {"pointers": ours_p}, lambda: torch.matmul(a, bt, out=c_t),
            2 * M * N * K)
    compare(f"tutorial 09 (3.2) pointers {size} vs Triton, same source",
            {"pointers": ours_p}, lambda: triton_persistent(a, bt, c_t),
            2 * M * N * K)
    if args.baseline:
        old_p = Kernel(args.baseline, "pointers").bind(*pointer_args[:2], c_t,
                                                       *pointer_args[3:])
        check_output(log, f"{size} baseline pointers", old_p, c_t, ref_p, 2e-3)
        compare(f"tutorial 09 (3.2) pointers {size} vs the baseline build",
                {"pointers": ours_p}, old_p, 2 * M * N * K)
    launchers = {
        "host descriptors": host.bind(*descriptor_parts(a),
                                      *descriptor_parts(b),
                                      *descriptor_parts(c), M, N, K),
        "device descriptors": device.bind(workspace, a, b, c, M, N, K)}
    for name, launch in launchers.items():
        check_output(log, f"{size} {name}", launch, c, ref, 2e-3)
    c_b = torch.empty_like(c)
    for name, launch in launchers.items():
        compare(f"tutorial 09 (3.2) {name} {size} vs cuBLAS",
                {name: launch}, lambda: torch.matmul(a, b.T, out=c_b),
                2 * M * N * K)

# Tutorial 06's _attn_fwd_tma: Q, K, V, O as [Z*H*N, D] descriptors.
Z, H = (int(x) for x in args.batch.split(","))
cases = {}
for path in sorted(glob.glob(f"{args.dir}/{args.attention}.ptx")
                   if args.attention else []):
    tag = os.path.basename(path)[:-4]
    n, d, stage = (int(p[1:]) for p in tag.split("_")[1:4])
    cases.setdefault((n, d, stage), []).append(tag)
for (n, d, stage), tags in sorted(cases.items()):
    causal = stage == 3
    torch.manual_seed(n + d + stage)
    q, k, v = (torch.randn(Z, H, n, d, device="cuda", dtype=torch.float16)
               for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty(Z * H, n, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    ref = F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                         is_causal=causal, scale=scale)
    kargs = [scale, lse, Z, H]
    for x in (q, k, v, o):
        kargs += descriptor_parts(x.view(Z * H * n, d))
    ours = {}
    for tag in tags:
        kernel = Kernel(args.dir, tag)
        launch = kernel.bind(*kargs)
        check_output(log, tag, launch, o, ref, 3e-3)
        ours[tag] = launch
    flops = 4 * Z * H * n * n * d * (0.5 if causal else 1.0)
    compare(f"tutorial 06 (3.2) _attn_fwd_tma N={n} D={d} "
            f"{'causal' if causal else 'full'} vs SDPA", ours,
            lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                   scale=scale), flops)
