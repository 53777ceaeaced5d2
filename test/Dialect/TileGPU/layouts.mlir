// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -canonicalize | FileCheck %s --check-prefix=CANON

// Round trip of blocked and slice encodings on tensors, and of
// convert_layout between them.

// CHECK-LABEL: func.func @encodings
// CHECK-SAME: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
// CHECK-SAME: tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK-SAME: tensor<64x!tile.ptr<f32>, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>>
// CHECK-SAME: tensor<16xf16, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>
// CHECK-SAME: tensor<4x8x16xi32, #tilegpu.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 2], order = [2, 0, 1]>>
func.func @encodings(
    %a: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>,
    %b: tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>,
    %c: tensor<64x!tile.ptr<f32>, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>>,
    %d: tensor<16xf16, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>,
    %e: tensor<4x8x16xi32, #tilegpu.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 2], order = [2, 0, 1]>>) {
  return
}

// CHECK-LABEL: func.func @convert
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<16xf16, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>> -> tensor<16xf16, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
func.func @convert(
    %b: tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>,
    %d: tensor<16xf16, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>) {
  %0 = tilegpu.convert_layout %b : tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<16x32xf16, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>
  %1 = tilegpu.convert_layout %d : tensor<16xf16, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>> -> tensor<16xf16, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  return
}

// Canonicalization of convert_layout.

// convert(convert(x)) -> convert(x).
// CANON-LABEL: func.func @chain
// CANON-SAME: (%[[X:[^:]*]]: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>)
// CANON-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[X]] : tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
// CANON-NEXT: return %[[C]]
func.func @chain(%x: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>)
    -> tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>> {
  %0 = tilegpu.convert_layout %x : tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>> -> tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>>
  %1 = tilegpu.convert_layout %0 : tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>> -> tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
  return %1 : tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
}

// A chain back to the original layout disappears.
// CANON-LABEL: func.func @round_trip
// CANON-SAME: (%[[X:[^:]*]]: tensor<128xf32,
// CANON-NOT: tilegpu.convert_layout
// CANON: return %[[X]]
func.func @round_trip(%x: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>)
    -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> {
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
  %1 = tilegpu.convert_layout %0 : tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>> -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  return %1 : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
}

// A conversion to the same layout folds away.
// CANON-LABEL: func.func @identity
// CANON-SAME: (%[[X:[^:]*]]: tensor<128xf32,
// CANON-NEXT: return %[[X]]
func.func @identity(%x: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>)
    -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> {
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  return %0 : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
}

// splat and make_range are rebuilt in the new layout.
// CANON-LABEL: func.func @rematerialize
// CANON-SAME: (%[[S:[^:]*]]: f32)
// CANON-DAG: %[[SPLAT:.*]] = tile.splat %[[S]] : tensor<64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>
// CANON-DAG: %[[RANGE:.*]] = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>
// CANON-NOT: tilegpu.convert_layout
// CANON: return %[[SPLAT]], %[[RANGE]]
func.func @rematerialize(%s: f32)
    -> (tensor<64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>,
        tensor<64xi32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>) {
  %0 = tile.splat %s : tensor<64xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  %1 = tilegpu.convert_layout %0 : tensor<64xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>
  %2 = tile.make_range 0 to 64 : tensor<64xi32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  %3 = tilegpu.convert_layout %2 : tensor<64xi32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>> -> tensor<64xi32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>
  return %1, %3 : tensor<64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>,
                  tensor<64xi32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>>>
}

// A linear encoding lists its register, lane and warp bases, `rank`
// coordinates each (here an mma accumulator's columns split in two halves:
// the last register basis selects the half).
// CHECK-LABEL: func.func @linear
// CHECK-SAME: tensor<16x2x4xf32, #tilegpu.linear<rank = 3, regs = [0, 0, 1, 8, 0, 0, 0, 1, 0], lanes = [0, 0, 2, 1, 0, 0, 2, 0, 0, 4, 0, 0, 0, 0, 0], warps = [0, 0, 0]>>
// CHECK-SAME: tensor<8xf32, #tilegpu.linear<rank = 1, regs = [], lanes = [0, 0, 1, 2, 4], warps = []>>
func.func @linear(
    %a: tensor<16x2x4xf32, #tilegpu.linear<rank = 3, regs = [0, 0, 1, 8, 0, 0, 0, 1, 0], lanes = [0, 0, 2, 1, 0, 0, 2, 0, 0, 4, 0, 0, 0, 0, 0], warps = [0, 0, 0]>>,
    %b: tensor<8xf32, #tilegpu.linear<rank = 1, regs = [], lanes = [0, 0, 1, 2, 4], warps = []>>) {
  return
}
