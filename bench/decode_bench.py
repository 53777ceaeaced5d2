"""SGLang's decode attention, first stage (`_fwd_kernel_stage1`, body as
published, ported in bench/kernels/probe_serving.tile) on the H100: tilec
(bench/build_decode.sh: the JIT's facts, and as written) against the same
source under Triton 3.6. fp16, MHA with head dim 128, B sequences of N
cached tokens each behind a shuffled page table, 8 KV splits. Each
contender's split outputs are combined and checked against float64
attention for a few heads first; then medians of interleaved rounds, each a
CUDA graph of 20 launches. Rates are the K and V bytes read per second.

usage: python3 bench/decode_bench.py DIR [LOG] [--baseline OLD_DIR]
                                     [--n 1024,4096] [--rounds 5]
"""
import argparse
import os
import statistics
import sys

import torch

from tilelaunch import (interleaved_times, log_tilec_ratios, logger, rel_error,
                        tilec_builds, triton_from_tile)

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--baseline", default="")
parser.add_argument("--n", default="1024,4096")
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
log = logger(args.log)
HERE = os.path.dirname(os.path.abspath(__file__))
stage1 = triton_from_tile(os.path.join(HERE, "kernels/probe_serving.tile"),
                          "@triton.jit\ndef tanh(")
B, H, D, SPLITS = 32, 32, 128, 8
scale = D ** -0.5
log(f"SGLang decode stage 1, fp16, {B} sequences x {H} heads, head dim {D}, "
    f"{SPLITS} KV splits; GB/s of K and V read")
for N in map(int, args.n.split(",")):
    total = B * N
    q = torch.randn(B, H, D, device="cuda", dtype=torch.float16)
    kbuf = torch.randn(total, H, D, device="cuda", dtype=torch.float16)
    vbuf = torch.randn(total, H, D, device="cuda", dtype=torch.float16)
    indptr = torch.arange(B + 1, device="cuda", dtype=torch.int32) * N
    indices = torch.randperm(total, device="cuda").to(torch.int32)
    splits = torch.full((B,), SPLITS, device="cuda", dtype=torch.int32)
    att = torch.empty(B, H, SPLITS, D, device="cuda", dtype=torch.float32)
    lse = torch.empty(B, H, SPLITS, device="cuda", dtype=torch.float32)
    kargs = (q, kbuf, vbuf, scale, indptr, indices, att, lse, splits,
             H * D, D, H * D, D, H * D, D, H * SPLITS * D, SPLITS * D, D)
    grid = (B, H, SPLITS)
    contenders = tilec_builds(args.dir, args.baseline, "decode", kargs, grid)

    def run_triton():
        stage1._fwd_kernel_stage1[grid](
            *kargs, kv_group_num=1, BLOCK_DMODEL=D, BLOCK_DV=D, BLOCK_N=64,
            MIN_BLOCK_KV=32, logit_cap=0.0, Lk=D, Lv=D,
            xai_temperature_len=-1, num_warps=4, num_stages=2)
    contenders["triton"] = run_triton
    picks = [(0, 0), (B - 1, H - 1), (7, 5)]
    refs = []
    for b, h in picks:
        idx = indices[b * N:(b + 1) * N].long()
        kk, vv = kbuf[idx, h].double(), vbuf[idx, h].double()
        p = torch.softmax(kk @ q[b, h].double() * scale, 0)
        refs.append(p @ vv)
    ok = True
    for label, fn in contenders.items():
        att.fill_(float("nan"))
        lse.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        err = 0.0
        for (b, h), ref in zip(picks, refs):
            w = torch.softmax(lse[b, h].double(), 0)
            out = (w[:, None] * att[b, h].double()).sum(0)
            err = max(err, rel_error(out, ref))
        # The kernel multiplies q and k in fp16 (q[None, :] * k), as published.
        if not err < 4e-3:
            log(f"  N={N} {label}: WRONG, rel error {err}")
            ok = False
    if not ok:
        continue
    times = interleaved_times(contenders, args.rounds)
    nbytes = 2 * total * H * D * 2
    rate = {label: nbytes / statistics.median(t) / 1e6
            for label, t in times.items()}
    log(f"N={N}: " + ", ".join(f"{label} {rate[label]:.0f}"
                               for label in contenders))
    log_tilec_ratios(log, times, {"triton": "Triton"}, args.baseline)
sys.exit(0)
