"""Correctness of layout conversions that go through shared memory in
rounds (a tile larger than the 128 KiB exchange scratch), on the GPU.

bench/kernels/exchange_rounds.tile reads a column-major input (unit stride
along rows) and writes it row-major (unit stride along columns): the
compiled kernel converts the tile between the two layouts. Built here with
    bash bench/build_exchange_rounds.sh
(4 x 32768 fp16 on 32 warps: 2 rounds of 128 KiB; 16 x 16384: 4; 8 x 4096 and 4 x 1024:
one exchange each), then on the GPU:
    python3 bench/exchange_rounds_check.py .carry/rounds [LOG]
Each kernel's output must equal its input exactly (fp16 values pass
through fp32 unchanged), on fresh random data.
"""
import glob
import os
import sys

import torch

from tilelaunch import Kernel, logger

DIR = sys.argv[1]
log = logger(sys.argv[2] if len(sys.argv) > 2 else None)
failed = 0
for path in sorted(glob.glob(f"{DIR}/r_*.json")):
    name = os.path.basename(path)[:-5]
    _, bm, bn = name.split("_")
    bm, bn = int(bm), int(bn)
    kern = Kernel(DIR, name)
    n_rows = 64
    n_cols = bn - 32  # the last columns masked
    torch.manual_seed(bn)
    x = torch.randn(n_cols, n_rows, device="cuda", dtype=torch.float16)
    out = torch.full((n_rows, n_cols), float("nan"), device="cuda",
                     dtype=torch.float16)
    # in[r, c] at r * 1 + c * n_rows; out[r, c] at r * n_cols + c * 1.
    kern.bind(x, out, n_rows, n_cols, 1, n_rows, n_cols, 1,
              grid=(n_rows // bm, 1, 1))()
    torch.cuda.synchronize()
    ok = torch.equal(out, x.t())
    failed += not ok
    log(f"{name}: shared {kern.md['shared_bytes']} bytes, "
        f"{kern.md['num_warps']} warps: {'ok' if ok else 'WRONG'}"
        + ("" if ok else f" ({(out != x.t()).sum().item()} elements differ)"))
log("ALL PASSED" if not failed else f"{failed} FAILED")
sys.exit(1 if failed else 0)
