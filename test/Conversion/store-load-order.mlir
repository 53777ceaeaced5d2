// RUN: tile-opt %s --split-input-file --convert-tile-to-tilegpu | FileCheck %s
// A program's loads see its own stores: a load of addresses that a store
// before it wrote through another block of pointers (so possibly another
// arrangement of the elements over the threads) gets a barrier of the
// program before it. FlashAttention's Triton kernel moves a row vector
// between layouts this way (`tl.store(t_ptrs, x); x = tl.load(t_ptrs)`):
// the stored vector is a reduction of the scores, the loaded one is
// broadcast against the accumulator, and without the barrier a thread of
// one warp read what a thread of another had not stored yet.

// CHECK-LABEL: func.func @through_scratch
// CHECK:      tile.store %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>, #tilegpu.blocked
// CHECK-NOT:  tile.load
// CHECK:      tile.debug_barrier
// CHECK-NEXT: tile.load %{{.*}} : tensor<64x!tile.ptr<f32>, #tilegpu.slice
func.func @through_scratch(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>,
                           %t: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                           %o: tensor<64x64x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %m = tile.reduce %d {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.maxnumf %x, %y : f32
    tile.reduce.return %s : f32
  }
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %ts = tile.splat %t : tensor<64x!tile.ptr<f32>>
  %tp = tile.addptr %ts, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %tp, %m : tensor<64x!tile.ptr<f32>>
  %back = tile.load %tp : tensor<64x!tile.ptr<f32>>
  %col = tile.expand_dims %back {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %cb = tile.broadcast %col : tensor<64x1xf32> -> tensor<64x64xf32>
  %y = arith.mulf %d, %cb : tensor<64x64xf32>
  tile.store %o, %y : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// The same block of pointers in one layout (an in-place update read back:
// each element stored and loaded by one thread), and a load of another
// argument: no barrier.
// CHECK-LABEL: func.func @own_elements
// CHECK-NOT: tile.debug_barrier
// CHECK: return
func.func @own_elements(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %q: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %qs = tile.splat %q : tensor<128x!tile.ptr<f32>>
  %qp = tile.addptr %qs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %pp : tensor<128x!tile.ptr<f32>>
  %y = arith.addf %x, %x : tensor<128xf32>
  tile.store %pp, %y : tensor<128x!tile.ptr<f32>>
  %z = tile.load %pp : tensor<128x!tile.ptr<f32>>
  %w = tile.load %qp : tensor<128x!tile.ptr<f32>>
  %s = arith.addf %z, %w : tensor<128xf32>
  tile.store %qp, %s : tensor<128x!tile.ptr<f32>>
  return
}
