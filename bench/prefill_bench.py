"""SGLang's prefill attention (`_fwd_kernel`, body as published, ported in
bench/kernels/probe_serving.tile) on the H100: tilec (bench/build_prefill.sh:
the JIT's facts, and as written), the same source under Triton 3.6, and
torch's scaled_dot_product_attention on the same tensors. Every contender is
checked against float64 first (two heads of the first and last sequence);
then medians of interleaved rounds, each a CUDA graph of 20 launches.

usage: python3 bench/prefill_bench.py DIR [LOG] [--baseline OLD_DIR]
                                      [--n 1024,4096] [--rounds 5]
With --baseline, the kernels of another build run in the same rounds and
each gets a ratio new/old (the median of the per-round ratios).
"""
import argparse
import math
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
parser.add_argument("--n", default="1024,4096")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--sanitize", action="store_true",
                    help="tilec's kernels alone, checked once, not timed "
                    "(for compute-sanitizer: SDPA's cuDNN kernel trips it)")
args = parser.parse_args()
log = logger(args.log)
HERE = os.path.dirname(os.path.abspath(__file__))


fwd = triton_from_tile(os.path.join(HERE, "kernels/probe_serving.tile"),
                       "kernel _fwd_kernel(")._fwd_kernel
B, H = 4, 32
log(f"SGLang prefill attention, fp16, {B} sequences x {H} heads, BLOCK 128, "
    f"one stage; TFLOP/s (causal counts half)")
for N in map(int, args.n.split(",")):
    for D in (64, 128):
        warps = 4 if D <= 64 else 8
        for causal in (True, False):
            name = f"prefill_d{D}_{'causal' if causal else 'full'}"
            total = B * N
            q, k, v = (torch.randn(total, H, D, device="cuda",
                                   dtype=torch.float16) for _ in range(3))
            o = torch.empty_like(q)
            lens = torch.full((B,), N, device="cuda", dtype=torch.int32)
            starts = torch.arange(B, device="cuda", dtype=torch.int32) * N
            scale = 1.0 / math.sqrt(D)
            grid = (B, H, triton.cdiv(N, 128))
            kargs = (q, k, v, scale, starts, lens, o, H * D, D, H * D, D,
                     H * D, D, H * D, D)
            contenders = tilec_builds(args.dir, args.baseline, name, kargs,
                                      grid)

            def run_triton():
                fwd[grid](*kargs, kv_group_num=1, BLOCK_M=128,
                          BLOCK_DMODEL=D, BLOCK_N=128, IS_CAUSAL=causal,
                          Lk=D, num_warps=warps, num_stages=1)
            qt, kt, vt = (x.view(B, N, H, D).transpose(1, 2) for x in (q, k, v))
            if not args.sanitize:
                contenders["triton"] = run_triton
                contenders["sdpa"] = lambda: torch.nn.functional.scaled_dot_product_attention(
                    qt, kt, vt, is_causal=causal, scale=scale)
            picks = [(0, 0), (0, H - 1), (B - 1, 5)]
            refs = []
            for b, h in picks:
                s = slice(b * N, (b + 1) * N)
                ref = torch.nn.functional.scaled_dot_product_attention(
                    q[s, h].double()[None], k[s, h].double()[None],
                    v[s, h].double()[None], is_causal=causal, scale=scale)[0]
                refs.append(ref)
            ok = True
            for label, fn in contenders.items():
                o.fill_(float("nan"))
                out = fn()
                torch.cuda.synchronize()
                if label == "sdpa":
                    got = [out[b, h] for b, h in picks]
                else:
                    got = [o[b * N:(b + 1) * N, h] for b, h in picks]
                err = max(rel_error(g, r) for g, r in zip(got, refs))
                if not err < 2e-3:
                    log(f"  N={N} D={D} causal={causal} {label}: "
                        f"WRONG, rel error {err}")
                    ok = False
            if not ok or args.sanitize:
                log(f"N={N} D={D} causal={causal}: "
                    f"{'checked' if ok else 'WRONG'}")
                continue
            times = interleaved_times(contenders, args.rounds)
            flops = 4 * B * H * N * N * D * (0.5 if causal else 1.0)
            rate = {label: flops / statistics.median(t) / 1e9
                    for label, t in times.items()}
            parts = [f"{label} {rate[label]:.0f}" for label in contenders]
            log(f"N={N} D={D} {'causal' if causal else 'full'}: "
                + ", ".join(parts))
            log_tilec_ratios(log, times, {"sdpa": "SDPA", "triton": "Triton"},
                             args.baseline)
sys.exit(0)
