#!/usr/bin/env bash
# On the device machine: Nsight Compute metrics (ncu_metrics.sh plus DRAM
# and L2 bytes) of one config from each of two bench/build_matmul.sh
# builds at one size, e.g. tutorial 09's persistent pointer kernel beside
# tutorial 03's one tile per program (bench/NOTES.md, stop 44).
# usage: bash bench/profile_matmul_pair.sh DIR1 CONFIG1 DIR2 CONFIG2 [SIZE]
set -uo pipefail
cd "$(dirname "$0")"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
source ./ncu_metrics.sh
METRICS="$METRICS,dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
"$NCU" --metrics "$METRICS" --kernel-name regex:matmul --launch-skip 1 --launch-count 3 \
  python3 - "$(realpath "../$1")" "$2" "$(realpath "../$3")" "$4" "${5:-8192}" <<'PY'
import sys
import torch
from tilelaunch import Kernel
dir1, cfg1, dir2, cfg2, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
c = torch.empty(n, n, device="cuda", dtype=torch.float16)
for d, cfg in ((dir1, cfg1), (dir2, cfg2)):
    k = Kernel(d, "matmul_div16", cfg)
    print(d, "config", k.md["constexprs"], "warps", k.md["num_warps"])
    for _ in range(2):
        k(a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0),
          b.stride(1), c.stride(0), c.stride(1))
torch.cuda.synchronize()
PY
