#!/usr/bin/env bash
# On the GPU machine: the JIT's cold compile (matmul.tile 128x256x64 to a
# loaded module and a finished launch) of two builds in alternation, so
# that the machine's drifting CPU speed falls on both alike.
#   bench/cold_ab.sh NEW_DIR OLD_DIR [ROUNDS]
# Each DIR holds a jit_bench.xz from bench/build_jit.sh. Every round runs
# each build in a fresh process (3 cold compiles, fresh cache directories,
# no driver cache); the ratio is the median of the per-round ratios of
# medians.
set -euo pipefail
cd "$(dirname "$0")/.."
NEW=$1 OLD=$2 ROUNDS=${3:-7}
BIN=$(mktemp -d)
xz -d -c "$NEW/jit_bench.xz" > "$BIN/new" && xz -d -c "$OLD/jit_bench.xz" > "$BIN/old"
chmod +x "$BIN/new" "$BIN/old"
export CUDA_CACHE_DISABLE=1
for r in $(seq "$ROUNDS"); do
  for v in new old; do
    TILE_CACHE_DIR=$(mktemp -d) "$BIN/$v" examples/matmul.tile --cold 3 |
      awk -v v=$v -v r=$r '/^COLD1/ {print r, v, $2}'
  done
done | python3 -c '
import sys, statistics as st, collections
t = collections.defaultdict(lambda: collections.defaultdict(list))
for line in sys.stdin:
    r, v, s = line.split(); t[int(r)][v].append(float(s))
rounds = sorted(t)
for r in rounds:
    print(f"round {r}: new " + " ".join(f"{x:.3f}" for x in t[r]["new"]) +
          " | old " + " ".join(f"{x:.3f}" for x in t[r]["old"]))
new = [x for r in rounds for x in t[r]["new"]]
old = [x for r in rounds for x in t[r]["old"]]
ratio = st.median(st.median(t[r]["old"]) / st.median(t[r]["new"]) for r in rounds)
print(f"COLD A/B: new median {st.median(new):.3f} s (min {min(new):.3f}, max {max(new):.3f}), "
      f"old median {st.median(old):.3f} s (min {min(old):.3f}, max {max(old):.3f}), "
      f"old/new {ratio:.2f}x (median of {len(rounds)} rounds), "
      f"new under 0.3 s in {sum(x < 0.3 for x in new)} of {len(new)}")
'
