#!/usr/bin/env bash
# On the device machine (stop 51): tutorial 09's persistent pointer matmul
# with its tiles proven TMA boxes (DIR/pp_new, bench/build_matmul_variant.sh
# with MATMUL_SRC=examples/matmul_persistent.tile) against the build before
# (DIR/pp_base), and tutorial 09's descriptor kernel (DIR/desc_new against
# DIR/desc_old, bench/build_descriptor.sh), each in the same process as its
# baseline and in both orders, after the GPU correctness checks of the
# persistent and descriptor kernels (DIR/correctness).
# usage: OUT=dir bash bench/persistent_pointer_tma_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/persistent_tma}
mkdir -p "$OUT"
ONLY=check_descriptor python3 gpu_correctness.py "$DIR/correctness" \
  "$OUT/correctness.log" > /dev/null 2>&1
grep -c PASS "$OUT/correctness.log"; grep FAIL "$OUT/correctness.log"
SIZES=4096x4096x4096,8192x8192x8192,2048x3072x768,4000x3008x1008
for order in "new base" "base new"; do
  set -- $order
  python3 persistent_pointer_bench.py "$DIR/pp_$1" --baseline "$DIR/pp_$2" \
    --sizes "$SIZES" --configs 0,1 --rounds 5 \
    --log "$OUT/persistent_${1}_vs_${2}.log" > /dev/null 2>&1
done
for order in "new old" "old new"; do
  set -- $order
  python3 descriptor_bench.py "$DIR/desc_$1" "$OUT/descriptor_${1}_vs_${2}.log" \
    --baseline "$DIR/desc_$2" --rounds 5 > /dev/null 2>&1
done
grep -h "RESULT" "$OUT"/persistent_*.log | grep -v "baseline\|Triton \|cuBLAS "
grep -h "RESULT\|baseline" "$OUT"/descriptor_*.log | grep -i "baseline" | head -40
