// RUN: tile-opt %s | tile-opt | FileCheck %s
// Shared-memory encodings, memdesc types and the ops on them print and
// parse back unchanged.

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>

// CHECK-LABEL: func.func @ops
// CHECK: %[[R:.*]] = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<3x64x32xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
// CHECK: %[[T:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x32xf16, {{.*}}>) -> !tilegpu.memdesc<64x32xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
// CHECK: %[[V:.*]] = tilegpu.memdesc_index %[[R]][%{{.*}}] : !tilegpu.memdesc<3x64x32xf16, {{.*}}> -> !tilegpu.memdesc<64x32xf16, {{.*}}>
// CHECK: tilegpu.async_copy %{{.*}}, %[[V]] mask %{{.*}} : tensor<64x32x!tile.ptr<f16>, {{.*}}>, !tilegpu.memdesc<64x32xf16, {{.*}}>, tensor<64x32xi1, {{.*}}>
// CHECK: tilegpu.async_copy %{{.*}}, %[[V]] : tensor<64x32x!tile.ptr<f16>, {{.*}}>, !tilegpu.memdesc<64x32xf16, {{.*}}>
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_wait 2
// CHECK: tilegpu.local_load %[[V]] {offsets = array<i64: 0, 16>} : !tilegpu.memdesc<64x32xf16, {{.*}}> -> tensor<64x16xf16, #tilegpu.dot_op
// CHECK: tilegpu.local_load %[[T]] : !tilegpu.memdesc<64x32xf16, {{.*}}> -> tensor<64x32xf16, #tilegpu.blocked
func.func @ops(%x: tensor<64x32xf16, #b>, %p: tensor<64x32x!tile.ptr<f16>, #b>, %m: tensor<64x32xi1, #b>, %i: i32) {
  %ring = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<3x64x32xf16, #s>
  %t = tilegpu.local_alloc %x : (tensor<64x32xf16, #b>) -> !tilegpu.memdesc<64x32xf16, #s>
  %v = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x64x32xf16, #s> -> !tilegpu.memdesc<64x32xf16, #s>
  tilegpu.async_copy %p, %v mask %m : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<64x32xf16, #s>, tensor<64x32xi1, #b>
  tilegpu.async_copy %p, %v : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<64x32xf16, #s>
  tilegpu.async_commit_group
  tilegpu.async_wait 2
  %a = tilegpu.local_load %v {offsets = array<i64: 0, 16>} : !tilegpu.memdesc<64x32xf16, #s> -> tensor<64x16xf16, #dotA>
  %c = tilegpu.local_load %t : !tilegpu.memdesc<64x32xf16, #s> -> tensor<64x32xf16, #b>
  return
}

// A transposed view of a wgmma tile: the encoding's order follows the
// dimensions it names.
// CHECK-LABEL: func.func @transposed_view
// CHECK: tilegpu.memdesc_trans %{{.*}}, [1, 0] : !tilegpu.memdesc<128x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>> -> !tilegpu.memdesc<64x128xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>>
#sw = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#swt = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
func.func @transposed_view(%m: !tilegpu.memdesc<128x64xf16, #sw>) -> !tilegpu.memdesc<64x128xf16, #swt> {
  %t = tilegpu.memdesc_trans %m, [1, 0] : !tilegpu.memdesc<128x64xf16, #sw> -> !tilegpu.memdesc<64x128xf16, #swt>
  return %t : !tilegpu.memdesc<64x128xf16, #swt>
}

// A copy with a run length and no mask prints and parses back (its type
// stands beside it, so it is never taken for the mask's).
// CHECK-LABEL: func.func @run_length_only
// CHECK: tilegpu.async_copy %{{.*}}, %{{.*}} run_length(%{{.*}} : tensor<64x32xi32, {{.*}}>) : tensor<64x32x!tile.ptr<f16>, {{.*}}>, !tilegpu.memdesc<64x32xf16, {{.*}}>
#bRL = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sRL = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
func.func @run_length_only(%p: tensor<64x32x!tile.ptr<f16>, #bRL>, %len: tensor<64x32xi32, #bRL>) {
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #sRL>
  tilegpu.async_copy %p, %m run_length(%len : tensor<64x32xi32, #bRL>) : tensor<64x32x!tile.ptr<f16>, #bRL>, !tilegpu.memdesc<64x32xf16, #sRL>
  return
}

// TMA copies and the expect-tx arrival that announces their bytes.
// CHECK-LABEL: func.func @tma_copy
// CHECK: tilegpu.mbarrier_expect_tx %[[B:.*]], 16384 if %{{.*}} : !tilegpu.memdesc<1xi64, {{.*}}>
// CHECK: tilegpu.async_tma_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[B]] if %{{.*}} : !tilegpu.memdesc<128x64xf16, {{.*}}>, !tilegpu.memdesc<1xi64, {{.*}}>
// CHECK: tilegpu.async_tma_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[B]] : !tilegpu.memdesc
// CHECK: tilegpu.async_tma_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tilegpu.memdesc<128x64xf16
#sTMA = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sBar = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tma_copy(%map: !tile.tensormap, %r: i32, %c: i32, %pred: i1) {
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x64xf16, #sTMA>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #sBar>
  tilegpu.mbarrier_expect_tx %bar, 16384 if %pred : !tilegpu.memdesc<1xi64, #sBar>
  tilegpu.async_tma_copy %map[%r, %c], %m, %bar if %pred : !tilegpu.memdesc<128x64xf16, #sTMA>, !tilegpu.memdesc<1xi64, #sBar>
  tilegpu.async_tma_copy %map[%r, %c], %m, %bar : !tilegpu.memdesc<128x64xf16, #sTMA>, !tilegpu.memdesc<1xi64, #sBar>
  tilegpu.async_tma_store %map[%r, %c], %m : !tilegpu.memdesc<128x64xf16, #sTMA>
  return
}
