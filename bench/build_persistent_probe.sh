#!/usr/bin/env bash
# The five kernels bench/persistent_probe.py compares, into
# ${OUT:-.carry/exp}: tutorial 09's descriptor persistent matmul with its
# loops fused (--fuse-nested-loops) and not, with one tile per program, and
# the tutorial matmul with hints at 128x128 and 128x256. Runs here (tilec).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/exp}
rm -rf "$OUT" && mkdir -p "$OUT"
TMP=$(mktemp -d)
TILE="-D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D EPILOGUE_SUBTILE=False --num-warps 8 --num-stages 3"
"$TILEC" examples/matmul_descriptor.tile $TILE --fuse-nested-loops -o "$OUT/fused.ptx"
"$TILEC" examples/matmul_descriptor.tile $TILE -o "$OUT/unfused.ptx"
# One tile per program: the declared grid covers every tile.
sed 's/@grid(min(NUM_SMS, cdiv(M, BLOCK_SIZE_M) \* cdiv(N, BLOCK_SIZE_N)))/@grid(cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N))/; s/NUM_SMS: tl.constexpr = 132/NUM_SMS: tl.constexpr = 100000/' \
  examples/matmul_descriptor.tile > "$TMP/nonpersist.tile"
"$TILEC" "$TMP/nonpersist.tile" $TILE -o "$OUT/nonpersist.ptx"
SIG="M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:16,stride_bn=i32:1,stride_cm=i32:16,stride_cn=i32:1"
for n in 128 256; do
  "$TILEC" examples/matmul.tile -D BLOCK_M=128 -D BLOCK_N=$n -D BLOCK_K=64 \
    -D GROUP_M=8 --num-warps 8 --num-stages 3 --signature "$SIG" \
    -o "$OUT/ptr$n.ptx"
done
rm -rf "$TMP"
ls "$OUT"
