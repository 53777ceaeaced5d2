// RUN: tile-opt %s --tile-version-loaded-values | FileCheck %s

// Tutorial 08's shape: each iteration loads a matrix's address and
// leading dimension, then reads a 16 x 64 fp16 tile from them. The ops
// after the last such load become the general path (else) of an `scf.if`
// whose then branch assumes the pointer 16-byte aligned and the leading
// dimension a multiple of 8 (enough for 16-byte rows: not 16), tested
// where they were loaded; the loop-carried index computed after them
// leaves through the `scf.if`.
// CHECK-LABEL: func.func @grouped_rows
// CHECK:       scf.for {{.*}} iter_args(%[[IDX:.*]] = %{{.*}}) -> (i32)
// CHECK:         %[[LD:.*]] = tile.load %{{.*}} : !tile.ptr<i32>
// CHECK:         %[[BITS:.*]] = tile.load %{{.*}} : !tile.ptr<i64>
// CHECK:         %[[BASE:.*]] = tile.int_to_ptr %[[BITS]]
// CHECK:         %[[LOWLD:.*]] = arith.andi %[[LD]], %c7_i32
// CHECK:         %[[OKLD:.*]] = arith.cmpi eq, %[[LOWLD]]
// CHECK:         %[[ADDR:.*]] = tile.ptr_to_int %[[BASE]]
// CHECK:         %[[LOWB:.*]] = arith.andi %[[ADDR]], %c15_i64
// CHECK:         %[[OKB:.*]] = arith.cmpi eq, %[[LOWB]]
// CHECK:         %[[GUARD:.*]] = arith.andi %[[OKLD]], %[[OKB]]
// CHECK:         %[[NEXT:.*]] = scf.if %[[GUARD]] -> (i32) {
// CHECK:           tile.hint %[[LD]] {multipleOf = array<i32: 8>} : i32
// CHECK:           tile.hint %[[BASE]] {multipleOf = array<i32: 16>} : !tile.ptr<f16>
// CHECK:           tile.load %{{.*}} : tensor<16x64x!tile.ptr<f16>>
// CHECK:           scf.yield
// CHECK:         } else {
// CHECK-NOT:       tile.hint
// CHECK:           tile.load %{{.*}} : tensor<16x64x!tile.ptr<f16>>
// CHECK:           scf.yield
// CHECK:         } {tile.fast_version, tile.versioned}
// CHECK:         scf.yield %[[NEXT]] : i32
func.func @grouped_rows(%arg0: !tile.ptr<i64>, %arg1: !tile.ptr<i32>, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %cst = arith.constant dense<64> : tensor<16x1xi32>
  %c1024_i32 = arith.constant 1024 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %0 = tile.program_id 0 : i32
  %1 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %0) -> (i32)  : i32 {
    %2 = tile.addptr %arg1, %arg4 : !tile.ptr<i32>, i32
    %3 = tile.load %2 : !tile.ptr<i32>
    %4 = tile.addptr %arg0, %arg4 : !tile.ptr<i64>, i32
    %5 = tile.load %4 : !tile.ptr<i64>
    %6 = tile.int_to_ptr %5 : i64 -> !tile.ptr<f16>
    %7 = tile.make_range 0 to 16 : tensor<16xi32>
    %8 = tile.make_range 0 to 64 : tensor<64xi32>
    %9 = tile.expand_dims %7 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %10 = tile.splat %3 : tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %12 = tile.splat %6 : tensor<16x1x!tile.ptr<f16>>
    %13 = tile.addptr %12, %11 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %14 = tile.expand_dims %8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %15 = tile.broadcast %13 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x64x!tile.ptr<f16>>
    %16 = tile.broadcast %14 : tensor<1x64xi32> -> tensor<16x64xi32>
    %17 = tile.addptr %15, %16 : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
    %18 = tile.load %17 : tensor<16x64x!tile.ptr<f16>>
    %19 = arith.muli %arg5, %c1024_i32 : i32
    %20 = tile.addptr %arg2, %19 : !tile.ptr<f16>, i32
    %21 = arith.muli %9, %cst : tensor<16x1xi32>
    %22 = tile.splat %20 : tensor<16x1x!tile.ptr<f16>>
    %23 = tile.addptr %22, %21 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %24 = tile.broadcast %23 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x64x!tile.ptr<f16>>
    %25 = tile.addptr %24, %16 : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
    tile.store %25, %18 : tensor<16x64x!tile.ptr<f16>>
    %26 = arith.addi %arg5, %c1_i32 : i32
    scf.yield %26 : i32
  }
  return
}

// A gather along the loaded stride: no access gets wider under any
// assumption, so nothing is versioned.
// CHECK-LABEL: func.func @gathered_rows
// CHECK-NOT:   scf.if
// CHECK-NOT:   tile.hint
// CHECK:       return
func.func @gathered_rows(%arg0: !tile.ptr<i64>, %arg1: !tile.ptr<i32>, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c64_i32 = arith.constant 64 : i32
  %0 = tile.program_id 0 : i32
  %1 = tile.addptr %arg1, %0 : !tile.ptr<i32>, i32
  %2 = tile.load %1 : !tile.ptr<i32>
  %3 = tile.addptr %arg0, %0 : !tile.ptr<i64>, i32
  %4 = tile.load %3 : !tile.ptr<i64>
  %5 = tile.int_to_ptr %4 : i64 -> !tile.ptr<f16>
  %6 = tile.make_range 0 to 64 : tensor<64xi32>
  %7 = tile.splat %2 : tensor<64xi32>
  %8 = arith.muli %6, %7 : tensor<64xi32>
  %9 = tile.splat %5 : tensor<64x!tile.ptr<f16>>
  %10 = tile.addptr %9, %8 : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %11 = tile.load %10 : tensor<64x!tile.ptr<f16>>
  %12 = arith.muli %0, %c64_i32 : i32
  %13 = tile.addptr %arg2, %12 : !tile.ptr<f16>, i32
  %14 = tile.splat %13 : tensor<64x!tile.ptr<f16>>
  %15 = tile.addptr %14, %6 : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  tile.store %15, %11 : tensor<64x!tile.ptr<f16>>
  return
}
