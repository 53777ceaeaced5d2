"""Per-config times of the attention kernels (diagnostic for bench/NOTES.md):
each @autotune config of examples/attention_fwd.tile, as written (guarded
fast path beside the general one) and with the JIT's facts, medians of
interleaved rounds, after a float64 check of each.

usage: python3 bench/attention_configs.py DIR [--d 64,128] [--n 4096]
"""
import argparse
import statistics

import torch

from tilelaunch import Kernel, median_ms, rel_error

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--d", default="64,128")
parser.add_argument("--n", type=int, default=4096)
parser.add_argument("--rounds", type=int, default=5)
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
        for suffix in ["", "_jit"]:
            name = f"attention_d{D}_s{stage}{suffix}"
            for i in range(3):
                kern = Kernel(args.dir, name, i)
                o = torch.full_like(q, float("nan"))
                m = torch.empty((Z * H, N), device="cuda")
                run = kern.bind(q, k, v, scale, m, o, *q.stride(), *k.stride(),
                                *v.stride(), *o.stride(), Z, H, N)
                run()
                torch.cuda.synchronize()
                err = rel_error(o[:1, :2], ref)
                assert err < 5e-3, (name, i, err)
                runs[f"{name}[{i}]"] = run
        times = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, run in runs.items():
                times[key].append(median_ms(run, reps=10, warmup=2))
        flops = 4 * Z * H * N * N * D * (0.5 if stage == 3 else 1)
        for key, t in times.items():
            ms = statistics.median(t)
            print(f"{key:28s} {ms:8.3f} ms {flops / ms / 1e9:6.0f} TFLOP/s")
