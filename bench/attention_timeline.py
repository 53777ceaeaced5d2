"""Per-program timeline of attention (bench/kernels/attention_timeline.tile:
examples/attention_fwd.tile with globaltimer reads at a program's start
after its set-up, after its key loop, and at its end, and its SM), to see
where a program's fixed cost goes at short sequences (bench/NOTES.md,
stop 49). fp16, Z=4, H=32, head dim 128, non-causal.

usage: python3 bench/attention_timeline.py DIR [--config 1]
                                           [--ns 1024,4096]
"""
import argparse
import collections
import statistics

import torch

from tilelaunch import Kernel, bind_attention

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--config", type=int, default=1)
parser.add_argument("--ns", default="1024,4096")
parser.add_argument("--name", default="timeline_d128_s1")
parser.add_argument("--entry", action="store_true",
                    help="the PTX also stores the time at the kernel's "
                    "entry and the SM, after the 4 words a program, by "
                    "launch index (a patched copy of the PTX)")
args = parser.parse_args()
Z, H, D = 4, 32, 128


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


for N in map(int, args.ns.split(",")):
    kern = Kernel(args.dir, args.name, args.config)
    q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
               for _ in range(3))
    scale = D ** -0.5
    ref = torch.nn.functional.scaled_dot_product_attention(
        q[:1, :2].double(), k[:1, :2].double(), v[:1, :2].double(),
        scale=scale)
    block_m = kern.md["constexprs"]["BLOCK_M"]
    programs = Z * H * (N // block_m)
    t = torch.zeros((programs * (6 if args.entry else 4),), device="cuda",
                    dtype=torch.int64)
    run, _, err = bind_attention(kern, q, k, v, scale, ref, t)
    # The times of a warm launch.
    for _ in range(4):
        run()
    torch.cuda.synchronize()
    flat = t.cpu().tolist()
    rows = [flat[4 * i:4 * i + 4] for i in range(programs)]
    entries = collections.defaultdict(list)
    if args.entry:
        base = 4 * programs
        for i in range(programs):
            entries[flat[base + 2 * i + 1]].append(flat[base + 2 * i])
    t0 = min(r[0] for r in rows)
    span = (max(r[2] for r in rows) - t0) / 1e3
    loop = [(r[1] - r[0]) / 1e3 for r in rows]
    epi = [(r[2] - r[1]) / 1e3 for r in rows]
    per_sm = collections.defaultdict(list)
    for r in rows:
        per_sm[r[3]].append(r)
    gaps, overlap, firsts, lasts = [], 0, [], []
    preambles, launches = [], []
    for sm, rs in per_sm.items():
        rs.sort()
        es = sorted(entries.get(sm, []))
        if len(es) == len(rs):
            # One program at a time on an SM: the i-th entry is the i-th
            # start's.
            preambles += [(r[0] - e) / 1e3 for e, r in zip(es, rs)]
            launches += [(e - a[2]) / 1e3 for a, e in zip(rs, es[1:])]
        firsts.append((rs[0][0] - t0) / 1e3)
        lasts.append((rs[-1][2] - t0) / 1e3)
        for a, b in zip(rs, rs[1:]):
            g = (b[0] - a[2]) / 1e3
            if g < 0:
                overlap += 1
            gaps.append(g)
    busy = sum(r[2] - r[0] for r in rows) / 1e3
    print(f"N={N} config {args.config} (BLOCK_M {block_m}): {programs} programs "
          f"on {len(per_sm)} SMs, span {span:.1f} us, rel_err {err:.1e}")
    for name, xs in (("start -> after loop", loop), ("after loop -> end", epi),
                     ("end -> next start on the SM", gaps),
                     ("  of which end -> next entry", launches),
                     ("  of which entry -> start", preambles),
                     ("first start on the SM", firsts),
                     ("last end on the SM", lasts)):
        if not xs:
            continue
        print(f"  {name:30s} median {statistics.median(xs):7.2f} us  "
              f"p10 {pct(xs, 0.1):7.2f}  p90 {pct(xs, 0.9):7.2f}  "
              f"max {max(xs):7.2f}")
    print(f"  programs overlapping on an SM: {overlap}; SM busy "
          f"{busy / (span * len(per_sm)) * 100:.1f}% of span x SMs")
