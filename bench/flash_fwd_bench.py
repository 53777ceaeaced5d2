"""FlashAttention's Triton forward (_fwd_kernel, body and @triton.heuristics
as published, bench/kernels/probe_generality.tile) on the H100: tilec
(bench/build_flash_fwd.sh: the JIT's facts, and as written) against the same
source under Triton 3.6 at the launcher's settings (128 x 128 blocks, 4
warps, 1 stage, head dim 64), and torch's scaled_dot_product_attention.
Checked against float64 first (a few heads); then medians of interleaved
rounds, each a CUDA graph of 20 launches.

usage: python3 bench/flash_fwd_bench.py DIR [LOG] [--seq 4096] [--rounds 5]
                                        [--baseline OLD_DIR]
With --baseline, the same two builds from another compiler build run in the
same rounds (a compiler change's effect).
"""
import argparse
import math
import os

import torch
import triton

from tilelaunch import (interleaved_times, log_tilec_ratios, logger,
                        rel_error, tilec_builds, triton_from_tile)

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--seq", type=int, default=4096)
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--baseline", default="")
args = parser.parse_args()
log = logger(args.log)
HERE = os.path.dirname(os.path.abspath(__file__))
fa = triton_from_tile(os.path.join(HERE, "kernels/probe_generality.tile"),
                      "@triton.heuristics(\n    {\n        \"EVEN_M\"")

torch.manual_seed(0)
B, H, S, D, BLOCK = 4, 16, args.seq, 64, 128
q, k, v = (torch.randn(B, S, H, D, device="cuda", dtype=torch.float16)
           for _ in range(3))
scale = 1.0 / math.sqrt(D)
s_round = triton.cdiv(S, BLOCK) * BLOCK
lse = torch.empty(B, H, s_round, device="cuda")
tmp = torch.empty(B, H, s_round, device="cuda")
bias = torch.zeros(1, device="cuda", dtype=torch.float16)
grid = (triton.cdiv(S, BLOCK), B * H)
flops_full = 4 * B * H * S * S * D


def bhm(x):
    """A (batch, seq, head, dim) tensor's strides in the kernel's order:
    batch, head, row."""
    return x.stride(0), x.stride(2), x.stride(1)

log(f"FlashAttention _fwd_kernel B={B} H={H} S={S} D={D} (TFLOP/s; ratios: "
    f"medians of {args.rounds} interleaved rounds)")
for causal in (False, True):
    out = torch.empty_like(q)
    kargs = [q, k, v, bias, out, lse, tmp, scale, *bhm(q), *bhm(k), *bhm(v),
             0, 0, 0, *bhm(out), H, S, S, s_round, D, S // 32, S // 32]
    contenders = tilec_builds(args.dir, args.baseline, f"flash_fwd_causal{causal}",
                              kargs, grid)
    out_t = torch.empty_like(q)

    def triton_fa(out_t=out_t, causal=causal):
        fa._fwd_kernel[grid](
            q, k, v, bias, out_t, lse, tmp, scale, *bhm(q), *bhm(k), *bhm(v),
            0, 0, 0, *bhm(out_t), H, S, S, s_round, D, S // 32, S // 32,
            BIAS_TYPE="none", IS_CAUSAL=causal, BLOCK_HEADDIM=D,
            BLOCK_M=BLOCK, BLOCK_N=BLOCK, num_warps=4, num_stages=1)
    contenders["Triton"] = triton_fa
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
    contenders["SDPA"] = lambda: torch.nn.functional.scaled_dot_product_attention(
        qt, kt, vt, is_causal=causal)
    # float64 reference on two heads of the first batch
    qd, kd, vd = (x[0, :, :2].double().transpose(0, 1) for x in (q, k, v))
    sc = qd @ kd.transpose(1, 2) * scale
    if causal:
        sc = sc.masked_fill(torch.ones(S, S, device="cuda").triu(1).bool(),
                            float("-inf"))
    ref = torch.softmax(sc, -1) @ vd
    bad = []
    for label in list(contenders):
        if label == "SDPA":
            continue
        target = out_t if label == "Triton" else out
        target.fill_(float("nan"))
        contenders[label]()
        torch.cuda.synchronize()
        err = rel_error(target[0, :, :2].transpose(0, 1), ref)
        if not err < 4e-3:
            bad.append(f"{label} {err:.2e}")
    if bad:
        log(f"  causal={causal}: WRONG ({', '.join(bad)}); not timed")
        continue
    times = interleaved_times(contenders, args.rounds)
    flops = flops_full / (2 if causal else 1)
    rates = ", ".join(
        f"{label} {flops / (sorted(t)[len(t) // 2] * 1e-3) / 1e12:.0f}"
        for label, t in times.items())
    log(f"  causal={causal}: {rates}")
    log_tilec_ratios(log, times, {"Triton": "Triton", "SDPA": "SDPA"},
                     args.baseline)
