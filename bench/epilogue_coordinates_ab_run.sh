#!/usr/bin/env bash
# On the device machine (stop 50): the epilogue of a flat persistent loop
# (`if ki == k_tiles - 1:` store the tile) computing its coordinates where
# it runs, against the build before. DIR holds new_t32 and old_t32
# (bench/build_tutorials_triton32.sh, ATTN_N=" ": Triton 3.2's tutorial 09,
# against Triton on the same source), and new_mm_p, new_mm_pf, old_mm_pf
# (bench/build_matmul_variant.sh of examples/matmul_persistent.tile, nested
# and with --fuse-nested-loops).
# usage: OUT=dir bash bench/epilogue_coordinates_ab_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/epilogue_ab}
mkdir -p "$OUT"
python3 matmul_variants.py "$OUT/tutorial09.log" "$DIR/new_mm_p" \
  "$DIR/new_mm_pf" "$DIR/old_mm_pf" --sizes 4096x4096x4096,8192x8192x8192 \
  --configs 0,1 --rounds 5 > /dev/null
for v in new old; do
  python3 tutorials_triton32_bench.py "$DIR/${v}_t32" --sizes 4096,8192 \
    --attention '' --rounds 7 --log "$OUT/flat_$v.log" > /dev/null
done
grep -h "" "$OUT"/*.log | grep -v "^  check"
