// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=true | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-wgmma=false | FileCheck %s --check-prefix=SYNC
// A tf32 dot of fp32 blocks whose A loads along K but whose B loads along
// N (row-major B: the tutorial matmul on fp32 pointers) is computed as its
// transpose, D^T = B^T A^T + C^T, which wgmma's tf32 form takes (A^T is
// the K-major B it reads from shared memory, B^T the A it reads into
// registers). An accumulator a loop carries is carried transposed (zeros
// are their own transpose) and transposed once after the loop, in
// registers: the result's layout is the #mma layout with its dimensions
// swapped (#linear). An accumulator the loop also changes otherwise
// (rescaled) is not transposed: it would be a tile of its own layout,
// moved through shared memory twice an iteration; mma.sync takes that dot,
// as every one without wgmma.

// CHECK-LABEL: func.func @loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>>
// CHECK: %[[LOOP:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], {{.*}}) -> (tensor<64x128xf32, #tilegpu.mma<version = 3
// CHECK: %[[A:.*]] = tile.load {{.*}} : tensor<128x32x!tile.ptr<f32>
// CHECK: %[[B:.*]] = tile.load {{.*}} : tensor<32x64x!tile.ptr<f32>
// CHECK: %[[AT:.*]] = tile.trans %[[A]], [1, 0] : {{.*}} -> tensor<32x128xf32, #tilegpu.blocked<{{.*}}order = [0, 1]>>
// CHECK: %[[BT:.*]] = tile.trans %[[B]], [1, 0] : {{.*}} -> tensor<64x32xf32, #tilegpu.blocked<{{.*}}order = [0, 1]>>
// CHECK: %[[OPA:.*]] = tilegpu.convert_layout %[[BT]] : {{.*}} -> tensor<64x32xf32, #tilegpu.dot_op<opIdx = 0, {{.*}}, kWidth = 1>>
// CHECK: %[[OPB:.*]] = tilegpu.convert_layout %[[AT]] : {{.*}} -> tensor<32x128xf32, #tilegpu.dot_op<opIdx = 1, {{.*}}, kWidth = 1>>
// CHECK: %[[D:.*]] = tile.dot %[[OPA]], %[[OPB]], %[[ACC]] {tilegpu.k_major_wgmma} : {{.*}} -> tensor<64x128xf32, #tilegpu.mma<version = 3
// CHECK: scf.yield %[[D]],
// CHECK: tile.trans %[[LOOP]]#0, [1, 0] : tensor<64x128xf32, #tilegpu.mma<{{.*}}>> -> tensor<128x64xf32, #tilegpu.linear<
// CHECK-LABEL: func.func @once
// CHECK: %[[D1:.*]] = tile.dot {{.*}} {tilegpu.k_major_wgmma} : tensor<64x32xf32, {{.*}}> * tensor<32x128xf32, {{.*}}> -> tensor<64x128xf32, #tilegpu.mma<version = 3
// CHECK: tile.trans %[[D1]], [1, 0] : {{.*}} -> tensor<128x64xf32, #tilegpu.linear<

// CHECK-LABEL: func.func @rescaled
// CHECK-NOT: tile.trans
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2

// SYNC-LABEL: func.func @loop
// SYNC-NOT: tile.trans
// SYNC: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2
// SYNC-LABEL: func.func @once
// SYNC-NOT: tile.trans
// SYNC: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2
module {
  func.func @loop(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<128x1xi32>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32>
    %cst_1 = arith.constant dense<32> : tensor<128x32xi32>
    %cst_2 = arith.constant dense<64> : tensor<32x1xi32>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %0 = tile.make_range 0 to 128 : tensor<128xi32>
    %1 = tile.make_range 0 to 64 : tensor<64xi32>
    %2 = tile.make_range 0 to 32 : tensor<32xi32>
    %3 = tile.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = tile.splat %arg3 : tensor<128x1xi32>
    %5 = arith.muli %3, %4 : tensor<128x1xi32>
    %6 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f32>>
    %7 = tile.addptr %6, %5 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %8 = tile.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %9 = tile.broadcast %7 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x32x!tile.ptr<f32>>
    %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<128x32xi32>
    %11 = tile.addptr %9, %10 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
    %12 = tile.expand_dims %2 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %13 = arith.muli %12, %cst_2 : tensor<32x1xi32>
    %14 = tile.splat %arg1 : tensor<32x1x!tile.ptr<f32>>
    %15 = tile.addptr %14, %13 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %16 = tile.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %17 = tile.broadcast %15 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %18 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<32x64xi32>
    %19 = tile.addptr %17, %18 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %20 = arith.divsi %arg3, %c32_i32 : i32
    %21:3 = scf.for %arg4 = %c0_i32 to %20 step %c1_i32 iter_args(%arg5 = %cst_3, %arg6 = %11, %arg7 = %19) -> (tensor<128x64xf32>, tensor<128x32x!tile.ptr<f32>>, tensor<32x64x!tile.ptr<f32>>)  : i32 {
      %28 = tile.load %arg6 : tensor<128x32x!tile.ptr<f32>>
      %29 = tile.load %arg7 : tensor<32x64x!tile.ptr<f32>>
      %30 = tile.dot %28, %29, %arg5 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
      %31 = tile.addptr %arg6, %cst_1 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
      %32 = tile.addptr %arg7, %cst_0 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
      scf.yield %30, %31, %32 : tensor<128x64xf32>, tensor<128x32x!tile.ptr<f32>>, tensor<32x64x!tile.ptr<f32>>
    }
    %22 = arith.muli %3, %cst : tensor<128x1xi32>
    %23 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f32>>
    %24 = tile.addptr %23, %22 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %25 = tile.broadcast %24 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x64x!tile.ptr<f32>>
    %26 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<128x64xi32>
    %27 = tile.addptr %25, %26 : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
    tile.store %27, %21#0 : tensor<128x64x!tile.ptr<f32>>
    return
  }
  func.func @once(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<128x1xi32>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32>
    %cst_1 = arith.constant dense<32> : tensor<128x1xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %0 = tile.make_range 0 to 128 : tensor<128xi32>
    %1 = tile.make_range 0 to 64 : tensor<64xi32>
    %2 = tile.make_range 0 to 32 : tensor<32xi32>
    %3 = tile.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = arith.muli %3, %cst_1 : tensor<128x1xi32>
    %5 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f32>>
    %6 = tile.addptr %5, %4 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %7 = tile.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %8 = tile.broadcast %6 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x32x!tile.ptr<f32>>
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
  func.func @rescaled(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<64> : tensor<128x1xi32>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32>
    %cst_1 = arith.constant dense<32> : tensor<128x32xi32>
    %cst_2 = arith.constant dense<5.000000e-01> : tensor<128x64xf32>
    %cst_3 = arith.constant dense<64> : tensor<32x1xi32>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %0 = tile.make_range 0 to 128 : tensor<128xi32>
    %1 = tile.make_range 0 to 64 : tensor<64xi32>
    %2 = tile.make_range 0 to 32 : tensor<32xi32>
    %3 = tile.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %4 = tile.splat %arg3 : tensor<128x1xi32>
    %5 = arith.muli %3, %4 : tensor<128x1xi32>
    %6 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f32>>
    %7 = tile.addptr %6, %5 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %8 = tile.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %9 = tile.broadcast %7 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x32x!tile.ptr<f32>>
    %10 = tile.broadcast %8 : tensor<1x32xi32> -> tensor<128x32xi32>
    %11 = tile.addptr %9, %10 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
    %12 = tile.expand_dims %2 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %13 = arith.muli %12, %cst_3 : tensor<32x1xi32>
    %14 = tile.splat %arg1 : tensor<32x1x!tile.ptr<f32>>
    %15 = tile.addptr %14, %13 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %16 = tile.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %17 = tile.broadcast %15 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %18 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<32x64xi32>
    %19 = tile.addptr %17, %18 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %20 = arith.divsi %arg3, %c32_i32 : i32
    %21:3 = scf.for %arg4 = %c0_i32 to %20 step %c1_i32 iter_args(%arg5 = %cst_4, %arg6 = %11, %arg7 = %19) -> (tensor<128x64xf32>, tensor<128x32x!tile.ptr<f32>>, tensor<32x64x!tile.ptr<f32>>)  : i32 {
      %28 = tile.load %arg6 : tensor<128x32x!tile.ptr<f32>>
      %29 = tile.load %arg7 : tensor<32x64x!tile.ptr<f32>>
      %30 = tile.dot %28, %29, %arg5 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
      %31 = arith.mulf %30, %cst_2 : tensor<128x64xf32>
      %32 = tile.addptr %arg6, %cst_1 : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
      %33 = tile.addptr %arg7, %cst_0 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
      scf.yield %31, %32, %33 : tensor<128x64xf32>, tensor<128x32x!tile.ptr<f32>>, tensor<32x64x!tile.ptr<f32>>
    }
    %22 = arith.muli %3, %cst : tensor<128x1xi32>
    %23 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f32>>
    %24 = tile.addptr %23, %22 : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
    %25 = tile.broadcast %24 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x64x!tile.ptr<f32>>
    %26 = tile.broadcast %16 : tensor<1x64xi32> -> tensor<128x64xi32>
    %27 = tile.addptr %25, %26 : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
    tile.store %27, %21#0 : tensor<128x64x!tile.ptr<f32>>
    return
  }
}
