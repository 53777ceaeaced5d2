// RUN: tile-opt %s --tile-lower-block-pointers | FileCheck %s

// make_block_ptr and advance become scalars (base, shapes, strides,
// offsets); block_load and block_store become load and store of
// base + sum_d (offset_d + arange(B_d)) * stride_d, masked on the checked
// dimensions.

// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<f16>, %[[M:[^:]*]]: i64, %[[K:[^:]*]]: i64, %[[SM:[^:]*]]: i64, %[[SK:[^:]*]]: i64, %[[O0:[^:]*]]: i32, %[[O1:[^:]*]]: i32, %[[D:[^:]*]]: i32)
// CHECK-NOT: tile.make_block_ptr
// CHECK-NOT: tile.advance
// CHECK: %[[OFF0:.*]] = arith.addi %[[O0]], %{{.*}} : i32
// CHECK: %[[OFF1:.*]] = arith.addi %[[O1]], %[[D]] : i32
// Dimension 0: rows, expanded along dimension 1 and scaled by its stride.
// CHECK: %[[R0:.*]] = tile.make_range 0 to 16 : tensor<16xi32>
// CHECK: %[[S0:.*]] = tile.splat %[[OFF0]] : tensor<16xi32>
// CHECK: %[[I0:.*]] = arith.addi %[[R0]], %[[S0]] : tensor<16xi32>
// CHECK: %[[W0:.*]] = arith.extsi %[[I0]] : tensor<16xi32> to tensor<16xi64>
// CHECK: %[[E0:.*]] = tile.expand_dims %[[W0]] {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: %[[B0:.*]] = tile.broadcast %[[E0]] : tensor<16x1xi64> -> tensor<16x32xi64>
// CHECK: %[[ST0:.*]] = tile.splat %[[SM]] : tensor<16x32xi64>
// CHECK: %[[T0:.*]] = arith.muli %[[B0]], %[[ST0]] : tensor<16x32xi64>
// Dimension 1: columns from the advanced offset.
// CHECK: %[[R1:.*]] = tile.make_range 0 to 32 : tensor<32xi32>
// CHECK: %[[S1:.*]] = tile.splat %[[OFF1]] : tensor<32xi32>
// CHECK: %[[I1:.*]] = arith.addi %[[R1]], %[[S1]] : tensor<32xi32>
// CHECK: %[[W1:.*]] = arith.extsi %[[I1]] : tensor<32xi32> to tensor<32xi64>
// CHECK: %[[E1:.*]] = tile.expand_dims %[[W1]] {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK: %[[B1:.*]] = tile.broadcast %[[E1]] : tensor<1x32xi64> -> tensor<16x32xi64>
// CHECK: %[[ST1:.*]] = tile.splat %[[SK]] : tensor<16x32xi64>
// CHECK: %[[T1:.*]] = arith.muli %[[B1]], %[[ST1]] : tensor<16x32xi64>
// CHECK: %[[OFF:.*]] = arith.addi %[[T0]], %[[T1]] : tensor<16x32xi64>
// CHECK: %[[PS:.*]] = tile.splat %[[BASE]] : tensor<16x32x!tile.ptr<f16>>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[PS]], %[[OFF]] : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi64>
// Only dimension 1 is checked: 0 <= column < K.
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<16x32xi64>
// CHECK: %[[LIM:.*]] = tile.splat %[[K]] : tensor<16x32xi64>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[B1]], %[[ZERO]] : tensor<16x32xi64>
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[B1]], %[[LIM]] : tensor<16x32xi64>
// CHECK: %[[MASK:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<16x32xi1>
// padding = nan fills masked-off elements with NaN.
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<16x32xf16>
// CHECK: %{{.*}} = tile.load %[[PTRS]], %[[MASK]], %[[NAN]] {cache = #tile.cache<cg>} : tensor<16x32x!tile.ptr<f16>>
// CHECK-NOT: tile.block_load
// CHECK: return
func.func @load_2d(%base: !tile.ptr<f16>, %m: i64, %k: i64, %sm: i64, %sk: i64, %o0: i32, %o1: i32, %d: i32) -> tensor<16x32xf16> {
  %c0 = arith.constant 0 : i32
  %bp = tile.make_block_ptr %base, [%m, %k], [%sm, %sk], [%o0, %o1] order [1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<16x32xf16>>
  %adv = tile.advance %bp, [%c0, %d] : !tile.block_ptr<tensor<16x32xf16>>
  %v = tile.block_load %adv {boundaryCheck = array<i32: 1>, padding = #tile.padding<nan>, cache = #tile.cache<cg>} : !tile.block_ptr<tensor<16x32xf16>>
  return %v : tensor<16x32xf16>
}

// No boundary check: an unmasked load.
// CHECK-LABEL: func.func @load_unchecked
// CHECK: %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
// CHECK-NOT: arith.cmpi
// CHECK: tile.load %[[PTRS]] : tensor<64x!tile.ptr<f32>>
func.func @load_unchecked(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32) -> tensor<64xf32> {
  %bp = tile.make_block_ptr %base, [%n], [%s], [%o] order [0] : !tile.ptr<f32> -> !tile.block_ptr<tensor<64xf32>>
  %v = tile.block_load %bp : !tile.block_ptr<tensor<64xf32>>
  return %v : tensor<64xf32>
}

// Integer blocks pad with zero; both dimensions checked: the masks combine.
// CHECK-LABEL: func.func @load_both_checked
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<i32>, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64,
// CHECK: tile.splat %[[M]] : tensor<8x4xi64>
// CHECK: %[[IN0:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<8x4xi1>
// CHECK: tile.splat %[[N]] : tensor<8x4xi64>
// CHECK: %[[IN1:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<8x4xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[IN0]], %[[IN1]] : tensor<8x4xi1>
// CHECK: %[[PAD:.*]] = arith.constant dense<0> : tensor<8x4xi32>
// CHECK: tile.load %{{.*}}, %[[MASK]], %[[PAD]] : tensor<8x4x!tile.ptr<i32>>
func.func @load_both_checked(%base: !tile.ptr<i32>, %m: i64, %n: i64, %s0: i64, %s1: i64, %o: i32) -> tensor<8x4xi32> {
  %bp = tile.make_block_ptr %base, [%m, %n], [%s0, %s1], [%o, %o] order [1, 0] : !tile.ptr<i32> -> !tile.block_ptr<tensor<8x4xi32>>
  %v = tile.block_load %bp {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<8x4xi32>>
  return %v : tensor<8x4xi32>
}

// block_store becomes a store masked on the checked dimension.
// CHECK-LABEL: func.func @store
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<f32>, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: i64, %[[O:[^:]*]]: i32, %[[V:[^:]*]]: tensor<128xf32>)
// CHECK: %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
// CHECK: %[[LIM:.*]] = tile.splat %[[N]] : tensor<128xi64>
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<128xi1>
// CHECK: tile.store %[[PTRS]], %[[V]], %[[MASK]] {evict = #tile.evict<evict_first>} : tensor<128x!tile.ptr<f32>>
// CHECK-NOT: tile.block_store
func.func @store(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32, %v: tensor<128xf32>) {
  %bp = tile.make_block_ptr %base, [%n], [%s], [%o] order [0] : !tile.ptr<f32> -> !tile.block_ptr<tensor<128xf32>>
  tile.block_store %bp, %v {boundaryCheck = array<i32: 0>, evict = #tile.evict<evict_first>} : !tile.block_ptr<tensor<128xf32>>
  return
}

// A block pointer carried through a loop becomes its parts; advance adds to
// the carried offset.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<f32>, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: i64, %[[O:[^:]*]]: i32, %[[UB:[^:]*]]: i32)
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %{{.*}}:5 = scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PB:.*]] = %[[BASE]], %[[PN:.*]] = %[[N]], %[[PS:.*]] = %[[S]], %[[PO:.*]] = %[[O]]) -> (tensor<64xf32>, !tile.ptr<f32>, i64, i64, i32)
// CHECK: tile.splat %[[PO]] : tensor<64xi32>
// CHECK: tile.splat %[[PS]] : tensor<64xi64>
// CHECK: tile.splat %[[PB]] : tensor<64x!tile.ptr<f32>>
// CHECK: tile.splat %[[PN]] : tensor<64xi64>
// CHECK: %[[X:.*]] = tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<64xf32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[PO]], %[[C64]] : i32
// CHECK: scf.yield %[[SUM]], %[[PB]], %[[PN]], %[[PS]], %[[NEXT]] : tensor<64xf32>, !tile.ptr<f32>, i64, i64, i32
// CHECK-NOT: !tile.block_ptr
func.func @loop(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32, %ub: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %bp = tile.make_block_ptr %base, [%n], [%s], [%o] order [0] : !tile.ptr<f32> -> !tile.block_ptr<tensor<64xf32>>
  %r:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero, %p = %bp) -> (tensor<64xf32>, !tile.block_ptr<tensor<64xf32>>) : i32 {
    %v = tile.block_load %p {boundaryCheck = array<i32: 0>} : !tile.block_ptr<tensor<64xf32>>
    %a = arith.addf %acc, %v : tensor<64xf32>
    %q = tile.advance %p, [%c64] : !tile.block_ptr<tensor<64xf32>>
    scf.yield %a, %q : tensor<64xf32>, !tile.block_ptr<tensor<64xf32>>
  }
  return %r#0 : tensor<64xf32>
}

// Block pointers through scf.if become their parts too.
// CHECK-LABEL: func.func @if
// CHECK: %{{.*}}:4 = scf.if %{{.*}} -> (!tile.ptr<f32>, i64, i64, i32)
// CHECK-NOT: !tile.block_ptr
func.func @if(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32, %c: i1) -> tensor<64xf32> {
  %bp = tile.make_block_ptr %base, [%n], [%s], [%o] order [0] : !tile.ptr<f32> -> !tile.block_ptr<tensor<64xf32>>
  %r = scf.if %c -> !tile.block_ptr<tensor<64xf32>> {
    %q = tile.advance %bp, [%o] : !tile.block_ptr<tensor<64xf32>>
    scf.yield %q : !tile.block_ptr<tensor<64xf32>>
  } else {
    scf.yield %bp : !tile.block_ptr<tensor<64xf32>>
  }
  %v = tile.block_load %r : !tile.block_ptr<tensor<64xf32>>
  return %v : tensor<64xf32>
}

// A tensor descriptor's 2-D load also carries the descriptor's tensor map
// (made once, right after the last of base, shape and strides is known:
// here before the loop, from the stride computed there) and the block's
// offsets, for the pipeliner to copy with TMA.
// CHECK-LABEL: func.func @descriptor_tensor_map
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<f16>, %[[M:[^:]*]]: i64, %[[K:[^:]*]]: i64,
// CHECK: %[[STRIDE:.*]] = arith.muli %[[K]]
// CHECK-NEXT: %[[MAP:.*]] = tile.make_tensor_map %[[BASE]], [%[[M]], %[[K]]], [%[[STRIDE]], %{{.*}}] block [64, 32] : <f16>
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.addi %c0_i32, %[[R:[^ ]*]] : i32
// CHECK: %[[COL:.*]] = arith.addi %c0_i32, %[[C:[^ ]*]] : i32
// CHECK: tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[MAP]][%[[ROW]], %[[COL]]]) : tensor<64x32x!tile.ptr<f16>>
// Zero padding only, and 2-D blocks only: no map for these.
// CHECK-NOT: tile.make_tensor_map
// CHECK: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>>
// CHECK-NOT: tile.make_tensor_map
// CHECK: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x64x32x!tile.ptr<f16>>
func.func @descriptor_tensor_map(%base: !tile.ptr<f16>, %m: i64, %k: i64, %r: i32, %c: i32, %ub: i32)
    -> (tensor<64x32xf16>, tensor<64x32xf16>, tensor<2x64x32xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %stride = arith.muli %k, %two : i64
  %d = tile.make_block_ptr %base, [%m, %k], [%stride, %one], [%c0, %c0] order [1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %sum = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> (tensor<64x32xf16>) : i32 {
    %p = tile.advance %d, [%r, %c] : !tile.block_ptr<tensor<64x32xf16>>
    %v = tile.block_load %p {boundaryCheck = array<i32: 0, 1>, descriptor} : !tile.block_ptr<tensor<64x32xf16>>
    %a = arith.addf %acc, %v : tensor<64x32xf16>
    scf.yield %a : tensor<64x32xf16>
  }
  %nan = tile.block_load %d {boundaryCheck = array<i32: 0, 1>, descriptor, padding = #tile.padding<nan>} : !tile.block_ptr<tensor<64x32xf16>>
  %d3 = tile.make_block_ptr %base, [%m, %m, %k], [%stride, %stride, %one], [%c0, %c0, %c0] order [2, 1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<2x64x32xf16>>
  %v3 = tile.block_load %d3 {boundaryCheck = array<i32: 0, 1, 2>, descriptor} : !tile.block_ptr<tensor<2x64x32xf16>>
  return %sum, %nan, %v3 : tensor<64x32xf16>, tensor<64x32xf16>, tensor<2x64x32xf16>
}

// A descriptor's 2-D block store carries the map too (for a TMA store).
// CHECK-LABEL: func.func @descriptor_store_map
// CHECK: %[[MAP:.*]] = tile.make_tensor_map %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] block [64, 32] : <f16>
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} tma(%[[MAP]][%{{.*}}, %{{.*}}]) : tensor<64x32x!tile.ptr<f16>>
func.func @descriptor_store_map(%base: !tile.ptr<f16>, %m: i64, %k: i64, %r: i32, %c: i32, %v: tensor<64x32xf16>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %d = tile.make_block_ptr %base, [%m, %k], [%k, %one], [%c0, %c0] order [1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %p = tile.advance %d, [%r, %c] : !tile.block_ptr<tensor<64x32xf16>>
  tile.block_store %p, %v {boundaryCheck = array<i32: 0, 1>, descriptor} : !tile.block_ptr<tensor<64x32xf16>>
  return
}

// A block pointer chosen by a condition (`if c: p = q` after
// canonicalization) is chosen part by part.
// CHECK-LABEL: func.func @select_block_pointer
// CHECK-SAME: (%[[X:[^:]*]]: !tile.ptr<f32>, %[[Y:[^:]*]]: !tile.ptr<f32>, %[[N:[^:]*]]: i64, %[[C:[^:]*]]: i1)
// CHECK-NOT: tile.block_ptr
// CHECK: %[[P:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : !tile.ptr<f32>
// CHECK: tile.splat %[[P]]
func.func @select_block_pointer(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i64, %c: i1) -> tensor<64xf32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %p = tile.make_block_ptr %x, [%n], [%c1], [%c0] order [0] : <f32> -> <tensor<64xf32>>
  %q = tile.make_block_ptr %y, [%n], [%c1], [%c0] order [0] : <f32> -> <tensor<64xf32>>
  %s = arith.select %c, %p, %q : !tile.block_ptr<tensor<64xf32>>
  %v = tile.block_load %s {boundaryCheck = array<i32: 0>} : <tensor<64xf32>>
  return %v : tensor<64xf32>
}
