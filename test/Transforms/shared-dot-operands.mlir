// RUN: tile-opt %s --split-input-file --tilegpu-shared-dot-operands | FileCheck %s
// A dot whose operands are converted from blocked (load) layouts into
// mma.sync operand layouts instead stores each operand once into swizzled
// shared memory and reads it back one instruction-deep k-slice at a time,
// so that only one slice of operands is live in registers.

#blockedA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blockedB = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#dotB = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 2>

// 64-byte rows of A (32 halves) share a phase per pair of rows (perPhase 2)
// and cycle through 4 phases; 128-byte rows of B through 8.
// CHECK-LABEL: func.func @f16
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf16, {{.*}}>, %[[B:.*]]: tensor<32x64xf16, {{.*}}>, %[[C:.*]]: tensor<64x64xf32, {{.*}}>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[MA:.*]] = tilegpu.local_alloc %[[A]] : ({{.*}}) -> !tilegpu.memdesc<64x32xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
// CHECK: %[[MB:.*]] = tilegpu.local_alloc %[[B]] : ({{.*}}) -> !tilegpu.memdesc<32x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// Slice 1 is read before the dot of slice 0 (a one-slice prefetch).
// CHECK: %[[A0:.*]] = tilegpu.local_load %[[MA]] {offsets = array<i64: 0, 0>} : {{.*}} -> tensor<64x16xf16, #tilegpu.dot_op<opIdx = 0
// CHECK: %[[B0:.*]] = tilegpu.local_load %[[MB]] {offsets = array<i64: 0, 0>} : {{.*}} -> tensor<16x64xf16, #tilegpu.dot_op<opIdx = 1
// CHECK: %[[A1:.*]] = tilegpu.local_load %[[MA]] {offsets = array<i64: 0, 16>}
// CHECK: %[[B1:.*]] = tilegpu.local_load %[[MB]] {offsets = array<i64: 16, 0>}
// CHECK: %[[D0:.*]] = tile.dot %[[A0]], %[[B0]], %[[C]]
// CHECK: %[[D1:.*]] = tile.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK: return %[[D1]]
func.func @f16(%a: tensor<64x32xf16, #blockedA>, %b: tensor<32x64xf16, #blockedB>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %ca = tilegpu.convert_layout %a : tensor<64x32xf16, #blockedA> -> tensor<64x32xf16, #dotA>
  %cb = tilegpu.convert_layout %b : tensor<32x64xf16, #blockedB> -> tensor<32x64xf16, #dotB>
  %d = tile.dot %ca, %cb, %c : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#blockedA = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#blockedB = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 1>
#dotB = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 1>

// tf32 slices are 8 deep; an A loaded with M contiguous keeps that order
// in shared memory (16-byte chunks are 4 x f32).
// CHECK-LABEL: func.func @tf32_m_major
// CHECK: tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<32x16xf32, #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.local_load %{{.*}} {offsets = array<i64: 0, 8>} {{.*}} -> tensor<32x8xf32
// CHECK: tile.dot
// CHECK: tile.dot
// CHECK-NOT: tile.dot
func.func @tf32_m_major(%a: tensor<32x16xf32, #blockedA>, %b: tensor<16x32xf32, #blockedB>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
  %ca = tilegpu.convert_layout %a : tensor<32x16xf32, #blockedA> -> tensor<32x16xf32, #dotA>
  %cb = tilegpu.convert_layout %b : tensor<16x32xf32, #blockedB> -> tensor<16x32xf32, #dotB>
  %d = tile.dot %ca, %cb, %c : tensor<32x16xf32, #dotA> * tensor<16x32xf32, #dotB> -> tensor<32x32xf32, #mma>
  return %d : tensor<32x32xf32, #mma>
}

// -----

#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>

// The portable (blocked) dot is left alone.
// CHECK-LABEL: func.func @blocked_dot
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tile.dot
func.func @blocked_dot(%a: tensor<16x16xf16, #blocked>, %b: tensor<16x16xf16, #blocked>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
  %d = tile.dot %a, %b, %c : tensor<16x16xf16, #blocked> * tensor<16x16xf16, #blocked> -> tensor<16x16xf32, #blocked>
  return %d : tensor<16x16xf32, #blocked>
}

// -----

#blockedA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blockedB = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#dotB = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 2>

// An operand computed before the loop (attention's Q) is stored to shared
// memory once, where it is computed; the one loaded in the loop each
// iteration.
// CHECK-LABEL: func.func @loop_invariant_operand
// CHECK: %[[Q:.*]] = tile.load %arg0
// CHECK-NEXT: %[[MQ:.*]] = tilegpu.local_alloc %[[Q]]
// CHECK: scf.for
// CHECK:   %[[K:.*]] = tile.load %arg1
// CHECK:   %[[MK:.*]] = tilegpu.local_alloc %[[K]]
// CHECK:   tilegpu.local_load %[[MQ]]
// CHECK:   tilegpu.local_load %[[MK]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK: return
func.func @loop_invariant_operand(%pq: tensor<64x32x!tile.ptr<f16>, #blockedA>, %pk: tensor<32x64x!tile.ptr<f16>, #blockedB>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %q = tile.load %pq : tensor<64x32x!tile.ptr<f16>, #blockedA>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %k = tile.load %pk : tensor<32x64x!tile.ptr<f16>, #blockedB>
    %cq = tilegpu.convert_layout %q : tensor<64x32xf16, #blockedA> -> tensor<64x32xf16, #dotA>
    %ck = tilegpu.convert_layout %k : tensor<32x64xf16, #blockedB> -> tensor<32x64xf16, #dotB>
    %d = tile.dot %cq, %ck, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

// Attention's P @ V: P is the previous dot's result, already in its operand
// layout in registers (warps own whole rows), so it is sliced in place;
// only V, loaded from memory, is staged.
#blockedV = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaRows = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotP = #tilegpu.dot_op<opIdx = 0, parent = #mmaRows, kWidth = 2>
#dotV = #tilegpu.dot_op<opIdx = 1, parent = #mmaRows, kWidth = 2>
// CHECK-LABEL: func.func @register_operand
// CHECK: %[[MV:.*]] = tilegpu.local_alloc %arg1
// CHECK-NOT: tilegpu.local_alloc
// CHECK: %[[P0:.*]] = tilegpu.extract_slice %[[P:.*]] [0, 0] : tensor<64x32xf16, {{.*}}> -> tensor<64x16xf16, #tilegpu.dot_op<opIdx = 0
// CHECK: %[[V0:.*]] = tilegpu.local_load %[[MV]] {offsets = array<i64: 0, 0>} : {{.*}} -> tensor<16x64xf16, #tilegpu.dot_op<opIdx = 1
// CHECK: tilegpu.extract_slice %[[P]] [0, 16]
// CHECK: tilegpu.local_load %[[MV]] {offsets = array<i64: 16, 0>}
// CHECK: tile.dot %[[P0]], %[[V0]], %arg2
// CHECK: tile.dot
// CHECK-NOT: tile.dot
func.func @register_operand(%s: tensor<64x32xf16, #mmaRows>, %v: tensor<32x64xf16, #blockedV>, %c: tensor<64x64xf32, #mmaRows>) -> tensor<64x64xf32, #mmaRows> {
  %p = tilegpu.convert_layout %s : tensor<64x32xf16, #mmaRows> -> tensor<64x32xf16, #dotP>
  %cv = tilegpu.convert_layout %v : tensor<32x64xf16, #blockedV> -> tensor<32x64xf16, #dotV>
  %d = tile.dot %p, %cv, %c : tensor<64x32xf16, #dotP> * tensor<32x64xf16, #dotV> -> tensor<64x64xf32, #mmaRows>
  return %d : tensor<64x64xf32, #mmaRows>
}

// -----

// Neither operand comes from a load: nothing to stage, the dot stays whole.
#mma4 = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dA = #tilegpu.dot_op<opIdx = 0, parent = #mma4, kWidth = 2>
#dB = #tilegpu.dot_op<opIdx = 1, parent = #mma4, kWidth = 2>
// CHECK-LABEL: func.func @neither_from_load
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: tilegpu.extract_slice
// CHECK: tile.dot
// CHECK-NOT: tile.dot
func.func @neither_from_load(%a: tensor<64x32xf16, #mma4>, %b: tensor<32x64xf16, #mma4>, %c: tensor<64x64xf32, #mma4>) -> tensor<64x64xf32, #mma4> {
  %ca = tilegpu.convert_layout %a : tensor<64x32xf16, #mma4> -> tensor<64x32xf16, #dA>
  %cb = tilegpu.convert_layout %b : tensor<32x64xf16, #mma4> -> tensor<32x64xf16, #dB>
  %d = tile.dot %ca, %cb, %c : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma4>
  return %d : tensor<64x64xf32, #mma4>
}

// -----

// A wgmma dot (version-3 accumulator) stores both operands once in wgmma's
// line layout, each in its producer's order (A K-contiguous in 128-byte
// lines; B N-contiguous, cut into two 128-byte lines of 64 columns), and
// becomes one warpgroup_dot reading them from shared memory.
#bA3 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#bB3 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>
#dA3 = #tilegpu.dot_op<opIdx = 0, parent = #mma3, kWidth = 2>
#dB3 = #tilegpu.dot_op<opIdx = 1, parent = #mma3, kWidth = 2>
// CHECK-LABEL: func.func @wgmma
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, {{.*}}>, %[[B:.*]]: tensor<64x128xf16, {{.*}}>, %[[C:.*]]: tensor<64x128xf32, {{.*}}>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[MA:.*]] = tilegpu.local_alloc %[[A]] : ({{.*}}) -> !tilegpu.memdesc<64x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>
// CHECK: %[[MB:.*]] = tilegpu.local_alloc %[[B]] : ({{.*}}) -> !tilegpu.memdesc<64x128xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %[[MA]], %[[MB]], %[[C]]
// CHECK-NOT: tile.dot
// CHECK: return %[[D]]
func.func @wgmma(%a: tensor<64x64xf16, #bA3>, %b: tensor<64x128xf16, #bB3>, %c: tensor<64x128xf32, #mma3>) -> tensor<64x128xf32, #mma3> {
  %ca = tilegpu.convert_layout %a : tensor<64x64xf16, #bA3> -> tensor<64x64xf16, #dA3>
  %cb = tilegpu.convert_layout %b : tensor<64x128xf16, #bB3> -> tensor<64x128xf16, #dB3>
  %d = tile.dot %ca, %cb, %c : tensor<64x64xf16, #dA3> * tensor<64x128xf16, #dB3> -> tensor<64x128xf32, #mma3>
  return %d : tensor<64x128xf32, #mma3>
}

// -----

// A K-contiguous B (a transposed load, order [0, 1]) is stored with K
// contiguous: 32 rows of K are 64-byte lines.
#bA4 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#bB4 = #tilegpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#mma4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dA4 = #tilegpu.dot_op<opIdx = 0, parent = #mma4, kWidth = 2>
#dB4 = #tilegpu.dot_op<opIdx = 1, parent = #mma4, kWidth = 2>
// CHECK-LABEL: func.func @wgmma_k_major_b
// CHECK: tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<64x32xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], lineElems = 32>>
// CHECK: tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<32x64xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], lineElems = 32>>
// CHECK: tilegpu.warpgroup_dot
func.func @wgmma_k_major_b(%a: tensor<64x32xf16, #bA4>, %b: tensor<32x64xf16, #bB4>, %c: tensor<64x64xf32, #mma4>) -> tensor<64x64xf32, #mma4> {
  %ca = tilegpu.convert_layout %a : tensor<64x32xf16, #bA4> -> tensor<64x32xf16, #dA4>
  %cb = tilegpu.convert_layout %b : tensor<32x64xf16, #bB4> -> tensor<32x64xf16, #dB4>
  %d = tile.dot %ca, %cb, %c : tensor<64x32xf16, #dA4> * tensor<32x64xf16, #dB4> -> tensor<64x64xf32, #mma4>
  return %d : tensor<64x64xf32, #mma4>
}

// -----

// A wgmma dot whose A is the previous dot's result (attention's P, already
// in its #dot_op layout in registers) keeps A there; only B is staged.
#mmaP = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dP = #tilegpu.dot_op<opIdx = 0, parent = #mmaP, kWidth = 2>
#dV = #tilegpu.dot_op<opIdx = 1, parent = #mmaP, kWidth = 2>
#bV = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_register_a
// CHECK-SAME: (%[[S:.*]]: tensor<64x64xf16, {{.*}}>, %[[V:.*]]: tensor<64x64xf16, {{.*}}>, %[[C:.*]]: tensor<64x64xf32, {{.*}}>)
// CHECK: %[[P:.*]] = tilegpu.convert_layout %[[S]] : {{.*}} -> tensor<64x64xf16, #tilegpu.dot_op<opIdx = 0
// CHECK: %[[MV:.*]] = tilegpu.local_alloc %[[V]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tilegpu.warpgroup_dot %[[P]], %[[MV]], %[[C]] : tensor<64x64xf16, #tilegpu.dot_op<opIdx = 0
func.func @wgmma_register_a(%s: tensor<64x64xf16, #mmaP>, %v: tensor<64x64xf16, #bV>, %c: tensor<64x64xf32, #mmaP>) -> tensor<64x64xf32, #mmaP> {
  %p = tilegpu.convert_layout %s : tensor<64x64xf16, #mmaP> -> tensor<64x64xf16, #dP>
  %cv = tilegpu.convert_layout %v : tensor<64x64xf16, #bV> -> tensor<64x64xf16, #dV>
  %d = tile.dot %p, %cv, %c : tensor<64x64xf16, #dP> * tensor<64x64xf16, #dV> -> tensor<64x64xf32, #mmaP>
  return %d : tensor<64x64xf32, #mmaP>
}

// -----

// B given transposed (tl.dot(a, b.T) of a loaded N x K tile): the tile is
// stored as loaded (K contiguous) and wgmma reads it through a transposed
// view of the same bytes, so its store still comes straight from the load
// (which tilegpu-pipeline turns into cp.async); the transpose goes away.
#bT = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#bTt = #tilegpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#mmaT = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>
#dAT = #tilegpu.dot_op<opIdx = 0, parent = #mmaT, kWidth = 2>
#dBT = #tilegpu.dot_op<opIdx = 1, parent = #mmaT, kWidth = 2>
// CHECK-LABEL: func.func @wgmma_transposed_b
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, {{.*}}>, %[[BNK:.*]]: tensor<128x64xf16, {{.*}}>, %[[C:.*]]: tensor<64x128xf32, {{.*}}>)
// CHECK-NOT: tile.trans
// CHECK: %[[MA:.*]] = tilegpu.local_alloc %[[A]]
// CHECK: %[[MB:.*]] = tilegpu.local_alloc %[[BNK]] : ({{.*}}) -> !tilegpu.memdesc<128x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>
// CHECK: %[[VB:.*]] = tilegpu.memdesc_trans %[[MB]], [1, 0] : {{.*}} -> !tilegpu.memdesc<64x128xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>>
// CHECK: tilegpu.warpgroup_dot %[[MA]], %[[VB]], %[[C]]
// CHECK-NOT: tile.trans
func.func @wgmma_transposed_b(%a: tensor<64x64xf16, #bT>, %bnk: tensor<128x64xf16, #bT>, %c: tensor<64x128xf32, #mmaT>) -> tensor<64x128xf32, #mmaT> {
  %b = tile.trans %bnk, [1, 0] : tensor<128x64xf16, #bT> -> tensor<64x128xf16, #bTt>
  %ca = tilegpu.convert_layout %a : tensor<64x64xf16, #bT> -> tensor<64x64xf16, #dAT>
  %cb = tilegpu.convert_layout %b : tensor<64x128xf16, #bTt> -> tensor<64x128xf16, #dBT>
  %d = tile.dot %ca, %cb, %c : tensor<64x64xf16, #dAT> * tensor<64x128xf16, #dBT> -> tensor<64x128xf32, #mmaT>
  return %d : tensor<64x128xf32, #mmaT>
}

// -----

// An accumulator that restarts from zero under a condition (a fused
// persistent loop's first k-step of a tile: select(first, 0, acc)) becomes
// the carried accumulator with `useC` false where the condition holds.
#bU = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaU = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dAU = #tilegpu.dot_op<opIdx = 0, parent = #mmaU, kWidth = 2>
#dBU = #tilegpu.dot_op<opIdx = 1, parent = #mmaU, kWidth = 2>
// CHECK-LABEL: func.func @wgmma_restart
// CHECK-SAME: %[[FIRST:[^:]*]]: i1
// CHECK: %[[USE:.*]] = arith.xori %[[FIRST]], %true
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[ACC:[^ ]*]] useC %[[USE]]
// CHECK-NOT: arith.select
func.func @wgmma_restart(%a: tensor<64x64xf16, #bU>, %b: tensor<64x64xf16, #bU>, %acc: tensor<64x64xf32, #mmaU>, %first: i1) -> tensor<64x64xf32, #mmaU> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaU>
  %c = arith.select %first, %zero, %acc : tensor<64x64xf32, #mmaU>
  %ca = tilegpu.convert_layout %a : tensor<64x64xf16, #bU> -> tensor<64x64xf16, #dAU>
  %cb = tilegpu.convert_layout %b : tensor<64x64xf16, #bU> -> tensor<64x64xf16, #dBU>
  %d = tile.dot %ca, %cb, %c : tensor<64x64xf16, #dAU> * tensor<64x64xf16, #dBU> -> tensor<64x64xf32, #mmaU>
  return %d : tensor<64x64xf32, #mmaU>
}

// -----

// A loaded tile read by two wgmma dots, once as loaded and once transposed
// (tutorial 06 backward's qT in `k @ qT` and `dsT @ qT.T`), is stored once:
// the second dot reads a transposed view of the first one's buffer, and
// the load keeps the store as its only use (tilegpu-pipeline's condition).
#bK = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#bQ = #tilegpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#bQt = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaS = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]>
#mmaG = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dAS = #tilegpu.dot_op<opIdx = 0, parent = #mmaS, kWidth = 2>
#dBS = #tilegpu.dot_op<opIdx = 1, parent = #mmaS, kWidth = 2>
#dAG = #tilegpu.dot_op<opIdx = 0, parent = #mmaG, kWidth = 2>
#dBG = #tilegpu.dot_op<opIdx = 1, parent = #mmaG, kWidth = 2>
// CHECK-LABEL: func.func @wgmma_shared_twice
// CHECK-SAME: (%[[K:[^:]*]]: tensor<128x64xf16, {{.*}}>, %[[QT:[^:]*]]: tensor<64x32xf16, {{.*}}>
// CHECK: %[[MQ:.*]] = tilegpu.local_alloc %[[QT]]
// CHECK: %[[VQ:.*]] = tilegpu.memdesc_trans %[[MQ]], [1, 0]
// CHECK-NOT: tilegpu.local_alloc %[[QT]]
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %[[MQ]],
// CHECK-NOT: tilegpu.local_alloc %[[QT]]
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %[[VQ]],
func.func @wgmma_shared_twice(%k: tensor<128x64xf16, #bK>, %qT: tensor<64x32xf16, #bQ>, %ds: tensor<128x32xf16, #mmaS>,
                              %c1: tensor<128x32xf32, #mmaS>, %c2: tensor<128x64xf32, #mmaG>) -> (tensor<128x32xf32, #mmaS>, tensor<128x64xf32, #mmaG>) {
  %ck = tilegpu.convert_layout %k : tensor<128x64xf16, #bK> -> tensor<128x64xf16, #dAS>
  %cq = tilegpu.convert_layout %qT : tensor<64x32xf16, #bQ> -> tensor<64x32xf16, #dBS>
  %s = tile.dot %ck, %cq, %c1 : tensor<128x64xf16, #dAS> * tensor<64x32xf16, #dBS> -> tensor<128x32xf32, #mmaS>
  %q = tile.trans %qT, [1, 0] : tensor<64x32xf16, #bQ> -> tensor<32x64xf16, #bQt>
  %cds = tilegpu.convert_layout %ds : tensor<128x32xf16, #mmaS> -> tensor<128x32xf16, #dAG>
  %cqq = tilegpu.convert_layout %q : tensor<32x64xf16, #bQt> -> tensor<32x64xf16, #dBG>
  %g = tile.dot %cds, %cqq, %c2 : tensor<128x32xf16, #dAG> * tensor<32x64xf16, #dBG> -> tensor<128x64xf32, #mmaG>
  return %s, %g : tensor<128x32xf32, #mmaS>, tensor<128x64xf32, #mmaG>
}

// -----

// A tf32 A stored along M (the transpose of a row-major B, as the fp32
// matmul's transposed product has it) is staged as it was loaded, through a
// transposed view of its buffer, in lines whose 8-element chunks are
// swizzled by the line index modulo 4 (the wgmma lowering reads it into
// registers without bank conflicts); B, K-major, in wgmma's layout.
#bB32 = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#bBT32 = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
#bAT32 = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#mma32 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>
#dA32 = #tilegpu.dot_op<opIdx = 0, parent = #mma32, kWidth = 1>
#dB32 = #tilegpu.dot_op<opIdx = 1, parent = #mma32, kWidth = 1>
// CHECK-LABEL: func.func @tf32_a_along_m
// CHECK-SAME: (%[[B:[^:]*]]: tensor<32x64xf32, {{.*}}>, %[[AT:[^:]*]]: tensor<32x128xf32, {{.*}}>
// CHECK: %[[MB:.*]] = tilegpu.local_alloc %[[B]] : ({{.*}}) -> !tilegpu.memdesc<32x64xf32, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]>>
// CHECK: %[[VB:.*]] = tilegpu.memdesc_trans %[[MB]], [1, 0] : {{.*}} -> !tilegpu.memdesc<64x32xf32, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]>>
// CHECK: %[[MA:.*]] = tilegpu.local_alloc %[[AT]] : ({{.*}}) -> !tilegpu.memdesc<32x128xf32, #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 32>>
// CHECK: tilegpu.warpgroup_dot %[[VB]], %[[MA]], %{{.*}} : !tilegpu.memdesc<64x32xf32, {{.*}}>, !tilegpu.memdesc<32x128xf32, {{.*}}>, tensor<64x128xf32
// CHECK-NOT: tile.trans
// CHECK-NOT: tile.dot
func.func @tf32_a_along_m(%b: tensor<32x64xf32, #bB32>, %aT: tensor<32x128xf32, #bAT32>, %c: tensor<64x128xf32, #mma32>) -> tensor<64x128xf32, #mma32> {
  %bT = tile.trans %b, [1, 0] : tensor<32x64xf32, #bB32> -> tensor<64x32xf32, #bBT32>
  %ca = tilegpu.convert_layout %bT : tensor<64x32xf32, #bBT32> -> tensor<64x32xf32, #dA32>
  %cb = tilegpu.convert_layout %aT : tensor<32x128xf32, #bAT32> -> tensor<32x128xf32, #dB32>
  %d = tile.dot %ca, %cb, %c : tensor<64x32xf32, #dA32> * tensor<32x128xf32, #dB32> -> tensor<64x128xf32, #mma32>
  return %d : tensor<64x128xf32, #mma32>
}

// -----

// A loaded A that the dot's loop does not change (attention's Q) is stored
// once and read into registers once, before the loop (ldmatrix's swizzle):
// in the loop wgmma reads only B from shared memory. Only where the
// estimate of a thread's registers (the loop's fp32 accumulators plus 64)
// stays at 192 or less and at the same programs per SM with the tile's
// registers: 96 + 64 -> 176 here; @halves: 64 + 64 = 128 (two programs of
// 8 warps) would become 144 (one), so A stays in shared memory.
#bQ = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaQ = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 192]>
#dQ = #tilegpu.dot_op<opIdx = 0, parent = #mmaQ, kWidth = 2>
#dK = #tilegpu.dot_op<opIdx = 1, parent = #mmaQ, kWidth = 2>
// CHECK-LABEL: func.func @loop_invariant_a
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<128x64xf16,
// CHECK: %[[MQ:.*]] = tilegpu.local_alloc %[[Q]] : ({{.*}}) -> !tilegpu.memdesc<128x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[RQ:.*]] = tilegpu.local_load %[[MQ]] : {{.*}} -> tensor<128x64xf16, #tilegpu.dot_op<opIdx = 0
// CHECK: scf.for
// CHECK: %[[MK:.*]] = tilegpu.local_alloc
// CHECK: tilegpu.warpgroup_dot %[[RQ]], %[[MK]]
func.func @loop_invariant_a(%q: tensor<128x64xf16, #bQ>, %k: tensor<64x192xf16, #bQ>, %c: tensor<128x192xf32, #mmaQ>) -> tensor<128x192xf32, #mmaQ> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cq = tilegpu.convert_layout %q : tensor<128x64xf16, #bQ> -> tensor<128x64xf16, #dQ>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c) -> (tensor<128x192xf32, #mmaQ>) {
    %ck = tilegpu.convert_layout %k : tensor<64x192xf16, #bQ> -> tensor<64x192xf16, #dK>
    %d = tile.dot %cq, %ck, %acc : tensor<128x64xf16, #dQ> * tensor<64x192xf16, #dK> -> tensor<128x192xf32, #mmaQ>
    scf.yield %d : tensor<128x192xf32, #mmaQ>
  }
  return %r : tensor<128x192xf32, #mmaQ>
}

// -----

#bH = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaH = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]>
#dQH = #tilegpu.dot_op<opIdx = 0, parent = #mmaH, kWidth = 2>
#dKH = #tilegpu.dot_op<opIdx = 1, parent = #mmaH, kWidth = 2>
// CHECK-LABEL: func.func @halves
// CHECK-NOT: tilegpu.local_load
// CHECK: scf.for
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc<128x64xf16
func.func @halves(%q: tensor<128x64xf16, #bH>, %k: tensor<64x128xf16, #bH>, %c: tensor<128x128xf32, #mmaH>) -> tensor<128x128xf32, #mmaH> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cq = tilegpu.convert_layout %q : tensor<128x64xf16, #bH> -> tensor<128x64xf16, #dQH>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c) -> (tensor<128x128xf32, #mmaH>) {
    %ck = tilegpu.convert_layout %k : tensor<64x128xf16, #bH> -> tensor<64x128xf16, #dKH>
    %d = tile.dot %cq, %ck, %acc : tensor<128x64xf16, #dQH> * tensor<64x128xf16, #dKH> -> tensor<128x128xf32, #mmaH>
    scf.yield %d : tensor<128x128xf32, #mmaH>
  }
  return %r : tensor<128x128xf32, #mmaH>
}
