// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -canonicalize | FileCheck %s --check-prefix=CANON

// tilegpu.convert_layout on tensors without encodings (layouts.mlir covers
// the encoded forms). Converting to the same type folds away, chains
// included.

// CHECK-LABEL: func.func @convert
// CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<16x32xf16> -> tensor<16x32xf16>
// CHECK: tilegpu.convert_layout %[[C]] : tensor<16x32xf16> -> tensor<16x32xf16>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x!tile.ptr<f32>> -> tensor<64x!tile.ptr<f32>>
// CANON-LABEL: func.func @convert
// CANON-SAME: (%[[X:[^:]*]]: tensor<16x32xf16>, %[[P:[^:]*]]: tensor<64x!tile.ptr<f32>>)
// CANON-NOT: tilegpu.convert_layout
// CANON: return %[[X]], %[[P]]
func.func @convert(%x: tensor<16x32xf16>, %p: tensor<64x!tile.ptr<f32>>) -> (tensor<16x32xf16>, tensor<64x!tile.ptr<f32>>) {
  %0 = tilegpu.convert_layout %x : tensor<16x32xf16> -> tensor<16x32xf16>
  %1 = tilegpu.convert_layout %0 : tensor<16x32xf16> -> tensor<16x32xf16>
  %2 = tilegpu.convert_layout %p : tensor<64x!tile.ptr<f32>> -> tensor<64x!tile.ptr<f32>>
  return %1, %2 : tensor<16x32xf16>, tensor<64x!tile.ptr<f32>>
}
