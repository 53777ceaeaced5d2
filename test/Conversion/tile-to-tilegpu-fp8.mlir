// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=true | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=false | FileCheck %s --check-prefix=SYNC
// Dots of fp8 blocks: wgmma's fp8 form reads both operands K-major from
// shared memory, so a dot whose loads run along K (A contiguous along its
// columns, B along its rows) keeps its fp8 operands and the version-3
// layout; one whose B runs along N gets fp16 widenings of both operands
// (exact) and the fp16 path. Without wgmma, a dot whose loads run along K
// takes mma.sync's fp8 form (m16n8k32, four consecutive K elements a
// thread: kWidth 4); the others are widened.

// CHECK-LABEL: func.func @kmajor
// CHECK-NOT: arith.extf
// CHECK: tile.dot {{.*}} : tensor<64x64xf8E4M3FN, {{.*}}> * tensor<64x64xf8E5M2, {{.*}}> -> tensor<64x64xf32, #tilegpu.mma<version = 3,
// CHECK-LABEL: func.func @nmajor
// CHECK-DAG: arith.extf {{.*}} : tensor<64x64xf8E4M3FN, {{.*}}> to tensor<64x64xf16,
// CHECK-DAG: arith.extf {{.*}} : tensor<64x64xf8E5M2, {{.*}}> to tensor<64x64xf16,
// CHECK: tile.dot {{.*}} : tensor<64x64xf16, {{.*}}> * tensor<64x64xf16, {{.*}}> -> tensor<64x64xf32, #tilegpu.mma<version = 3,
// B the transpose of a loaded N x K tile (b.T, attention's K^T) is
// K-major too.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: arith.extf
// CHECK: tile.dot {{.*}} : tensor<64x64xf8E4M3FN, {{.*}}> * tensor<64x64xf8E4M3FN, {{.*}}> -> tensor<64x64xf32, #tilegpu.mma<version = 3,
// A 64-row tile on 8 warps: two warpgroups side by side along N, each 32
// columns wide (a K-major B stores each column as a row, so a warpgroup's
// columns need not start on a 128-byte line).
// CHECK-LABEL: func.func @kmajor_8_warps
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32]>>
// SYNC-LABEL: func.func @kmajor
// SYNC-NOT: arith.extf
// SYNC: tile.dot {{.*}} : tensor<64x64xf8E4M3FN, #tilegpu.dot_op<opIdx = 0, parent = <version = 2, {{.*}}>, kWidth = 4>> * tensor<64x64xf8E5M2, #tilegpu.dot_op<opIdx = 1, parent = <version = 2, {{.*}}>, kWidth = 4>> -> tensor<64x64xf32, #tilegpu.mma<version = 2,
// SYNC-LABEL: func.func @nmajor
// SYNC: arith.extf {{.*}} : tensor<64x64xf8E4M3FN, {{.*}}> to tensor<64x64xf16,
// SYNC: tile.dot {{.*}} kWidth = 2>> -> tensor<64x64xf32, #tilegpu.mma<version = 2,
module {
  func.func @kmajor(%arg0: !tile.ptr<f8E4M3FN>, %arg1: !tile.ptr<f8E5M2>, %arg2: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<1x64xi32>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<f8E4M3FN>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<f8E4M3FN>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f8E5M2>>
    %11 = tile.addptr %10, %1 : tensor<64x1x!tile.ptr<f8E5M2>>, tensor<64x1xi32>
    %12 = arith.muli %5, %cst : tensor<1x64xi32>
    %13 = tile.broadcast %11 : tensor<64x1x!tile.ptr<f8E5M2>> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %14 = tile.broadcast %12 : tensor<1x64xi32> -> tensor<64x64xi32>
    %15 = tile.addptr %13, %14 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %16 = tile.load %15 : tensor<64x64x!tile.ptr<f8E5M2>>
    %17 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>>
    %18 = tile.addptr %17, %2 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
    %19 = tile.broadcast %18 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
    %20 = tile.addptr %19, %7 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %21 = tile.dot %9, %16, %cst_1 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<64x64xf32>
    tile.store %20, %21 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @nmajor(%arg0: !tile.ptr<f8E4M3FN>, %arg1: !tile.ptr<f8E5M2>, %arg2: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<64x1xi32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<f8E4M3FN>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<f8E4M3FN>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f8E5M2>>
    %11 = tile.addptr %10, %2 : tensor<64x1x!tile.ptr<f8E5M2>>, tensor<64x1xi32>
    %12 = tile.broadcast %11 : tensor<64x1x!tile.ptr<f8E5M2>> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %13 = tile.addptr %12, %7 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %14 = tile.load %13 : tensor<64x64x!tile.ptr<f8E5M2>>
    %15 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>>
    %16 = tile.addptr %15, %2 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
    %17 = tile.broadcast %16 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
    %18 = tile.addptr %17, %7 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %19 = tile.dot %9, %14, %cst_0 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<64x64xf32>
    tile.store %18, %19 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @transposed(%arg0: !tile.ptr<f8E4M3FN>, %arg1: !tile.ptr<f8E4M3FN>, %arg2: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<64x1xi32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<f8E4M3FN>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<f8E4M3FN>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f8E4M3FN>>
    %11 = tile.addptr %10, %2 : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %12 = tile.broadcast %11 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %13 = tile.addptr %12, %7 : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %14 = tile.load %13 : tensor<64x64x!tile.ptr<f8E4M3FN>>
    %15 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>>
    %16 = tile.addptr %15, %2 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
    %17 = tile.broadcast %16 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
    %18 = tile.addptr %17, %7 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %19 = tile.trans %14, [1, 0] : tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
    %20 = tile.dot %9, %19, %cst_0 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
    tile.store %18, %20 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @kmajor_8_warps(%arg0: !tile.ptr<f8E4M3FN>, %arg1: !tile.ptr<f8E5M2>, %arg2: !tile.ptr<f32>) attributes {tilegpu.num_warps = 8 : i32} {
    %cst = arith.constant dense<64> : tensor<1x64xi32>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<f8E4M3FN>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<f8E4M3FN>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f8E5M2>>
    %11 = tile.addptr %10, %1 : tensor<64x1x!tile.ptr<f8E5M2>>, tensor<64x1xi32>
    %12 = arith.muli %5, %cst : tensor<1x64xi32>
    %13 = tile.broadcast %11 : tensor<64x1x!tile.ptr<f8E5M2>> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %14 = tile.broadcast %12 : tensor<1x64xi32> -> tensor<64x64xi32>
    %15 = tile.addptr %13, %14 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %16 = tile.load %15 : tensor<64x64x!tile.ptr<f8E5M2>>
    %17 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>>
    %18 = tile.addptr %17, %2 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
    %19 = tile.broadcast %18 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
    %20 = tile.addptr %19, %7 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %21 = tile.dot %9, %16, %cst_1 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<64x64xf32>
    tile.store %20, %21 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}
