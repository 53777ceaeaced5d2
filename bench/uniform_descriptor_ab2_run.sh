#!/usr/bin/env bash
# On the device machine (stop 50): wgmma descriptors from a warp-uniform
# warp id (DIR/new_*) against the build before (DIR/old_*), each in the
# same process as its baseline and in both orders: Triton 3.2's flat
# persistent pointer matmul (bench/build_tutorials_triton32.sh, ATTN_N=" ")
# and tutorial 09's (3.6) persistent pointer kernel
# (bench/build_matmul_variant.sh, MATMUL_SRC=examples/matmul_persistent.tile).
# usage: OUT=dir bash bench/uniform_descriptor_ab2_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/uniform_ab2}
mkdir -p "$OUT"
for order in "new old" "old new"; do
  set -- $order
  python3 tutorials_triton32_bench.py "$DIR/${1}_t32" --baseline "$DIR/${2}_t32" \
    --sizes 4096,8192 --attention '' --rounds 7 \
    --log "$OUT/flat_${1}_vs_${2}.log" > /dev/null 2>&1
  python3 persistent_pointer_bench.py "$DIR/${1}_mm_p" --baseline "$DIR/${2}_mm_p" \
    --sizes 4096x4096x4096,8192x8192x8192 --configs 0,1 --rounds 5 \
    --log "$OUT/persistent_${1}_vs_${2}.log" > /dev/null 2>&1
done
grep -h "baseline" "$OUT"/*.log | grep "RESULT"
