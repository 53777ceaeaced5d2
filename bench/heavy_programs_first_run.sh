#!/usr/bin/env bash
# On the device machine (stop 50): attention as written (bench/build_kernels.sh's
# attention builds) with tile-heavy-programs-first (DIR/att_new) against
# the build before (DIR/att_old), every config, float64 checks first, at
# N = 1024, 2048 and 4096 (the full kernels are byte-identical: a control).
# usage: OUT=dir bash bench/heavy_programs_first_run.sh DIR
set -uo pipefail
cd "$(dirname "$0")"
DIR=$(realpath "../$1")
OUT=${OUT:-/tmp/heavy_first}
mkdir -p "$OUT"
for n in 1024 2048 4096; do
  python3 attention_configs.py "$DIR/att_new" --baseline "$DIR/att_old" \
    --d 64,128 --n $n --rounds 5 > "$OUT/attention_n$n.log" 2>&1
done
grep -h "" "$OUT"/*.log | grep -v "^old:" | grep -v Deprecation
# Tutorial 06 as published (bench/build_attention06.sh with this build,
# DIR/t06_new, and the build before, DIR/t06_old), fastest config each.
if [ -d "$DIR/t06_new" ]; then
  python3 attention06_bench.py "$DIR/t06_new" "$OUT/attention06.log" \
    --baseline "$DIR/t06_old" > /dev/null 2>&1
  grep -h "RESULT\|baseline" "$OUT/attention06.log"
fi
