// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// 512 values on 4 warps into 64 bins: threads 0-63 zero the bins (the
// others skip), a barrier, each thread adds its 4 in-range, unmasked
// values with shared-memory atomics, a barrier, then each result register
// reads its bin.
// CHECK-LABEL: gpu.func @histogram
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: gpu.return
func.func @histogram(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %xs = tile.splat %x : tensor<512x!tile.ptr<i32>>
  %xp = tile.addptr %xs, %r : tensor<512x!tile.ptr<i32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<i32>>
  %ns = tile.splat %n : tensor<512xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<512xi32>
  %h = tile.histogram %v, %m : tensor<512xi32>, tensor<512xi1> -> tensor<64xi32>
  %b = tile.make_range 0 to 64 : tensor<64xi32>
  %ys = tile.splat %y : tensor<64x!tile.ptr<i32>>
  %yp = tile.addptr %ys, %b : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  tile.store %yp, %h : tensor<64x!tile.ptr<i32>>
  return
}
