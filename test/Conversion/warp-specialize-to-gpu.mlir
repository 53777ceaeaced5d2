// RUN: tile-opt %s --convert-tilegpu-to-gpu | FileCheck %s
// A warp-specialized kernel (tilegpu-warp-specialize) launches its 4
// producer warps beside num_warps. Its tensor map's address, written by
// thread 0 beside the map in the scratch, is read back by every thread
// after a barrier of the whole program, and the producer's first thread
// (256) acquires the map itself. In the producer, the one thread that runs
// the copies issues them without electing thread 0; registers move with
// setmaxnreg; the consumers' barriers become named barrier 15 of their 256
// threads.

#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sBar = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#blk = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blkT = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>

// CHECK-LABEL: gpu.func @specialized
// CHECK-SAME:    known_block_size = array<i32: 384, 1, 1>
// Thread 0 does not prefetch the map it hands to the producer (that
// delayed the hand-over's barrier); the producer's thread does.
// CHECK:       "{{.*}}@p fence.proxy.tensormap::generic.acquire.gpu [$0], 128;
// CHECK-NOT:   prefetch.tensormap
// CHECK:       "{\0A\09.reg .pred p;\0A\09setp.ne.b32 p, $0, 0;\0A\09@p st.shared.b64 [$1], $2;\0A\09}"
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  %[[C256:.*]] = arith.constant 256 : i32
// CHECK-NEXT:  %[[IS256:.*]] = arith.cmpi eq, %{{.*}}, %[[C256]] : i32
// CHECK:       %[[MAP:.*]] = llvm.inline_asm has_side_effects {{.*}}"ld.shared.b64 $0, [$1];"
// CHECK:       "{{.*}}@p fence.proxy.tensormap::generic.acquire.gpu [$1], 128;{{.*}}@p prefetch.tensormap [$1];{{.*}}" %{{.*}}, %[[MAP]]
// CHECK:       scf.if
// CHECK-NEXT:    llvm.inline_asm has_side_effects {{.*}}"setmaxnreg.dec.sync.aligned.u32 40;"
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         "@$2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;"{{.*}}, %[[TRUE]]
// CHECK:         %[[TRUE2:.*]] = arith.constant true
// CHECK:         "@$5 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,b" {{.*}}, %[[TRUE2]] :
// CHECK:       } else {
// CHECK-NEXT:    llvm.inline_asm has_side_effects {{.*}}"setmaxnreg.inc.sync.aligned.u32 232;"
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[ID:.*]] = arith.constant 15 : i32
// CHECK-NEXT:    %[[N:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK-NOT:     gpu.barrier
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}} {tilegpu.shared_only}
// CHECK-NOT:     gpu.barrier
// A map the consumers build (attention's output descriptor, after its
// loop) serves them only: no address through the scratch.
// CHECK:         tensormap.cp_fenceproxy
// CHECK-NOT:     ld.shared.b64
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
module {
  func.func @specialized(%base: !tile.ptr<f16>, %m: i64, %k: i64, %s: i64, %r: i32, %c: i32,
                         %x: tensor<32x32xf32, #blk>)
      attributes {tilegpu.num_warps = 8 : i32, tilegpu.producer_warps = 4 : i32} {
    %one = arith.constant 1 : i64
    %map = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 64] {tilegpu.scratch_offset = 16512 : i32} : !tile.ptr<f16>
    %tile = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sT>
    %bar = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<1xi64, #sBar>
    %tid = gpu.thread_id x
    %t = arith.index_cast %tid : index to i32
    %c256 = arith.constant 256 : i32
    %producer = arith.cmpi uge, %t, %c256 : i32
    scf.if %producer {
      tilegpu.set_max_registers 40
      tilegpu.mbarrier_expect_tx %bar, 8192 single_thread : !tilegpu.memdesc<1xi64, #sBar>
      tilegpu.async_tma_copy %map[%r, %c], %tile, %bar single_thread : !tilegpu.memdesc<64x64xf16, #sT>, !tilegpu.memdesc<1xi64, #sBar>
    } else {
      tilegpu.set_max_registers 232 increase
      %y = tilegpu.convert_layout %x : tensor<32x32xf32, #blk> -> tensor<32x32xf32, #blkT>
      tilegpu.local_alloc %y {offset = 8192 : i32} : (tensor<32x32xf32, #blkT>) -> !tilegpu.memdesc<32x32xf32, #sBar>
      %out = tile.make_tensor_map %base, [%m, %k], [%s, %one] block [64, 64] {tilegpu.scratch_offset = 16512 : i32} : !tile.ptr<f16>
      tilegpu.async_tma_store %out[%r, %c], %tile : !tilegpu.memdesc<64x64xf16, #sT>
    } {tilegpu.warp_specialized = 256 : i32}
    return
  }
}
