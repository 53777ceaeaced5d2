// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// A 64-element source on one warp (2 per lane) goes to the scratch; after
// a barrier each of the 2 result registers clamps its index into [0, 63]
// and reads the source element there.
// CHECK-LABEL: gpu.func @gather
// CHECK: gpu.barrier
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK: gpu.return
func.func @gather(%x: !tile.ptr<f32>, %i: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %is = tile.splat %i : tensor<64x!tile.ptr<i32>>
  %ip = tile.addptr %is, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %idx = tile.load %ip : tensor<64x!tile.ptr<i32>>
  %g = tile.gather %v[%idx] {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> tensor<64xf32>
  tile.store %xp, %g : tensor<64x!tile.ptr<f32>>
  return
}
