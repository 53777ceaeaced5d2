"""How attention's time grows with the sequence length, against SDPA
(diagnostic for bench/NOTES.md): one config of examples/attention_fwd.tile
as written (bench/build_kernels.sh), fp16, Z*H = 128 heads, head dim D, at
several N; each length checked against float64 first, then medians of
interleaved rounds. A fit t = a + b*N per program over the lengths gives
the fixed cost of a program beside the cost of a key.

usage: python3 bench/attention_length_probe.py DIR [--d 128] [--config 1]
                                               [--ns 512,1024,2048,4096,8192]
"""
import argparse
import statistics

import torch

from tilelaunch import Kernel, bind_attention, median_ms, rel_error

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--d", type=int, default=128)
parser.add_argument("--config", type=int, default=1)
parser.add_argument("--block-m", type=int, default=128)
parser.add_argument("--ns", default="512,1024,2048,4096,8192")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--causal", action="store_true")
args = parser.parse_args()
Z, H, D = 4, 32, args.d
stage = 3 if args.causal else 1
kern = Kernel(args.dir, f"attention_d{D}_s{stage}", args.config)
rows = []
for N in map(int, args.ns.split(",")):
    q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
               for _ in range(3))
    scale = D ** -0.5
    ref = torch.nn.functional.scaled_dot_product_attention(
        q[:1, :2].double(), k[:1, :2].double(), v[:1, :2].double(),
        is_causal=args.causal, scale=scale)
    run, _, _ = bind_attention(kern, q, k, v, scale, ref)
    sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=args.causal, scale=scale)
    err = rel_error(sdpa()[:1, :2], ref)
    assert err < 5e-3, ("sdpa", N, err)
    t_tile, t_sdpa = [], []
    for _ in range(args.rounds):
        t_tile.append(median_ms(run, reps=10, warmup=2))
        t_sdpa.append(median_ms(sdpa, reps=10, warmup=2))
    flops = 4 * Z * H * N * N * D * (0.5 if args.causal else 1)
    a, b = statistics.median(t_tile), statistics.median(t_sdpa)
    ratio = statistics.median(s / t for t, s in zip(t_tile, t_sdpa))
    programs = Z * H * (N // args.block_m)
    print(f"N={N:6d} tilec {a * 1e3:9.1f} us {flops / a / 1e9:5.0f} TFLOP/s | "
          f"SDPA {b * 1e3:9.1f} us {flops / b / 1e9:5.0f} TFLOP/s | "
          f"tilec/SDPA {ratio:5.3f}x | {programs} programs, "
          f"{programs / 132:5.2f} per SM", flush=True)
    rows.append((N, a, b, programs))
# Per SM, programs run one after another: time per program-slot = t * 132 /
# programs; fit against N.
for name, col in (("tilec", 1), ("SDPA", 2)):
    xs = [r[0] for r in rows]
    ys = [r[col] * 1e3 * 132 / r[3] for r in rows]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum(
        (x - mx) ** 2 for x in xs)
    print(f"{name}: per program (132 SMs in step) {my - slope * mx:6.2f} us "
          f"+ {slope * 1e3:6.3f} us per 1000 keys")
