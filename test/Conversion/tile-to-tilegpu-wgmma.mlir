// RUN: tile-opt %s --split-input-file --convert-tile-to-tilegpu=use-wgmma=true | FileCheck %s
// With wgmma (sm_90a), a 16-bit dot whose M is a multiple of 64 takes the
// version-3 #mma layout: warpgroups along M first (64-row bands), the rest
// along N, each warp's tile 16 x (N per warpgroup, at most 256). Dots wgmma
// cannot take keep mma.sync's version 2.

// CHECK-LABEL: func.func @big_tile_8_warps
// CHECK: tile.dot {{.*}} -> tensor<128x256xf32, #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]>>
func.func @big_tile_8_warps(%pa: tensor<128x64x!tile.ptr<f16>>, %pb: tensor<64x256x!tile.ptr<f16>>, %pc: tensor<128x256x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 8 : i32} {
  %a = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
  %b = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %d = tile.dot %a, %b, %z : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
  tile.store %pc, %d : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// 64 rows for 8 warps: two warpgroups side by side along N.
// CHECK-LABEL: func.func @two_groups_along_n
// CHECK: tile.dot {{.*}} -> tensor<64x128xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64]>>
func.func @two_groups_along_n(%pa: tensor<64x64x!tile.ptr<bf16>>, %pb: tensor<64x128x!tile.ptr<bf16>>, %pc: tensor<64x128x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 8 : i32} {
  %a = tile.load %pa : tensor<64x64x!tile.ptr<bf16>>
  %b = tile.load %pb : tensor<64x128x!tile.ptr<bf16>>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %d = tile.dot %a, %b, %z : tensor<64x64xbf16> * tensor<64x128xbf16> -> tensor<64x128xf32>
  tile.store %pc, %d : tensor<64x128x!tile.ptr<f32>>
  return
}

// -----

// tf32 (fp32 inputs) with loads of unknown order and M below 64 stay on
// mma.sync.
// CHECK-LABEL: func.func @not_for_wgmma
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<version = 2,
// CHECK: tile.dot {{.*}} -> tensor<32x64xf32, #tilegpu.mma<version = 2,
func.func @not_for_wgmma(%pa: tensor<64x32x!tile.ptr<f32>>, %pb: tensor<32x64x!tile.ptr<f32>>,
                         %ph: tensor<32x64x!tile.ptr<f16>>, %pg: tensor<64x64x!tile.ptr<f16>>,
                         %pc: tensor<64x64x!tile.ptr<f32>>, %pd: tensor<32x64x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tile.load %pa : tensor<64x32x!tile.ptr<f32>>
  %b = tile.load %pb : tensor<32x64x!tile.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %z : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>>
  %h = tile.load %ph : tensor<32x64x!tile.ptr<f16>>
  %g = tile.load %pg : tensor<64x64x!tile.ptr<f16>>
  %y = arith.constant dense<0.0> : tensor<32x64xf32>
  %e = tile.dot %h, %g, %y : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  tile.store %pd, %e : tensor<32x64x!tile.ptr<f32>>
  return
}

// -----

// In a chain of dots (attention) every warp owns whole rows: all warps
// along M, so the first result, narrowed, is the second dot's A in the
// same registers (a register-only conversion to the #dot_op layout).
// CHECK-LABEL: func.func @chain
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<128x64xf16, #tilegpu.mma<version = 3, {{.*}}>> -> tensor<128x64xf16, #tilegpu.dot_op<opIdx = 0, parent = <version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>, kWidth = 2>>
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>>
func.func @chain(%q: tensor<128x64x!tile.ptr<f16>>, %k: tensor<64x64x!tile.ptr<f16>>,
                 %o: tensor<128x64x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tile.load %q : tensor<128x64x!tile.ptr<f16>>
  %b = tile.load %k : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %s = tile.dot %a, %b, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
  %r = tile.dot %p, %b, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  tile.store %o, %r : tensor<128x64x!tile.ptr<f32>>
  return
}

// -----

// An epilogue that splits the accumulator into two column halves (Triton's
// EPILOGUE_SUBTILE: reshape to M x 2 x N/2, move the 2 last, split) moves
// no data: the reshape and the transpose take linear layouts that keep
// every element in its register, the split (a reduction over the size-2
// dimension) stays within each thread, and only the stores convert.
// CHECK-LABEL: func.func @subtiled_epilogue
// CHECK: %[[D:.*]] = tile.dot {{.*}} -> tensor<128x128xf32, #tilegpu.mma<version = 3
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.reshape %[[D]] : {{.*}} -> tensor<128x2x64xf32, #tilegpu.linear<rank = 3,
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[T:.*]] = tile.trans %[[R]], [0, 2, 1] : {{.*}} -> tensor<128x64x2xf32, #tilegpu.linear<rank = 3,
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce %[[T]] {axis = 2 : i32} : (tensor<128x64x2xf32, #tilegpu.linear<rank = 3,
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<128x64xf32, #tilegpu.blocked
// CHECK: tile.store
func.func @subtiled_epilogue(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %p: tensor<128x64x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 8 : i32} {
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = tile.dot %a, %b, %zero : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
  %r = tile.reshape %d : tensor<128x128xf32> -> tensor<128x2x64xf32>
  %t = tile.trans %r, [0, 2, 1] : tensor<128x2x64xf32> -> tensor<128x64x2xf32>
  %lo = tile.reduce %t {axis = 2 : i32} : (tensor<128x64x2xf32>) -> tensor<128x64xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.reduce.return %x : f32
  }
  tile.store %p, %lo : tensor<128x64x!tile.ptr<f32>>
  return
}

// -----

// A small vector loaded only to be broadcast against a dot's tile (tutorial
// 06 backward's row statistics `m[None, :]` and the offsets of its causal
// mask) is loaded in the slice of the dot's layout: no conversion through
// shared memory. A vector also broadcast against a blocked tile keeps its
// coalesced load.
// CHECK-LABEL: func.func @vector_of_dot
// CHECK: %[[M:.*]] = tile.load {{.*}} : tensor<32x!tile.ptr<f32>, #tilegpu.slice<dim = 0, parent = #tilegpu.mma<version = 3
// CHECK-NOT: convert_layout %[[M]]
// CHECK: tile.expand_dims %[[M]]
// CHECK: %[[W:.*]] = tile.load {{.*}} : tensor<32x!tile.ptr<f32>, #tilegpu.blocked
// CHECK: tilegpu.convert_layout %[[W]]
func.func @vector_of_dot(%pk: tensor<128x64x!tile.ptr<f16>>, %pq: tensor<64x32x!tile.ptr<f16>>,
                         %pm: !tile.ptr<f32>, %pw: !tile.ptr<f32>, %px: tensor<32x32x!tile.ptr<f32>>,
                         %pc: tensor<128x32x!tile.ptr<f32>>, %py: tensor<32x32x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %k = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
  %q = tile.load %pq : tensor<64x32x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<128x32xf32>
  %s = tile.dot %k, %q, %z : tensor<128x64xf16> * tensor<64x32xf16> -> tensor<128x32xf32>
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %mb = tile.splat %pm : tensor<32x!tile.ptr<f32>>
  %mp = tile.addptr %mb, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %m = tile.load %mp : tensor<32x!tile.ptr<f32>>
  %m2 = tile.expand_dims %m {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %mb2 = tile.broadcast %m2 : tensor<1x32xf32> -> tensor<128x32xf32>
  %d = arith.subf %s, %mb2 : tensor<128x32xf32>
  tile.store %pc, %d : tensor<128x32x!tile.ptr<f32>>
  %wb = tile.splat %pw : tensor<32x!tile.ptr<f32>>
  %wp = tile.addptr %wb, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %w = tile.load %wp : tensor<32x!tile.ptr<f32>>
  %w2 = tile.expand_dims %w {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %wb2 = tile.broadcast %w2 : tensor<1x32xf32> -> tensor<128x32xf32>
  %e = arith.mulf %s, %wb2 : tensor<128x32xf32>
  tile.store %pc, %e : tensor<128x32x!tile.ptr<f32>>
  %x = tile.load %px : tensor<32x32x!tile.ptr<f32>>
  %w3 = tile.expand_dims %w {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %wb3 = tile.broadcast %w3 : tensor<1x32xf32> -> tensor<32x32xf32>
  %y = arith.addf %x, %wb3 : tensor<32x32xf32>
  tile.store %py, %y : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// One column `m[:, None]` broadcast against two dots of different widths
// (tutorial 06 backward's two dQ loops, 128 x 16 and 128 x 32): each use
// gets its own expand_dims, so each dot keeps its own instruction shape;
// the loaded column itself is not loaded again.
// CHECK-LABEL: func.func @column_of_two_dots
// CHECK: tile.load %{{.*}} : tensor<128x!tile.ptr<f32>
// CHECK-NOT: tile.load %{{.*}} : tensor<128x!tile.ptr<f32>
// CHECK: tile.dot {{.*}} -> tensor<128x16xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16]>>
// CHECK-NOT: tile.load %{{.*}} : tensor<128x!tile.ptr<f32>
// CHECK: tile.dot {{.*}} -> tensor<128x32xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]>>
// CHECK-NOT: tile.load %{{.*}} : tensor<128x!tile.ptr<f32>
// CHECK: return
func.func @column_of_two_dots(%pq: tensor<128x64x!tile.ptr<f16>>, %pk: tensor<64x16x!tile.ptr<f16>>,
                              %pk2: tensor<64x32x!tile.ptr<f16>>, %pm: tensor<128x!tile.ptr<f32>>,
                              %po: tensor<128x16x!tile.ptr<f32>>, %po2: tensor<128x32x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %q = tile.load %pq : tensor<128x64x!tile.ptr<f16>>
  %m = tile.load %pm : tensor<128x!tile.ptr<f32>>
  %m2 = tile.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  %k = tile.load %pk : tensor<64x16x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<128x16xf32>
  %s = tile.dot %q, %k, %z : tensor<128x64xf16> * tensor<64x16xf16> -> tensor<128x16xf32>
  %mb = tile.broadcast %m2 : tensor<128x1xf32> -> tensor<128x16xf32>
  %d = arith.subf %s, %mb : tensor<128x16xf32>
  tile.store %po, %d : tensor<128x16x!tile.ptr<f32>>
  %k2 = tile.load %pk2 : tensor<64x32x!tile.ptr<f16>>
  %z2 = arith.constant dense<0.0> : tensor<128x32xf32>
  %s2 = tile.dot %q, %k2, %z2 : tensor<128x64xf16> * tensor<64x32xf16> -> tensor<128x32xf32>
  %mb2 = tile.broadcast %m2 : tensor<128x1xf32> -> tensor<128x32xf32>
  %d2 = arith.subf %s2, %mb2 : tensor<128x32xf32>
  tile.store %po2, %d2 : tensor<128x32x!tile.ptr<f32>>
  return
}

// -----

// One dot's result added to another's whose warps are arranged otherwise
// (flash-linear-attention's chunk_o: q @ h on two warpgroups side by side,
// plus the chained b_A @ v on mma.sync's 2 x 4 warps): the second dot
// computes in its own layout, the one its register operand was laid out
// for, and its result is converted to the sum's.
// CHECK-LABEL: func.func @dots_of_two_arrangements_added
// CHECK: tile.dot {{.*}} -> tensor<64x128xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64]>>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]>>
// CHECK: %[[PV:.*]] = tile.dot {{.*}}dot_op<opIdx = 0, parent = <version = 2, warpsPerCTA = [2, 4]{{.*}} -> tensor<64x128xf32, #tilegpu.mma<version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]>>
// CHECK-NEXT: %[[CVT:.*]] = tilegpu.convert_layout %[[PV]] : {{.*}} -> tensor<64x128xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64]>>
// CHECK: arith.addf {{.*}}%[[CVT]]
func.func @dots_of_two_arrangements_added(%pq: tensor<64x128x!tile.ptr<f16>>, %ph: tensor<128x128x!tile.ptr<f16>>, %pk: tensor<128x64x!tile.ptr<f16>>, %pv: tensor<64x128x!tile.ptr<f16>>, %po: tensor<64x128x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 8 : i32} {
  %q = tile.load %pq : tensor<64x128x!tile.ptr<f16>>
  %h = tile.load %ph : tensor<128x128x!tile.ptr<f16>>
  %k = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
  %v = tile.load %pv : tensor<64x128x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %o = tile.dot %q, %h, %z : tensor<64x128xf16> * tensor<128x128xf16> -> tensor<64x128xf32>
  %s = tile.dot %q, %k, %zs : tensor<64x128xf16> * tensor<128x64xf16> -> tensor<64x64xf32>
  %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xf16>
  %pv2 = tile.dot %p, %v, %z : tensor<64x64xf16> * tensor<64x128xf16> -> tensor<64x128xf32>
  %sum = arith.addf %o, %pv2 : tensor<64x128xf32>
  tile.store %po, %sum : tensor<64x128x!tile.ptr<f32>>
  return
}
