#!/usr/bin/env bash
# Compile examples/attention_bwd_tutorial06.tile for
# bench/attention06_bwd_bench.py: the preprocess kernel and _attn_bwd at the
# tutorial's blocks (32/128/128/32, BLK_SLICE_FACTOR 2) on 4 and 8 warps,
# head dims 64 and 128, as a user compiles them (no --signature). Runs here;
# outputs in ${OUT:-.carry/attention06_bwd}; prints ptxas's spills.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/attention06_bwd}
SRC=examples/attention_bwd_tutorial06.tile
rm -rf "$OUT" && mkdir -p "$OUT"
spills() {
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/$1.ptx" -o /dev/null 2>&1 |
    grep -o "[0-9]* bytes spill stores" | sed "s/^/$1: /"
}
for d in 64 128; do
  "$TILEC" $SRC -k _attn_bwd_preprocess -D BLOCK_M=128 -D HEAD_DIM=$d \
    -o "$OUT/pre_d$d.ptx"
  for w in 4 8; do
    # VARIANTS: extra builds, "suffix:tilec options" each (A/B runs).
    for variant in ":" ${VARIANTS:-}; do
      name="bwd_d${d}_w$w${variant%%:*}"
      "$TILEC" $SRC -k _attn_bwd -D BLOCK_M1=32 -D BLOCK_N1=128 -D BLOCK_M2=128 \
        -D BLOCK_N2=32 -D BLK_SLICE_FACTOR=2 -D HEAD_DIM=$d --num-warps $w \
        --num-stages 5 ${variant#*:} -o "$OUT/$name.ptx"
      spills $name
    done
  done
done
