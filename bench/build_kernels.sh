#!/usr/bin/env bash
# Compile the kernels of bench/kernels_bench.py (issue 11) as a user would:
# the examples as written, without --signature (so the compiler's guarded
# fast path decides alignment and unit strides at run time), at the block
# sizes and warp counts Triton's tutorials choose. Also the tutorial matmul
# with its hints removed, beside the hinted one. Outputs and the ptxas
# resource report (spills) go to .carry/kernels. Runs here; the GPU part is
# bench/kernels_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
OUT=${OUT:-.carry/kernels}
# TILEC_FLAGS (e.g. --register-budget=false) build a baseline elsewhere.
TILEC="$TILEC ${TILEC_FLAGS:-}"
rm -rf "$OUT" && mkdir -p "$OUT"
# Triton tutorial 02: 4 warps, 8 from BLOCK 2048, 16 from BLOCK 4096.
for block in 256 1024 4096 16384; do
  warps=4
  [ "$block" -ge 2048 ] && warps=8
  [ "$block" -ge 4096 ] && warps=16
  $TILEC examples/softmax.tile -D BLOCK=$block --num-warps $warps \
    -o "$OUT/softmax_$block.ptx"
done
# Triton tutorial 05: BLOCK = next power of two >= N, warps = BLOCK / 256
# clamped to [1, 8].
for block in 1024 4096 8192 16384; do
  warps=$((block / 256)); [ $warps -gt 8 ] && warps=8
  $TILEC examples/layernorm.tile -D BLOCK=$block --num-warps $warps \
    -o "$OUT/layernorm_$block.ptx"
done
# Row-wise cumsum (examples/cumsum.tile) at Triton's default 4 warps.
for block in 1024 4096; do
  $TILEC examples/cumsum.tile -D BLOCK=$block --num-warps 4 \
    -o "$OUT/cumsum_$block.ptx"
done
# The tutorial matmul as written (no hints) and with the example's hints,
# at the 4096^3 config.
MM="-D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 -D GROUP_M=8 --num-warps 8 --num-stages 3"
sed 's/\*fp16:16/*fp16/g; s/: i32:16/: i32/g' examples/matmul.tile > "$OUT/matmul_nohints.tile"
$TILEC "$OUT/matmul_nohints.tile" $MM -o "$OUT/matmul_nohints.ptx"
# Every config, for the odd shapes (the bench picks the fastest per shape,
# as the autotuner would).
$TILEC "$OUT/matmul_nohints.tile" --all-configs -o "$OUT/matmul_nohints_all.ptx"
$TILEC examples/matmul.tile $MM \
  --signature "stride_ak=i32:1,stride_bn=i32:1,stride_cn=i32:1,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_bk=i32:16,stride_cm=i32:16" \
  -o "$OUT/matmul_hints.ptx"
# Flash attention (tutorial 06) as written, every config, full and causal.
# Also with the facts the JIT specializes on (aligned pointers, unit
# inner strides, other strides and N_CTX multiples of 16): the kernel a
# program embedding the JIT gets, without the general path beside it.
ATTN_SIG="Q=*fp16:16,K=*fp16:16,V=*fp16:16,M=*fp32:16,Out=*fp16:16"
for t in q k v o; do
  inner=$([ $t = k ] && echo kk || ([ $t = v ] && echo vn || ([ $t = q ] && echo qk || echo on)))
  outer=$([ $t = k ] && echo kn || ([ $t = v ] && echo vk || ([ $t = q ] && echo qm || echo om)))
  ATTN_SIG="$ATTN_SIG,stride_${t}z=i32:16,stride_${t}h=i32:16,stride_$outer=i32:16,stride_$inner=i32:1"
done
ATTN_SIG="$ATTN_SIG,N_CTX=i32:16"
for d in 64 128; do
  for stage in 1 3; do
    $TILEC examples/attention_fwd.tile --all-configs -D HEAD_DIM=$d \
      -D STAGE=$stage -o "$OUT/attention_d${d}_s$stage.ptx"
    $TILEC examples/attention_fwd.tile --all-configs -D HEAD_DIM=$d \
      -D STAGE=$stage --signature "$ATTN_SIG" \
      -o "$OUT/attention_d${d}_s${stage}_jit.ptx"
  done
done
for f in "$OUT"/*.ptx; do
  "$PTXAS" -arch=sm_90a -v "$f" -o "${f%.ptx}.cubin" 2> "${f%.ptx}.ptxas.txt"
  echo "$(basename "$f"): $(grep -o '[0-9]* bytes spill stores' "${f%.ptx}.ptxas.txt" | sort -u | tr '\n' ' ')"
done
