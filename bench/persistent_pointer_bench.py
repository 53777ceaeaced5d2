"""Tutorial 09's (Triton 3.6) persistent pointer matmul,
examples/matmul_persistent.tile, against Triton compiling the same source
at the same config, and cuBLAS. DIR holds bench/build_matmul_variant.sh's
build of it (MATMUL_SRC=examples/matmul_persistent.tile: every config with
the JIT's div16 facts). Every kernel checked against float64 first, then
medians of interleaved rounds (CUDA graphs); ratios are medians of the
per-round ratios.

usage: python3 bench/persistent_pointer_bench.py DIR [--sizes ...]
       [--configs 0,1] [--baseline DIR2]
"""
import argparse

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, check_and_time, logger
from triton_matmul import matmul_args, seeded_problem

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--sizes", default="4096x4096x4096,8192x8192x8192,"
                    "2048x3072x768")
parser.add_argument("--configs", default="0,1")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--baseline", default="")
parser.add_argument("--log")
args = parser.parse_args()
log = logger(args.log)
NUM_SMS = torch.cuda.get_device_properties("cuda").multi_processor_count


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_kernel_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am,
                             stride_ak, stride_bk, stride_bn, stride_cm,
                             stride_cn, BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr,
                             NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        start_m = pid_m * BLOCK_SIZE_M
        start_n = pid_n * BLOCK_SIZE_N
        offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
        offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M),
                                    BLOCK_SIZE_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N),
                                    BLOCK_SIZE_N)
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am +
                              offs_k[None, :] * stride_ak)
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk +
                              offs_bn[None, :] * stride_bn)
            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] <
                        K - ki * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] <
                        K - ki * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = (c_ptr + stride_cm * offs_cm[:, None] +
                  stride_cn * offs_cn[None, :])
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, accumulator.to(tl.float16), mask=c_mask)


def triton_at(md):
    """Triton's launcher of the same source at tilec's config `md`."""
    c = md["constexprs"]
    tile = {k: c[k] for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K",
                              "GROUP_SIZE_M")}

    def launch(a, b, out):
        M, N = a.shape[0], b.shape[1]
        tiles = (triton.cdiv(M, tile["BLOCK_SIZE_M"]) *
                 triton.cdiv(N, tile["BLOCK_SIZE_N"]))
        matmul_kernel_persistent[(min(NUM_SMS, tiles),)](
            *matmul_args(a, b, out), **tile, NUM_SMS=NUM_SMS,
            num_warps=md["num_warps"], num_stages=md["num_stages"])
    return launch


for size in args.sizes.split(","):
    M, N, K, a, b, ref = seeded_problem(size)
    for index in (int(i) for i in args.configs.split(",")):
        ours = Kernel(args.dir, "matmul_div16", index)
        md = ours.md
        label = (f"{size} {md['constexprs']['BLOCK_SIZE_M']}x"
                 f"{md['constexprs']['BLOCK_SIZE_N']}x"
                 f"{md['constexprs']['BLOCK_SIZE_K']} w{md['num_warps']} "
                 f"s{md['num_stages']}")
        outs = [torch.empty(M, N, device="cuda", dtype=torch.float16)
                for _ in range(4)]
        tri = triton_at(md)
        contenders = {
            "tilec": (ours.bind(*matmul_args(a, b, outs[0])), outs[0]),
            "Triton": (lambda: tri(a, b, outs[1]), outs[1]),
            "cuBLAS": (lambda: torch.matmul(a, b, out=outs[2]), outs[2])}
        if args.baseline:
            old = Kernel(args.baseline, "matmul_div16", index)
            contenders["baseline"] = (old.bind(*matmul_args(a, b, outs[3])),
                                      outs[3])
        check_and_time(log, label, contenders, ref, args.rounds,
                       2 * M * N * K)
