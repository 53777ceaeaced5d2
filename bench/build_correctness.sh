#!/usr/bin/env bash
# Compile every example to PTX (+ JSON metadata) for the GPU correctness run.
# Runs on the development machine (tilec needs LLVM/MLIR); the outputs go to
# .carry/correctness, which the device call carries to the GPU machine,
# where bench/gpu_correctness.py loads and checks them.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/correctness}
rm -rf "$OUT" && mkdir -p "$OUT"

"$TILEC" examples/vector_add.tile -o "$OUT/vector_add.ptx"
# Every autotune config of the matmul, fp16 and fp32 inputs. The fp32
# variant is the same kernel with fp32 pointers.
"$TILEC" examples/matmul.tile --all-configs -o "$OUT/matmul_fp16.ptx"
for precision in tf32 tf32x3 ieee; do
  sed "s/\*fp16:16/*fp32:16/g; s/tl.float16/c_ptr.dtype.element_ty/;
       s/tl.dot(a, b, accumulator)/tl.dot(a, b, accumulator, input_precision=\"$precision\")/" \
    examples/matmul.tile > "$OUT/matmul_fp32_$precision.tile"
  "$TILEC" "$OUT/matmul_fp32_$precision.tile" --all-configs \
    -o "$OUT/matmul_fp32_$precision.ptx"
done
# B K-major (A @ W^T), stated as the JIT would: wgmma's tf32 form.
"$TILEC" "$OUT/matmul_fp32_tf32.tile" --all-configs \
  --signature "stride_ak=i32:1,stride_bk=i32:1,stride_cn=i32:1" \
  -o "$OUT/matmul_fp32_tf32_kmajor.ptx"
# A M-major too (a weight gradient's X^T @ dY): wgmma reads A into registers.
"$TILEC" "$OUT/matmul_fp32_tf32.tile" --all-configs \
  --signature "stride_am=i32:1,stride_bk=i32:1,stride_cn=i32:1" \
  -o "$OUT/matmul_fp32_tf32_mmajor.ptx"
# fp8 inputs (tutorial 03's fp8 run): the same kernel with fp8 A and B.
for fp8 in fp8e4nv fp8e5; do
  sed "s/a_ptr: \*fp16:16, b_ptr: \*fp16:16/a_ptr: *$fp8:16, b_ptr: *$fp8:16/" \
    examples/matmul.tile > "$OUT/matmul_$fp8.tile"
  "$TILEC" "$OUT/matmul_$fp8.tile" --all-configs -o "$OUT/matmul_$fp8.ptx"
  # B K-major (the tutorial's b.T), stated as the JIT would: wgmma's fp8
  # form, any size.
  "$TILEC" "$OUT/matmul_$fp8.tile" --all-configs \
    --signature "stride_ak=i32:1,stride_bk=i32:1,stride_cn=i32:1" \
    -o "$OUT/matmul_${fp8}_kmajor.ptx"
done
"$TILEC" bench/kernels/fp8.tile -o "$OUT/fp8.ptx"
# int8 into int32: both operands K-major as the JIT states it (wgmma's s8
# form; with every fact of aligned sizes the tiles come by cp.async, with
# the strides' alone by scalar loads), and as written (mma.sync's s8 form).
# Tiles under 64 rows take mma.sync's m16n8k32 throughout; so does fp8
# there (the same kernel on e4m3 A and e5m2 B into fp32).
sed "s/a_ptr: \*i8/a_ptr: *fp8e4nv/; s/b_ptr: \*i8/b_ptr: *fp8e5/;
     s/c_ptr: \*i32/c_ptr: *fp32/; s/tl.int32/tl.float32/; s/other=0)/other=0.0)/" \
  bench/kernels/int8_matmul.tile > "$OUT/fp8_small_matmul.tile"
for cfg in "128 128 8 3" "64 128 4 4" "32 64 4 3" "16 64 2 3"; do
  set -- $cfg
  "$TILEC" bench/kernels/int8_matmul.tile -D BLOCK_M=$1 -D BLOCK_N=$2 \
    --num-warps $3 --num-stages $4 \
    --signature "stride_ak=i32:1,stride_bk=i32:1,stride_cn=i32:1" \
    -o "$OUT/int8_matmul_kmajor_$1x$2.ptx"
  "$TILEC" bench/kernels/int8_matmul.tile -D BLOCK_M=$1 -D BLOCK_N=$2 \
    --num-warps $3 --num-stages $4 \
    --signature "a_ptr=*i8:16,b_ptr=*i8:16,c_ptr=*i32:16,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:1,stride_bn=i32:16,stride_cm=i32:16,stride_cn=i32:1" \
    -o "$OUT/int8_matmul_aligned_$1x$2.ptx"
  "$TILEC" bench/kernels/int8_matmul.tile -D BLOCK_M=$1 -D BLOCK_N=$2 \
    --num-warps $3 --num-stages $4 -o "$OUT/int8_matmul_$1x$2.ptx"
  if [ "$1" -lt 64 ]; then
    "$TILEC" "$OUT/fp8_small_matmul.tile" -D BLOCK_M=$1 -D BLOCK_N=$2 \
      --num-warps $3 --num-stages $4 \
      --signature "stride_ak=i32:1,stride_bk=i32:1,stride_cn=i32:1" \
      -o "$OUT/fp8_small_matmul_kmajor_$1x$2.ptx"
    "$TILEC" "$OUT/fp8_small_matmul.tile" -D BLOCK_M=$1 -D BLOCK_N=$2 \
      --num-warps $3 --num-stages $4 -o "$OUT/fp8_small_matmul_$1x$2.ptx"
  fi
done
"$TILEC" bench/kernels/dot_scaled.tile -o "$OUT/dot_scaled.ptx"
# tf32 with a row-major B (the transposed product) into reductions along
# both axes and an fp16 store, on two and one warpgroups.
"$TILEC" bench/kernels/tf32_epilogue.tile --num-warps 8 \
  -o "$OUT/tf32_epilogue_w8.ptx"
"$TILEC" bench/kernels/tf32_epilogue.tile --num-warps 4 -D BLOCK_M=64 \
  -o "$OUT/tf32_epilogue_w4.ptx"
# Tutorial 10's block-scaled matmul (mxfp4 as the file has it, and mxfp8),
# 128x128x128 blocks on 8 warps.
BS="-D M=256 -D N=256 -D K=512 -D stride_sk=2048 -D stride_sb=512 -D stride_sc=16 -D stride_sd=4 -D output_type=1 -D VEC_SIZE=32 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128 -D NUM_STAGES=1 -D USE_2D_SCALE_LOAD=True --num-warps 8"
"$TILEC" bench/kernels/block_scaled_matmul.tile $BS -D ELEM_PER_BYTE_A=2 \
  -D ELEM_PER_BYTE_B=2 -o "$OUT/block_scaled_mxfp4.ptx"
sed 's/tensordesc<u8\[/tensordesc<fp8e4nv[/g' bench/kernels/block_scaled_matmul.tile \
  > "$OUT/block_scaled_mxfp8.tile"
"$TILEC" "$OUT/block_scaled_mxfp8.tile" $BS -D ELEM_PER_BYTE_A=1 \
  -D ELEM_PER_BYTE_B=1 -o "$OUT/block_scaled_mxfp8.ptx"
# Split-K (fp32 atomic adds of a dot's result): 16-byte vector atomics
# where the sizes are multiples of 16, scalar ones otherwise.
for facts in "M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_bk=i32:16,stride_cm=i32:16" \
             "M=i32,N=i32,K=i32,stride_am=i32,stride_bk=i32,stride_cm=i32"; do
  name=splitk_$([ "${facts#*:16}" = "$facts" ] && echo general || echo aligned)
  "$TILEC" bench/kernels/probe_misc.tile -k matmul_splitk -D BLOCK_M=64 \
    -D BLOCK_N=64 -D BLOCK_K=64 -D SPLIT_K=4 --num-warps 4 \
    --signature "a_ptr=*fp16:16,b_ptr=*fp16:16,c_ptr=*fp32:16,$facts,stride_ak=i32:1,stride_bn=i32:1,stride_cn=i32:1" \
    -o "$OUT/$name.ptx"
done
"$TILEC" examples/matmul.tile -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 \
  -D ACTIVATION=leaky_relu --num-warps 4 -o "$OUT/matmul_leaky.ptx"
"$TILEC" examples/matmul_block_ptr.tile --all-configs -o "$OUT/matmul_block_ptr.ptx"
# The naive 2-D version, launched in grouped order by the pass (default).
"$TILEC" examples/matmul_2d.tile --all-configs -o "$OUT/matmul_2d.ptx"
for block in 1024 4096; do
  "$TILEC" examples/softmax.tile -D BLOCK=$block -o "$OUT/softmax_$block.ptx"
done
# Tutorial 02's persistent softmax: its row loop asks for stages, so the
# next row's load runs an iteration ahead (tilegpu-prefetch-loads).
"$TILEC" bench/kernels/softmax_persistent.tile -D BLOCK_SIZE=1024 \
  -D num_stages=4 --num-warps 8 --signature "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_cols=i32" \
  -o "$OUT/softmax_persistent.ptx"
"$TILEC" examples/layernorm.tile -o "$OUT/layernorm.ptx"
"$TILEC" examples/layernorm_bwd.tile -o "$OUT/layernorm_bwd.ptx"
"$TILEC" examples/dropout.tile -o "$OUT/dropout.ptx"
"$TILEC" bench/kernels/random.tile -o "$OUT/random.ptx"
"$TILEC" bench/kernels/custom_reduce.tile -o "$OUT/custom_reduce.ptx"
"$TILEC" bench/kernels/scan.tile -o "$OUT/scan.ptx"
"$TILEC" bench/kernels/histogram.tile -o "$OUT/histogram.ptx"
"$TILEC" bench/kernels/sort.tile -o "$OUT/sort.ptx"
"$TILEC" bench/kernels/pointer_casts.tile -o "$OUT/pointer_casts.ptx"
"$TILEC" bench/kernels/gather.tile -o "$OUT/gather.ptx"
"$TILEC" bench/kernels/map_elementwise.tile -o "$OUT/map_elementwise.ptx"
"$TILEC" bench/kernels/inline_asm.tile -o "$OUT/inline_asm.ptx"
"$TILEC" bench/kernels/cuda_helpers.tile -o "$OUT/cuda_helpers.ptx"
"$TILEC" bench/kernels/join_split.tile -o "$OUT/join_split.ptx"
"$TILEC" bench/kernels/compare_runs.tile -o "$OUT/compare_runs.ptx"
# tritonbench's int4 GEMM (join / permute / reshape unpacking): tritonbench's
# small-M config as written and with the JIT's facts, and a 64-row tile
# (wgmma).
INT4="bench/kernels/probe_tritonbench.tile -k matmul_kernel -D GROUP_SIZE_M=32 --num-warps 4 --num-stages 4"
INT4_SIG="a_ptr=*bf16:16,b_ptr=*i8:16,c_ptr=*bf16:16,M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_ak=i32:1,stride_bk=i32:16,stride_bn=i32:1,stride_cm=i32:16,stride_cn=i32:1"
"$TILEC" $INT4 -D BLOCK_SIZE_M=16 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=256 \
  -o "$OUT/int4_gemm_16x128x256.ptx"
"$TILEC" $INT4 -D BLOCK_SIZE_M=16 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=256 \
  --signature "$INT4_SIG" -o "$OUT/int4_gemm_facts_16x128x256.ptx"
"$TILEC" $INT4 -D BLOCK_SIZE_M=64 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=128 \
  -o "$OUT/int4_gemm_64x128x128.ptx"
"$TILEC" bench/kernels/library_builtins.tile -o "$OUT/library_builtins.ptx"
"$TILEC" test/Interpreter/Inputs/propagate_nan.tile -o "$OUT/propagate_nan.ptx"
"$TILEC" test/Interpreter/Inputs/float_atomic_minmax.tile -o "$OUT/float_atomic_minmax.ptx"
"$TILEC" test/Interpreter/Inputs/mixed_precision_dots.tile -o "$OUT/mixed_precision_dots.ptx"
"$TILEC" test/Interpreter/Inputs/batched_dot.tile -o "$OUT/batched_dot.ptx"
"$TILEC" test/Interpreter/Inputs/cast_rtz.tile -o "$OUT/cast_rtz.ptx"
"$TILEC" test/Interpreter/Inputs/math_functions.tile -o "$OUT/math_functions.ptx"
"$TILEC" bench/kernels/reductions.tile -o "$OUT/reductions.ptx"
"$TILEC" bench/kernels/descriptor.tile -o "$OUT/descriptor.ptx"
for bm in 32 64; do
  "$TILEC" bench/kernels/dot_transposed.tile -D BM=$bm -o "$OUT/dot_transposed_$bm.ptx"
done
"$TILEC" examples/matmul_descriptor.tile --all-configs -o "$OUT/matmul_descriptor.ptx"
# The same on fp32 (tf32 on wgmma, tiles by TMA).
sed "s/\*fp16/*fp32/g; s/tl.float16/tl.float32/g" examples/matmul_descriptor.tile \
  > "$OUT/matmul_descriptor_fp32.tile"
"$TILEC" "$OUT/matmul_descriptor_fp32.tile" --all-configs \
  -o "$OUT/matmul_descriptor_fp32.ptx"
"$TILEC" examples/grouped_matmul_tma.tile --all-configs -o "$OUT/grouped_matmul_tma.ptx"
# 64-row tiles on 8 warps: wgmma's warpgroups side by side along N.
for k in chain fp8_scaled int8_nt tf32_nt; do
  for n in 64 128; do
    [ $k = chain ] && [ $n = 64 ] && continue
    "$TILEC" bench/kernels/wgmma_nsplit.tile -k $k --num-warps 8 \
      $([ $k = chain ] || echo "-D K=256 -D N=$n") -o "$OUT/nsplit_${k}_$n.ptx"
  done
done
# Tutorial 08's pointer kernel (addresses loaded and cast), every config.
"$TILEC" bench/kernels/grouped_matmul_tutorial08.tile --all-configs \
  -o "$OUT/grouped_matmul_tutorial08.ptx"
# The same without its in-place hints (tl.multiple_of(a_ptrs, [16, 16])):
# loaded addresses and leading dimensions then choose between a fast copy
# and the general path at run time (tile-version-loaded-values).
sed '/tl.multiple_of(/d' bench/kernels/grouped_matmul_tutorial08.tile \
  > "$OUT/grouped_matmul_tutorial08_nohints.tile"
"$TILEC" "$OUT/grouped_matmul_tutorial08_nohints.tile" --all-configs \
  -o "$OUT/grouped_matmul_tutorial08_nohints.ptx"
# Its fp8 run (FP8: e4m3 A, B and C), at the first config's blocks.
"$TILEC" examples/grouped_matmul_tma.tile -D NUM_SM=132 -D FP8=True \
  -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 --num-warps 8 \
  --num-stages 3 -o "$OUT/grouped_matmul_tma_fp8.ptx"
"$TILEC" examples/matmul_persistent.tile --all-configs -o "$OUT/matmul_persistent.ptx"
"$TILEC" bench/kernels/matmul_tutorial09_persistent.tile --all-configs \
  -o "$OUT/matmul_tutorial09_persistent.ptx"
"$TILEC" examples/matmul_tma.tile --all-configs -o "$OUT/matmul_tma.ptx"
# Its fp8 run (FP8_OUTPUT, e4m3 descriptors): wgmma's fp8 form on b.T.
sed 's/tensordesc<fp16\[/tensordesc<fp8e4nv[/g' examples/matmul_tma.tile \
  > "$OUT/matmul_tma_fp8.tile"
"$TILEC" "$OUT/matmul_tma_fp8.tile" --all-configs -D FP8_OUTPUT=True \
  -o "$OUT/matmul_tma_fp8.ptx"
"$TILEC" examples/attention_tutorial06.tile -D HEAD_DIM=64 -D BLOCK_M=128 \
  -D BLOCK_N=64 -D STAGE=3 --num-warps 8 -o "$OUT/attention_tutorial06.ptx"
# Not causal: one loop, warp specialized (a TMA producer warpgroup).
"$TILEC" examples/attention_tutorial06.tile -D HEAD_DIM=128 -D BLOCK_M=128 \
  -D BLOCK_N=128 -D STAGE=1 --num-warps 8 -o "$OUT/attention_tutorial06_full.ptx"
# Both made persistent (tile-persistent-programs), launched for 2 SMs: at
# the sanitizer's small shapes each program then walks several tiles.
"$TILEC" examples/attention_tutorial06.tile -D HEAD_DIM=128 -D BLOCK_M=128 \
  -D BLOCK_N=128 -D STAGE=1 --num-warps 8 --num-sms 2 \
  -o "$OUT/attention_tutorial06_full_sms2.ptx"
"$TILEC" examples/matmul_tma.tile --all-configs --num-sms 2 \
  -o "$OUT/matmul_tma_sms2.ptx"
# The same kernel as Triton 3.6 runs it on Hopper: host-made descriptors
# (tensordesc annotations); and its fp8 run (FP8_OUTPUT, e5m2, V passed
# transposed as the tutorial does).
sed 's/desc_q: \*fp16, desc_k: \*fp16, desc_v: \*fp16, desc_o: \*fp16/desc_q: tensordesc<fp16[BLOCK_M, HEAD_DIM]>, desc_k: tensordesc<fp16[BLOCK_N, HEAD_DIM]>, desc_v: tensordesc<fp16[BLOCK_N, HEAD_DIM]>, desc_o: tensordesc<fp16[BLOCK_M, HEAD_DIM]>/' \
  examples/attention_tutorial06.tile > "$OUT/attention_tutorial06_hostdesc.tile"
"$TILEC" "$OUT/attention_tutorial06_hostdesc.tile" -D HEAD_DIM=64 -D BLOCK_M=128 \
  -D BLOCK_N=64 -D STAGE=3 --num-warps 8 -o "$OUT/attention_tutorial06_hostdesc.ptx"
sed 's/\*fp16/*fp8e5/g' examples/attention_tutorial06.tile > "$OUT/attention_tutorial06_fp8.tile"
"$TILEC" "$OUT/attention_tutorial06_fp8.tile" -D HEAD_DIM=64 -D BLOCK_M=128 \
  -D BLOCK_N=64 -D STAGE=3 -D FP8_OUTPUT=True --num-warps 8 \
  -o "$OUT/attention_tutorial06_fp8.ptx"
# Its backward kernels at the tutorial's configuration (4 warps, 5 stages).
"$TILEC" examples/attention_bwd_tutorial06.tile --num-stages 5 \
  -o "$OUT/attention_bwd_tutorial06.ptx"
for f in "$OUT"/*.ptx; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a "$f" -o /dev/null
done
ls "$OUT"
