#!/usr/bin/env bash
# On the device machine: per-instruction warp-stall samples (Nsight
# Compute's source page, SASS) of one config of a bench/build_matmul.sh
# build at one size, as CSV, to find the instructions a kernel waits on.
# usage: bash bench/profile_matmul_source.sh DIR CONFIG [SIZE] > out.csv
set -uo pipefail
cd "$(dirname "$0")"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
"$NCU" --section SourceCounters --section WarpStateStats --page source \
  --print-source sass --csv --kernel-name regex:matmul --launch-skip 1 \
  --launch-count 1 python3 - "$(realpath "../$1")" "$2" "${3:-8192}" <<'PY'
import sys
import torch
from tilelaunch import Kernel
d, cfg, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
c = torch.empty(n, n, device="cuda", dtype=torch.float16)
k = Kernel(d, "matmul_div16", cfg)
for _ in range(2):
    k(a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
      c.stride(0), c.stride(1))
torch.cuda.synchronize()
PY
