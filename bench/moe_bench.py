"""vLLM's fused MoE kernel (`fused_moe_kernel`, body as published, ported in
bench/kernels/probe_serving.tile) on the H100: tilec (bench/build_moe.sh:
the JIT's facts, and as written) against the same source under Triton 3.6,
with cuBLAS on a dense matmul of the same FLOPs ([M * top_k, K] x [K, N])
as a reference rate. fp16, E experts with [E, N, K] weights, top-2 routing
with random logits, vLLM's block alignment of the sorted token ids done in
torch. Every contender is checked against float64 first (a sample of
tokens); then medians of interleaved rounds, each a CUDA graph of 20
launches.

usage: python3 bench/moe_bench.py DIR [LOG] [--baseline OLD_DIR]
                                  [--m 256,4096] [--rounds 5]
"""
import argparse
import os
import statistics
import sys

import torch
import triton

from tilelaunch import (interleaved_times, log_tilec_ratios, logger, rel_error,
                        tilec_builds, triton_from_tile)

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--baseline", default="")
parser.add_argument("--m", default="256,4096")
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
log = logger(args.log)
HERE = os.path.dirname(os.path.abspath(__file__))
moe = triton_from_tile(os.path.join(HERE, "kernels/probe_serving.tile"),
                       "@triton.jit\ndef write_zeros_to_output(")
E, TOPK, N, K = 8, 2, 14336, 4096
CONFIGS = [(64, 64, 32, 8, 4, 3), (64, 128, 64, 1, 4, 4)]


def align(topk_ids, block_m):
    """vLLM's moe_align_block_size: token slots sorted by expert, each
    expert's run padded to a multiple of block_m with the sentinel numel."""
    flat = topk_ids.flatten()
    numel = flat.numel()
    counts = torch.bincount(flat, minlength=E)
    padded = (counts + block_m - 1) // block_m * block_m
    max_padded = numel + E * (block_m - 1)
    sorted_ids = torch.full((max_padded,), numel, dtype=torch.int32,
                            device="cuda")
    expert_ids = torch.zeros((max_padded + block_m - 1) // block_m,
                             dtype=torch.int32, device="cuda")
    order = torch.argsort(flat, stable=True).to(torch.int32)
    starts = torch.cumsum(padded, 0) - padded
    firsts = torch.cumsum(counts, 0) - counts
    for e in range(E):
        c, s, f = int(counts[e]), int(starts[e]), int(firsts[e])
        sorted_ids[s:s + c] = order[f:f + c]
        expert_ids[s // block_m:(s + int(padded[e])) // block_m] = e
    total = torch.tensor([int(padded.sum())], dtype=torch.int32, device="cuda")
    return sorted_ids, expert_ids, total


w = torch.randn(E, N, K, device="cuda", dtype=torch.float16) * 0.05
ones = torch.ones(1, device="cuda", dtype=torch.float32)
log(f"vLLM fused MoE, fp16, E={E} top-{TOPK}, weights [E, N={N}, K={K}]; "
    "TFLOP/s counted as 2 * M * top_k * N * K")
for M in map(int, args.m.split(",")):
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    logits = torch.randn(M, E, device="cuda")
    topk_w, topk_ids = torch.topk(torch.softmax(logits, 1), TOPK, 1)
    topk_ids = topk_ids.to(torch.int32)
    sample = torch.arange(0, M, max(1, M // 16), device="cuda")
    ref = torch.einsum("mk,mjnk->mjn", a[sample].double(),
                       w[topk_ids[sample].long()].double())
    ref = ref * topk_w[sample].double()[:, :, None]
    dense_a = torch.randn(M * TOPK, K, device="cuda", dtype=torch.float16)
    dense_b = w[0].t()
    flops = 2.0 * M * TOPK * N * K
    for bm, bn, bk, gm, warps, stages in CONFIGS:
        name = f"moe_{bm}x{bn}x{bk}"
        sorted_ids, expert_ids, total = align(topk_ids, bm)
        EM = sorted_ids.numel()
        c = torch.empty(M, TOPK, N, device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(EM, bm) * triton.cdiv(N, bn),)
        kargs = (a, w, c, ones, ones, topk_w, sorted_ids, expert_ids, total,
                 N, K, EM, M * TOPK, K, 1, N * K, 1, K, N, 1, 0, 0, 0, 0, 0)
        contenders = tilec_builds(args.dir, args.baseline, name, kargs,
                                  grid)

        def run_triton(kargs=kargs, grid=grid, bm=bm, bn=bn, bk=bk, gm=gm,
                       warps=warps, stages=stages):
            moe.fused_moe_kernel[grid](
                *kargs, group_n=0, group_k=0, BLOCK_SIZE_M=bm,
                BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                MUL_ROUTED_WEIGHT=True, top_k=TOPK, compute_type=moe.tl.float16,
                use_fp8_w8a8=False, use_int8_w8a8=False,
                use_int8_w8a16=False, per_channel_quant=False,
                num_warps=warps, num_stages=stages)
        contenders["triton"] = run_triton
        contenders["cublas dense"] = lambda: torch.mm(dense_a, dense_b)
        ok = True
        for label, fn in contenders.items():
            if label == "cublas dense":
                continue
            c.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            err = rel_error(c[sample], ref)
            if not err < 2e-3:
                log(f"  M={M} {name} {label}: WRONG, rel error {err}")
                ok = False
        if not ok:
            continue
        times = interleaved_times(contenders, args.rounds)
        rate = {label: flops / statistics.median(t) / 1e9
                for label, t in times.items()}
        log(f"M={M} {bm}x{bn}x{bk} w{warps} s{stages}: " +
            ", ".join(f"{label} {rate[label]:.0f}" for label in contenders))
        log_tilec_ratios(log, times, {"triton": "Triton",
                                      "cublas dense": "dense cuBLAS"},
                         args.baseline)
sys.exit(0)
