"""One launch each of tilec's attention forward (examples/attention_fwd.tile
as written, from bench/build_kernels.sh) and of torch's SDPA, for Nsight
Compute (bench/profile_attention_fwd.sh): fp16, Z=4, H=32.

usage: python3 bench/profile_attention_fwd.py DIR [--d 128] [--n 4096]
                                              [--config 1] [--causal]
"""
import argparse

import torch

from tilelaunch import Kernel

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--d", type=int, default=128)
parser.add_argument("--n", type=int, default=4096)
parser.add_argument("--config", type=int, default=1)
parser.add_argument("--causal", action="store_true")
args = parser.parse_args()
Z, H, N, D = 4, 32, args.n, args.d
q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
           for _ in range(3))
o = torch.empty_like(q)
m = torch.empty((Z * H, N), device="cuda")
stage = 3 if args.causal else 1
kern = Kernel(args.dir, f"attention_d{D}_s{stage}", args.config)
launch = kern.bind(q, k, v, D ** -0.5, m, o, *q.stride(), *k.stride(),
                   *v.stride(), *o.stride(), Z, H, N)
for _ in range(2):
    launch()
    torch.nn.functional.scaled_dot_product_attention(q, k, v,
                                                     is_causal=args.causal)
torch.cuda.synchronize()
