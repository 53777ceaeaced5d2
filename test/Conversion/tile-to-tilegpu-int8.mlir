// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=true | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=false | FileCheck %s --check-prefix=SYNC
// Dots of int8 blocks into int32: wgmma's s8 form reads both operands
// K-major from shared memory, so a dot whose loads run along K (A along
// its columns, B along its rows) gets the version-3 layout; one whose B
// runs along N, and every int8 dot without wgmma, gets mma.sync's s8 form
// (m16n8k32: a thread holds four consecutive K elements, kWidth 4).

// CHECK-LABEL: func.func @kmajor
// CHECK: tile.dot {{.*}} {tilegpu.k_major_wgmma} : tensor<64x64xi8, #tilegpu.dot_op<opIdx = 0, {{.*}}> * tensor<64x64xi8, #tilegpu.dot_op<opIdx = 1, {{.*}}> -> tensor<64x64xi32, #tilegpu.mma<version = 3,
// CHECK-LABEL: func.func @nmajor
// CHECK-NOT: k_major_wgmma
// CHECK: tile.dot {{.*}} : tensor<64x64xi8, #tilegpu.dot_op<opIdx = 0, parent = <version = 2, {{.*}}>, kWidth = 4>> * tensor<64x64xi8, #tilegpu.dot_op<opIdx = 1, parent = <version = 2, {{.*}}>, kWidth = 4>> -> tensor<64x64xi32, #tilegpu.mma<version = 2,
// SYNC-LABEL: func.func @kmajor
// SYNC: tile.dot {{.*}} kWidth = 4>> -> tensor<64x64xi32, #tilegpu.mma<version = 2,
module {
  func.func @kmajor(%arg0: !tile.ptr<i8>, %arg1: !tile.ptr<i8>, %arg2: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<1x64xi32>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi32>
    %cst_1 = arith.constant dense<0> : tensor<64x64xi32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<i8>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<i8>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<i8>>
    %11 = tile.addptr %10, %1 : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
    %12 = arith.muli %5, %cst : tensor<1x64xi32>
    %13 = tile.broadcast %11 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
    %14 = tile.broadcast %12 : tensor<1x64xi32> -> tensor<64x64xi32>
    %15 = tile.addptr %13, %14 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    %16 = tile.load %15 : tensor<64x64x!tile.ptr<i8>>
    %17 = tile.splat %arg2 : tensor<64x1x!tile.ptr<i32>>
    %18 = tile.addptr %17, %2 : tensor<64x1x!tile.ptr<i32>>, tensor<64x1xi32>
    %19 = tile.broadcast %18 : tensor<64x1x!tile.ptr<i32>> -> tensor<64x64x!tile.ptr<i32>>
    %20 = tile.addptr %19, %7 : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
    %21 = tile.dot %9, %16, %cst_1 : tensor<64x64xi8> * tensor<64x64xi8> -> tensor<64x64xi32>
    tile.store %20, %21 : tensor<64x64x!tile.ptr<i32>>
    return
  }
  func.func @nmajor(%arg0: !tile.ptr<i8>, %arg1: !tile.ptr<i8>, %arg2: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<64x1xi32>
    %cst_0 = arith.constant dense<0> : tensor<64x64xi32>
    %0 = tile.make_range 0 to 64 : tensor<64xi32>
    %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = arith.muli %1, %cst : tensor<64x1xi32>
    %3 = tile.splat %arg0 : tensor<64x1x!tile.ptr<i8>>
    %4 = tile.addptr %3, %2 : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
    %5 = tile.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %6 = tile.broadcast %4 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
    %7 = tile.broadcast %5 : tensor<1x64xi32> -> tensor<64x64xi32>
    %8 = tile.addptr %6, %7 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    %9 = tile.load %8 : tensor<64x64x!tile.ptr<i8>>
    %10 = tile.splat %arg1 : tensor<64x1x!tile.ptr<i8>>
    %11 = tile.addptr %10, %2 : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
    %12 = tile.broadcast %11 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
    %13 = tile.addptr %12, %7 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    %14 = tile.load %13 : tensor<64x64x!tile.ptr<i8>>
    %15 = tile.splat %arg2 : tensor<64x1x!tile.ptr<i32>>
    %16 = tile.addptr %15, %2 : tensor<64x1x!tile.ptr<i32>>, tensor<64x1xi32>
    %17 = tile.broadcast %16 : tensor<64x1x!tile.ptr<i32>> -> tensor<64x64x!tile.ptr<i32>>
    %18 = tile.addptr %17, %7 : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
    %19 = tile.dot %9, %14, %cst_0 : tensor<64x64xi8> * tensor<64x64xi8> -> tensor<64x64xi32>
    tile.store %18, %19 : tensor<64x64x!tile.ptr<i32>>
    return
  }
}
