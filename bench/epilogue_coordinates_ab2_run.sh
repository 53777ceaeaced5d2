#!/usr/bin/env bash
# On the device machine (stop 50): Triton 3.2's flat persistent pointer
# matmul, this build against the build before in the same rounds, twice
# with the builds swapped (DIR/new_t32, DIR/old_t32 from
# bench/build_tutorials_triton32.sh, ATTN_N=" ").
# usage: OUT=dir bash bench/epilogue_coordinates_ab2_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/epilogue_ab2}
mkdir -p "$OUT"
python3 tutorials_triton32_bench.py "$DIR/new_t32" --baseline "$DIR/old_t32" \
  --sizes 4096,8192,2048x3072x768 --attention '' --rounds 9 \
  --log "$OUT/new_vs_old.log" > /dev/null
python3 tutorials_triton32_bench.py "$DIR/old_t32" --baseline "$DIR/new_t32" \
  --sizes 4096,8192,2048x3072x768 --attention '' --rounds 9 \
  --log "$OUT/old_vs_new.log" > /dev/null
grep -h "RESULT.*pointers" "$OUT"/*.log
