// RUN: tile-opt %s --tilegpu-tma-stores | FileCheck %s
// RUN: tile-opt %s --tilegpu-tma-stores=enabled=false | FileCheck %s --check-prefix=OFF

// A descriptor's block store whose threads would store narrow pieces (here
// 2 elements) becomes, where the tensor's rows are whole 16-byte units
// (cols * 2 bytes), a local_alloc in the TMA box layout and a TMA store;
// elsewhere the threads' store, without its map. A store of whole 16-byte
// vectors keeps the threads' store. Without TMA, maps are dropped.
#b = #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#b8 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @narrow_store
// CHECK: %[[MAP:.*]] = tile.make_tensor_map %{{.*}}, [%{{.*}}, %[[COLS:[a-z0-9]*]]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[COLS]], %c2_i64 : i64
// CHECK: %[[PART:.*]] = arith.andi %[[BYTES]], %c15_i64 : i64
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[PART]], %c0_i64 : i64
// CHECK: scf.if %[[WHOLE]] {
// CHECK:   %[[TILE:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16, #{{.*}}>) -> !tilegpu.memdesc<64x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>
// CHECK:   tilegpu.async_tma_store %[[MAP]][%{{.*}}, %{{.*}}], %[[TILE]]
// CHECK: } else {
// CHECK:   tile.store %{{.*}}, %{{.*}}, %{{.*}} {tilegpu.vec = 2 : i32} : tensor<64x64x!tile.ptr<f16>
// CHECK: }
// OFF-LABEL: func.func @narrow_store
// OFF-NOT: scf.if
// OFF: tile.store %{{.*}}, %{{.*}}, %{{.*}} {tilegpu.vec = 2 : i32} :
func.func @narrow_store(%base: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %r: i32, %c: i32,
                        %p: tensor<64x64x!tile.ptr<f16>, #b>, %v: tensor<64x64xf16, #b>,
                        %mask: tensor<64x64xi1, #b>) attributes {tilegpu.num_warps = 4 : i32} {
  %one = arith.constant 1 : i64
  %map = tile.make_tensor_map %base, [%m, %n], [%s, %one] block [64, 64] : !tile.ptr<f16>
  tile.store %p, %v, %mask tma(%map[%r, %c]) {tilegpu.vec = 2 : i32} : tensor<64x64x!tile.ptr<f16>, #b>
  return
}

// CHECK-LABEL: func.func @vector_store
// CHECK-NOT: tilegpu.async_tma_store
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>
func.func @vector_store(%base: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %r: i32, %c: i32,
                        %p: tensor<64x64x!tile.ptr<f16>, #b8>, %v: tensor<64x64xf16, #b8>,
                        %mask: tensor<64x64xi1, #b8>) attributes {tilegpu.num_warps = 4 : i32} {
  %one = arith.constant 1 : i64
  %map = tile.make_tensor_map %base, [%m, %n], [%s, %one] block [64, 64] : !tile.ptr<f16>
  tile.store %p, %v, %mask tma(%map[%r, %c]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #b8>
  return
}

// An accumulator converted to a blocked layout only for the threads' store
// is staged for the TMA store from its wgmma layout (pairs of columns: 4
// bytes per access): the conversion moves into the threads' branch, and
// the `.to(fp16)` that only it used goes into both branches.
#acc = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
// CHECK-LABEL: func.func @converted_accumulator
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT:   %[[HALF:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #{{.*}}> to tensor<64x64xf16, #tilegpu.mma
// CHECK-NEXT:   %[[TILE:.*]] = tilegpu.local_alloc %[[HALF]] : (tensor<64x64xf16, #tilegpu.mma
// CHECK-NEXT:   tilegpu.async_tma_store %{{.*}}[%{{.*}}, %{{.*}}], %[[TILE]]
// CHECK: } else {
// CHECK-NEXT:   %[[HALF2:.*]] = arith.truncf
// CHECK-NEXT:   %[[BLOCKED:.*]] = tilegpu.convert_layout %[[HALF2]]
// CHECK-NEXT:   tile.store %{{.*}}, %[[BLOCKED]], %{{.*}} {tilegpu.vec = 2 : i32}
// CHECK: }
func.func @converted_accumulator(%base: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %r: i32, %c: i32,
                                 %p: tensor<64x64x!tile.ptr<f16>, #b>, %acc: tensor<64x64xf32, #acc>,
                                 %mask: tensor<64x64xi1, #b>) attributes {tilegpu.num_warps = 4 : i32} {
  %one = arith.constant 1 : i64
  %map = tile.make_tensor_map %base, [%m, %n], [%s, %one] block [64, 64] : !tile.ptr<f16>
  %half = arith.truncf %acc : tensor<64x64xf32, #acc> to tensor<64x64xf16, #acc>
  %v = tilegpu.convert_layout %half : tensor<64x64xf16, #acc> -> tensor<64x64xf16, #b>
  tile.store %p, %v, %mask tma(%map[%r, %c]) {tilegpu.vec = 2 : i32} : tensor<64x64x!tile.ptr<f16>, #b>
  return
}

// A source that would write shared memory one 2-byte element at a time
// (one column per thread) stays converted before the branch.
#cols = #tilegpu.blocked<sizePerThread = [2, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @narrow_source
// CHECK: %[[CONVERTED:.*]] = tilegpu.convert_layout
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT:   tilegpu.local_alloc %[[CONVERTED]]
func.func @narrow_source(%base: !tile.ptr<f16>, %m: i64, %n: i64, %s: i64, %r: i32, %c: i32,
                         %p: tensor<64x64x!tile.ptr<f16>, #b>, %x: tensor<64x64xf16, #cols>,
                         %mask: tensor<64x64xi1, #b>) attributes {tilegpu.num_warps = 4 : i32} {
  %one = arith.constant 1 : i64
  %map = tile.make_tensor_map %base, [%m, %n], [%s, %one] block [64, 64] : !tile.ptr<f16>
  %v = tilegpu.convert_layout %x : tensor<64x64xf16, #cols> -> tensor<64x64xf16, #b>
  tile.store %p, %v, %mask tma(%map[%r, %c]) {tilegpu.vec = 2 : i32} : tensor<64x64x!tile.ptr<f16>, #b>
  return
}
