// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --convert-tilegpu-to-gpu | FileCheck %s --check-prefix=LOWER
// A k-slice of a dot operand held in registers prints and parses back, and
// lowers to the registers that hold it: with 4 warps on rows, each thread
// owns 32 halves of the 64x64 operand, 8 per 16-wide slice, and the slice
// at k = 16 is registers 8-15 of the source in the same order.

#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>

// CHECK-LABEL: func.func @slice
// CHECK: tilegpu.extract_slice %arg0 [0, 16] : tensor<64x64xf16, #tilegpu.dot_op<{{.*}}>> -> tensor<64x16xf16, #tilegpu.dot_op<{{.*}}>>
// LOWER-LABEL: gpu.func @slice
// LOWER-NOT: arith.bitcast %arg7 :
// LOWER: arith.bitcast %arg8 :
// LOWER: arith.bitcast %arg9 :
// LOWER: arith.bitcast %arg10 :
// LOWER: arith.bitcast %arg11 :
// LOWER: arith.bitcast %arg12 :
// LOWER: arith.bitcast %arg13 :
// LOWER: arith.bitcast %arg14 :
// LOWER: arith.bitcast %arg15 :
// LOWER-NOT: arith.bitcast
// LOWER: gpu.return
func.func @slice(%a: tensor<64x64xf16, #dotA>, %p: !tile.ptr<f16>) attributes {tile.kernel, tilegpu.num_warps = 4 : i32} {
  %s = tilegpu.extract_slice %a [0, 16] : tensor<64x64xf16, #dotA> -> tensor<64x16xf16, #dotA>
  %ps = tile.splat %p : tensor<64x16x!tile.ptr<f16>, #dotA>
  tile.store %ps, %s : tensor<64x16x!tile.ptr<f16>, #dotA>
  return
}
