// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// 64 fp32 on one warp: 2 per lane. The scalar region is inlined once per
// register, its branch kept (scf.if: only the taken side runs), a scalar
// from above used as it is; both results take the operands' layout.
// CHECK-LABEL: gpu.func @selu
// CHECK-SAME: %[[ALPHA:[^:]*]]: f32
// CHECK: %[[C0:.*]] = arith.cmpf ogt, %[[X0:.*]], %{{.*}} : f32
// CHECK: scf.if %[[C0]] -> (f32) {
// CHECK: math.exp
// CHECK: arith.mulf %[[ALPHA]]
// CHECK: arith.cmpf ogt
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: math.exp
// CHECK-NOT: scf.if
// CHECK: gpu.return
func.func @selu(%x: !tile.ptr<f32>, %alpha: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %w = tile.map_elementwise %v : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    %s = scf.if %c -> (f32) {
      scf.yield %e : f32
    } else {
      %ex = math.exp %e : f32
      %m = arith.subf %ex, %one : f32
      %a = arith.mulf %alpha, %m : f32
      scf.yield %a : f32
    }
    tile.map_elementwise.return %s : f32
  }
  tile.store %xp, %w : tensor<64x!tile.ptr<f32>>
  return
}

// pack=2 with 64 fp32 on one warp (2 registers per lane): the region is
// inlined once per pair, on registers 0 and 1, and its values are the
// result's registers in order. pack=4 on the same layout completes the
// group with repeats of the last register and drops their values.
// CHECK-LABEL: gpu.func @pairs
// CHECK: arith.subf %[[A:.*]], %[[B:.*]] : f32
// CHECK-NEXT: arith.subf %[[B]], %[[A]] : f32
// CHECK-NOT: arith.subf
// CHECK: gpu.return
func.func @pairs(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %w = tile.map_elementwise %v pack 2 : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %e = arith.subf %b, %a : f32
    tile.map_elementwise.return %d, %e : f32, f32
  }
  tile.store %xp, %w : tensor<64x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: gpu.func @quads
// CHECK: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: gpu.return
func.func @quads(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %w = tile.map_elementwise %v pack 4 : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %m = arith.mulf %a, %d : f32
    tile.map_elementwise.return %m, %b, %c, %d : f32, f32, f32, f32
  }
  tile.store %xp, %w : tensor<64x!tile.ptr<f32>>
  return
}
