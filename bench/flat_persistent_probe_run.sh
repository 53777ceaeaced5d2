#!/usr/bin/env bash
# On the device machine: tutorial 09's flat persistent pointer matmul
# (Triton 3.2's, bench/kernels/tutorials_triton32.tile) against Triton
# compiling the same source at 4096^3: the timed comparison, Triton's PTX
# and cubin (to read its K loop beside ours), and Nsight Compute's metrics
# of both (bench/NOTES.md, stop 50). DIR holds
# bench/build_tutorials_triton32.sh's outputs (ATTN_N=" " builds the
# matmuls only).
# usage: OUT=dir bash bench/flat_persistent_probe_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/flat_probe}
mkdir -p "$OUT"
python3 tutorials_triton32_bench.py "$DIR" --sizes 4096 --attention '' \
  --dump-triton "$OUT" --log "$OUT/bench.log" > /dev/null
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
source ./ncu_metrics.sh
"$NCU" --metrics "$METRICS,smsp__inst_executed.sum,launch__registers_per_thread,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum" \
  --kernel-name regex:'^matmul_kernel_persistent$' \
  python3 tutorials_triton32_bench.py "$DIR" --sizes 4096 --attention '' \
  --check-only > "$OUT/ncu.log" 2>&1
tail -n 80 "$OUT/ncu.log"
cat "$OUT/bench.log"
