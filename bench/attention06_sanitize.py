"""Every kernel of a bench/build_attention06.sh build, launched once at small
shapes and checked against float64, for compute-sanitizer (memcheck,
racecheck, synccheck): the launches are few and small so that the tools
finish in minutes. Exits non-zero on a wrong result.

usage: compute-sanitizer --tool TOOL python3 bench/attention06_sanitize.py DIR
           [PATTERN]   (a glob of the builds' names, e.g. 'attn_d*_s1_*_w8')
"""
import glob
import json
import os
import sys

import torch

from tilelaunch import Kernel, rel_error

DIR = sys.argv[1]
PATTERN = sys.argv[2] if len(sys.argv) > 2 else "attn_d*_s*"
Z, H = 1, 2
bad = 0
for path in sorted(glob.glob(f"{DIR}/{PATTERN}.json")):
    name = os.path.basename(path)[:-5]
    md = json.load(open(path))
    for index in range(len(md)) if isinstance(md, list) else [None]:
        kernel = Kernel(DIR, name, index)
        D = kernel.md["constexprs"]["HEAD_DIM"]
        causal = kernel.md["constexprs"]["STAGE"] == 3
        for N in (256, 384):
            torch.manual_seed(N + D)
            q, k, v = (torch.randn(Z, H, N, D, device="cuda",
                                   dtype=torch.float16) * 0.5 for _ in range(3))
            o = torch.full_like(q, float("nan"))
            m = torch.empty(Z, H, N, device="cuda")
            scale = D ** -0.5
            kernel(scale, m, Z, H, q, k, v, o, N)
            torch.cuda.synchronize()
            qd, kd, vd = (t.double() for t in (q, k, v))
            s = qd @ kd.transpose(-1, -2) * scale
            if causal:
                s = s.masked_fill(torch.ones(N, N, device="cuda").tril() == 0,
                                  float("-inf"))
            err = rel_error(o, torch.softmax(s, -1) @ vd)
            ok = err < 1e-2
            bad += not ok
            print(f"{name}[{index}] N={N}: rel_err={err:.2e}"
                  f"{'' if ok else '  WRONG'}")
print("all launches correct" if not bad else f"{bad} wrong")
sys.exit(1 if bad else 0)
