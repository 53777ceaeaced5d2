// RUN: tile-opt %s --convert-tilegpu-to-gpu | FileCheck %s
// A tensor map is built by warp 0 in the op's shared scratch (zeroed, each
// field replaced by thread 0) and copied into the module's buffer, at the
// entry of its (SM, first warp slot), with the release fence for the
// tensor-map proxy; thread 0, which issues the copies, acquires and
// prefetches it. A TMA copy of a 64 x 128 f16 tile is two
// copies of 64 x 64 boxes (two 128-byte lines), the second 8 KiB further
// and 64 columns right; thread 0 announces their bytes on the barrier.

#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sBar = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#sTT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>

// The buffer: 256 SMs x 64 warp slots x 128 bytes x two maps (the most a
// kernel here makes).
// CHECK: llvm.mlir.global internal @tile_tensor_maps() {addr_space = 1 : i32, alignment = 128 : i64} : !llvm.array<4194304 x i8>
// CHECK-LABEL: gpu.func @tma
// CHECK: gpu.barrier
// CHECK: %[[SM:.*]] = nvvm.read.ptx.sreg.smid : i32
// CHECK: %[[WARP:.*]] = nvvm.read.ptx.sreg.warpid : i32
// CHECK: llvm.mlir.addressof @tile_tensor_maps : !llvm.ptr<1>
// CHECK: llvm.inline_asm has_side_effects {{.*}}"{{.*}}@outside trap;{{.*}}@w st.shared.b32 [$9], 0;{{.*}}@w bar.warp.sync -1;{{.*}}tensormap.replace.tile.global_address.shared::cta.b1024.b64 [$8], $1;{{.*}}tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$8], 0, 64;{{.*}}tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$8], 1, 64;{{.*}}tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [$8], 0, $4;{{.*}}tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [$8], 1;{{.*}}tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [$8], 3;{{.*}}@w tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$0], [$8], 128;{{.*}}@p fence.proxy.tensormap::generic.acquire.gpu [$0], 128;{{.*}}@p prefetch.tensormap [$0];
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$5 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];"
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: arith.addi %{{.*}}, %[[C64]] : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}cp.async.bulk.tensor.2d
// The store: two lines out of the same tile, then thread 0 waits until
// they have read it, and the program synchronizes.
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$4 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$4 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$0 cp.async.bulk.commit_group;\0A\09@$0 cp.async.bulk.wait_group.read 0;"
// CHECK-NEXT: gpu.barrier
// CHECK-LABEL: gpu.func @tma_transposed
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$8], 0, 64;{{.*}}tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$8], 1, 64;
// CHECK: %[[TO:.*]] = arith.addi %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}cp.async.bulk.tensor.2d
// CHECK: %[[TO2:.*]] = arith.addi %{{.*}}, %c8192_i32{{.*}} : i32
// CHECK: %[[COL2:.*]] = arith.addi %{{.*}}, %c64_i32{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}cp.async.bulk.tensor.2d
// CHECK-NOT: cp.async.bulk.tensor
// CHECK: gpu.return
// Two maps made one right after the other (tilegpu-group-tensor-maps) are
// built at the same time: the first by warp 0, the second by warp 1 into
// its own scratch; one barrier hands the second's address to thread 0,
// which acquires and prefetches it.
// CHECK-LABEL: gpu.func @two_maps
// CHECK:       gpu.barrier
// CHECK:       tensormap.cp_fenceproxy
// CHECK-NOT:   gpu.barrier
// CHECK:       %[[IS32:.*]] = arith.cmpi eq, %{{.*}}, %c32_i32{{.*}} : i32
// CHECK-NEXT:  %[[P1:.*]] = arith.extui %[[IS32]] : i1 to i32
// CHECK:       %c16768_i32 = arith.constant 16768 : i32
// CHECK:       "{{.*}}tensormap.cp_fenceproxy{{.*}}", {{.*}} %[[P1]],
// CHECK-NOT:   gpu.barrier
// CHECK:       "{\0A\09.reg .pred p;\0A\09setp.ne.b32 p, $0, 0;\0A\09@p st.shared.b64 [$1], $2;\0A\09}", "r,r,l" %[[P1]],
// CHECK-NEXT:  gpu.barrier
// CHECK:       %[[MAP2:.*]] = llvm.inline_asm has_side_effects {{.*}}"ld.shared.b64 $0, [$1];"
// CHECK-NEXT:  "{{.*}}@p fence.proxy.tensormap::generic.acquire.gpu [$1], 128;{{.*}}@p prefetch.tensormap [$1];{{.*}}" %{{.*}}, %[[MAP2]]
// CHECK:       cp.async.bulk.tensor.2d
// CHECK:       cp.async.bulk.tensor.2d{{.*}}, %[[MAP2]],
module {
  func.func @tma(%base: !tile.ptr<f16>, %m: i64, %k: i64, %s: i64, %r: i32, %c: i32) attributes {tilegpu.num_warps = 4 : i32} {
    %one = arith.constant 1 : i64
    %map = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 128] {tilegpu.scratch_offset = 16512 : i32} : !tile.ptr<f16>
    %tile = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x128xf16, #sT>
    %bar = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.mbarrier_expect_tx %bar, 16384 : !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.async_tma_copy %map[%r, %c], %tile, %bar : !tilegpu.memdesc<64x128xf16, #sT>, !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.async_tma_store %map[%r, %c], %tile : !tilegpu.memdesc<64x128xf16, #sT>
    return
  }
  // A 128 x 64 tile stored in rows along its first dimension (K^T) is the
  // transposed 64 x 128 box: the same two line copies, 8 KiB apart and 64
  // columns right.
  func.func @tma_transposed(%base: !tile.ptr<f16>, %m: i64, %k: i64, %s: i64, %r: i32, %c: i32) attributes {tilegpu.num_warps = 4 : i32} {
    %one = arith.constant 1 : i64
    %map = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 128] {tilegpu.scratch_offset = 16512 : i32} : !tile.ptr<f16>
    %tile = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x64xf16, #sTT>
    %bar = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.async_tma_copy %map[%r, %c], %tile, %bar : !tilegpu.memdesc<128x64xf16, #sTT>, !tilegpu.memdesc<1xi64, #sBar>
    return
  }
  func.func @two_maps(%base: !tile.ptr<f16>, %m: i64, %k: i64, %s: i64, %r: i32, %c: i32) attributes {tilegpu.num_warps = 4 : i32} {
    %one = arith.constant 1 : i64
    %mk = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 64] {tilegpu.scratch_offset = 16512 : i32} : !tile.ptr<f16>
    %mv = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 64] {tilegpu.scratch_offset = 16768 : i32} : !tile.ptr<f16>
    %tile = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sT>
    %bar = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.async_tma_copy %mk[%r, %c], %tile, %bar : !tilegpu.memdesc<64x64xf16, #sT>, !tilegpu.memdesc<1xi64, #sBar>
    tilegpu.async_tma_copy %mv[%r, %c], %tile, %bar : !tilegpu.memdesc<64x64xf16, #sT>, !tilegpu.memdesc<1xi64, #sBar>
    return
  }
}
