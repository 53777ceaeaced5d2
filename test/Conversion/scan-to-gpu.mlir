// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// A 1-D scan of 512 floats on 4 warps (blocked: 4 consecutive elements per
// thread, 32 lanes, 4 warps): the chunks are scanned in registers (3 adds),
// the chunk totals across the lanes by 5 upward shuffles, each lane's
// prefix comes from the lane below (one more), the last lane of each warp
// writes the warp's total, and after one barrier every thread combines the
// totals of the warps before its own. No Hillis-Steele steps: two barriers.
// CHECK-LABEL: gpu.func @cumsum_warps
// CHECK-COUNT-3: arith.addf
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-6: gpu.shuffle up
// CHECK-NOT: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @cumsum_warps(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %xs = tile.splat %x : tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  %s = tile.scan %v {axis = 0 : i32} : (tensor<512xf32>) -> tensor<512xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.scan.return %c : f32
  }
  %ys = tile.splat %y : tensor<512x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %yp, %s : tensor<512x!tile.ptr<f32>>
  return
}

// Reversed, within one warp: downward shuffles, and no shared memory.
// CHECK-LABEL: gpu.func @cumprod_reverse_warp
// CHECK-COUNT-6: gpu.shuffle down
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @cumprod_reverse_warp(%x: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<i32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<i32>>
  %s = tile.scan %v {axis = 0 : i32, reverse} : (tensor<64xi32>) -> tensor<64xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.muli %a, %b : i32
    tile.scan.return %c : i32
  }
  tile.store %xp, %s : tensor<64x!tile.ptr<i32>>
  return
}

// A column scan of an mma.sync result on one warp: a column's rows lie in
// lanes 4 apart (rows 0-7) and then in a register (row + 8), which is the
// hierarchy with no chunk and two repetitions: 3 + 1 upward shuffles of
// lane distance 4, 8, 16 and 4, then the repetitions meet in the scratch.
// CHECK-LABEL: gpu.func @cumsum_mma
// CHECK-COUNT-4: gpu.shuffle up
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @cumsum_mma(%a: f16, %b: f16, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %as = tile.splat %a : tensor<16x16xf16>
  %bs = tile.splat %b : tensor<16x16xf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %as, %bs, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s = tile.scan %d {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<16x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %c = arith.addf %p, %q : f32
    tile.scan.return %c : f32
  }
  %ys = tile.splat %y : tensor<16x16x!tile.ptr<f32>>
  tile.store %ys, %s : tensor<16x16x!tile.ptr<f32>>
  return
}

// With two warps along the rows of a 32 x 16 result, the warp bit comes
// after the register bit (rows: lanes, then + 8, then + 16 in the other
// warp), out of the hierarchy's order: the general path, every element in
// the scratch, then log2(32) = 5 steps, each but the last writing the other
// copy behind a barrier: 2 + 4 barriers, no shuffles.
// CHECK-LABEL: gpu.func @cumsum_mma_warps
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-6: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @cumsum_mma_warps(%a: f16, %b: f16, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 2 : i32} {
  %as = tile.splat %a : tensor<32x16xf16>
  %bs = tile.splat %b : tensor<16x16xf16>
  %zero = arith.constant dense<0.0> : tensor<32x16xf32>
  %d = tile.dot %as, %bs, %zero : tensor<32x16xf16> * tensor<16x16xf16> -> tensor<32x16xf32>
  %s = tile.scan %d {axis = 0 : i32} : (tensor<32x16xf32>) -> tensor<32x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %c = arith.addf %p, %q : f32
    tile.scan.return %c : f32
  }
  %ys = tile.splat %y : tensor<32x16x!tile.ptr<f32>>
  tile.store %ys, %s : tensor<32x16x!tile.ptr<f32>>
  return
}
