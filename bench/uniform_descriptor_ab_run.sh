#!/usr/bin/env bash
# On the device machine (stop 50): wgmma descriptors from a warp-uniform
# warp id against the build before, interleaved. DIR holds new_mm, old_mm
# (bench/build_matmul_variant.sh of examples/matmul.tile), new_mm_p,
# old_mm_p (the same of examples/matmul_persistent.tile) and new_t32,
# old_t32 (bench/build_tutorials_triton32.sh, ATTN_N=" ").
# usage: OUT=dir bash bench/uniform_descriptor_ab_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/uniform_ab}
mkdir -p "$OUT"
SIZES=4096x4096x4096,8192x8192x8192,2048x3072x768
python3 matmul_variants.py "$OUT/tutorial03.log" "$DIR/new_mm" "$DIR/old_mm" \
  --sizes $SIZES --configs 0 --rounds 7 > /dev/null
python3 matmul_variants.py "$OUT/tutorial09.log" "$DIR/new_mm_p" \
  "$DIR/old_mm_p" --sizes $SIZES --configs 0,1 --rounds 7 > /dev/null
for v in new old; do
  python3 tutorials_triton32_bench.py "$DIR/${v}_t32" --sizes 4096,8192 \
    --attention '' --rounds 7 --log "$OUT/flat_$v.log" > /dev/null
done
grep -h "" "$OUT"/*.log | grep -v "^  check"
