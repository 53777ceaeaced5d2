#!/usr/bin/env bash
# Compile examples/attention_tutorial06.tile for bench/attention06_bench.py:
# head dims 64 and 128, causal (STAGE=3) and not (STAGE=1), a few of the
# tutorial's configs each, or with PUBLISHED=1 every config the tutorial's
# own autotune list keeps. Runs here; outputs in ${OUT:-.carry/attention06}.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/attention06}
rm -rf "$OUT" && mkdir -p "$OUT"
if [[ "${PUBLISHED:-0}" == 1 ]]; then
  # The tutorial's own configs, as its autotuner sees them for N_CTX=1024
  # and 4096: the filter `keep`, the prune, and the static_assert that
  # skips BLOCK_N > HEAD_DIM. One PTX per head dim and mask, every config.
  for d in 64 128; do
    for stage in 1 3; do
      name="attn_d${d}_s${stage}_published"
      "$TILEC" examples/attention_tutorial06.tile --all-configs -D HEAD_DIM=$d \
        -D FP8_OUTPUT=False -D STAGE=$stage -D warp_specialize=False \
        -D IS_HOPPER=True --arg N_CTX=1024 -o "$OUT/$name.ptx"
      /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/$name.ptx" -o /dev/null 2>&1 |
        grep -o "[0-9]* bytes spill stores" | sort | uniq -c | sed "s/^/$name: /"
    done
  done
  exit 0
fi
for d in 64 128; do
  for stage in 1 3; do
    for cfg in "128 64 8 3" "128 64 4 3" "64 64 4 3" "128 128 8 3"; do
      set -- $cfg
      name="attn_d${d}_s${stage}_m$1_n$2_w$3"
      "$TILEC" examples/attention_tutorial06.tile -D HEAD_DIM=$d -D BLOCK_M=$1 \
        -D BLOCK_N=$2 -D FP8_OUTPUT=False -D STAGE=$stage \
        -D warp_specialize=False -D IS_HOPPER=True --num-warps $3 \
        --num-stages $4 -o "$OUT/$name.ptx" 2> "$OUT/$name.err" || {
        echo "skip $name: $(head -1 "$OUT/$name.err")"; rm -f "$OUT/$name".*; continue; }
      rm -f "$OUT/$name.err"
      /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/$name.ptx" -o /dev/null 2>&1 |
        grep -o "[0-9]* bytes spill stores" | sed "s/^/$name: /"
    done
  done
done
