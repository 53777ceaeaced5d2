"""Per-config times of the attention kernels (diagnostic for bench/NOTES.md):
each @autotune config of examples/attention_fwd.tile, as written (guarded
fast path beside the general one) and with the JIT's facts, medians of
interleaved rounds, after a float64 check of each.

usage: python3 bench/attention_configs.py DIR [--d 64,128] [--n 4096]
                                          [--baseline OLD_DIR]
With --baseline, the same kernels of another build (bench/build_kernels.sh
with OUT=OLD_DIR) run in the same rounds, and each config's ratio new/old
is the median of the per-round ratios.
"""
import argparse
import json
import statistics

import torch

from tilelaunch import Kernel, bind_attention, median_ms

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--d", default="64,128")
parser.add_argument("--n", type=int, default=4096)
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--baseline", default="")
args = parser.parse_args()
Z, H, N = 4, 32, args.n
for D in map(int, args.d.split(",")):
    for stage in [1, 3]:
        q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
                   for _ in range(3))
        scale = D ** -0.5
        ref = torch.nn.functional.scaled_dot_product_attention(
            q[:1, :2].double(), k[:1, :2].double(), v[:1, :2].double(),
            is_causal=stage == 3, scale=scale)
        runs = {}
        builds = [("", args.dir)] + ([("old:", args.baseline)]
                                     if args.baseline else [])
        configs = len(json.load(open(f"{args.dir}/attention_d{D}_s{stage}.json")))
        for (tag, folder), suffix, i in ((b, s, i) for b in builds
                                         for s in ["", "_jit"]
                                         for i in range(configs)):
            name = f"attention_d{D}_s{stage}{suffix}"
            run, _, _ = bind_attention(Kernel(folder, name, i), q, k, v,
                                       scale, ref)
            runs[f"{tag}{name}[{i}]"] = run
        times = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, run in runs.items():
                times[key].append(median_ms(run, reps=10, warmup=2))
        flops = 4 * Z * H * N * N * D * (0.5 if stage == 3 else 1)
        for key, t in times.items():
            ms = statistics.median(t)
            line = f"{key:32s} {ms:8.3f} ms {flops / ms / 1e9:6.0f} TFLOP/s"
            if args.baseline and not key.startswith("old:"):
                ratio = statistics.median(
                    old / new for new, old in zip(t, times["old:" + key]))
                line += f"  {ratio:5.3f}x the baseline"
            print(line)
