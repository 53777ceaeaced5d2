// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=true | FileCheck %s
// A tf32 dot whose A loads along M (a weight gradient's X^T @ dY) and
// whose B loads along K is marked for wgmma as it is: wgmma's tf32 form
// reads such an A into registers (tilegpu-shared-dot-operands stages it as
// loaded, the wgmma lowering reads its fragments). With B along N as well
// neither the product nor its transpose has a K-major B: mma.sync.

// CHECK-LABEL: func.func @m_major_a
// CHECK-NOT: tile.trans
// CHECK: tile.dot {{.*}} {tilegpu.k_major_wgmma} : tensor<128x32xf32, #tilegpu.dot_op<opIdx = 0, {{.*}}> * tensor<32x64xf32, {{.*}}> -> tensor<128x64xf32, #tilegpu.mma<version = 3
// CHECK-LABEL: func.func @neither
// CHECK-NOT: tile.trans
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2
module {
  func.func @m_major_a(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<128x1xi32>
    %cst_0 = arith.constant dense<32> : tensor<1x64xi32>
    %cst_1 = arith.constant dense<128> : tensor<1x32xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %0 = tile.make_range 0 to 128 : tensor<128xi32>
    %1 = tile.make_range 0 to 64 : tensor<64xi32>
    %2 = tile.make_range 0 to 32 : tensor<32xi32>
    %3 = tile.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f32>>
    %5 = tile.addptr %4, %3 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %6 = tile.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %7 = arith.muli %6, %cst_1 : tensor<1x32xi32>
    %8 = tile.broadcast %5 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x32x!tile.ptr<f32>>
    %9 = tile.broadcast %7 : tensor<1x32xi32> -> tensor<128x32xi32>
    %10 = tile.addptr %8, %9 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
    %11 = tile.load %10 : tensor<128x32x!tile.ptr<f32>>
    %12 = tile.expand_dims %2 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %13 = tile.splat %arg1 : tensor<32x1x!tile.ptr<f32>>
    %14 = tile.addptr %13, %12 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %15 = tile.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %16 = arith.muli %15, %cst_0 : tensor<1x64xi32>
    %17 = tile.broadcast %14 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %18 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<32x64xi32>
    %19 = tile.addptr %17, %18 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %20 = tile.load %19 : tensor<32x64x!tile.ptr<f32>>
    %21 = arith.muli %3, %cst : tensor<128x1xi32>
    %22 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f32>>
    %23 = tile.addptr %22, %21 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %24 = tile.broadcast %23 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x64x!tile.ptr<f32>>
    %25 = tile.broadcast %15 : tensor<1x64xi32> -> tensor<128x64xi32>
    %26 = tile.addptr %24, %25 : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
    %27 = tile.dot %11, %20, %cst_2 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
    tile.store %26, %27 : tensor<128x64x!tile.ptr<f32>>
    return
  }
  func.func @neither(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<128x1xi32>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32>
    %cst_1 = arith.constant dense<128> : tensor<1x32xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %0 = tile.make_range 0 to 128 : tensor<128xi32>
    %1 = tile.make_range 0 to 64 : tensor<64xi32>
    %2 = tile.make_range 0 to 32 : tensor<32xi32>
    %3 = tile.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f32>>
    %5 = tile.addptr %4, %3 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %6 = tile.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %7 = arith.muli %6, %cst_1 : tensor<1x32xi32>
    %8 = tile.broadcast %5 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x32x!tile.ptr<f32>>
    %9 = tile.broadcast %7 : tensor<1x32xi32> -> tensor<128x32xi32>
    %10 = tile.addptr %8, %9 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
    %11 = tile.load %10 : tensor<128x32x!tile.ptr<f32>>
    %12 = tile.expand_dims %2 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %13 = arith.muli %12, %cst_0 : tensor<32x1xi32>
    %14 = tile.splat %arg1 : tensor<32x1x!tile.ptr<f32>>
    %15 = tile.addptr %14, %13 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %16 = tile.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %17 = tile.broadcast %15 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %18 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<32x64xi32>
    %19 = tile.addptr %17, %18 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %20 = tile.load %19 : tensor<32x64x!tile.ptr<f32>>
    %21 = arith.muli %3, %cst : tensor<128x1xi32>
    %22 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f32>>
    %23 = tile.addptr %22, %21 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %24 = tile.broadcast %23 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x64x!tile.ptr<f32>>
    %25 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<128x64xi32>
    %26 = tile.addptr %24, %25 : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
    %27 = tile.dot %11, %20, %cst_2 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
    tile.store %26, %27 : tensor<128x64x!tile.ptr<f32>>
    return
  }
}
