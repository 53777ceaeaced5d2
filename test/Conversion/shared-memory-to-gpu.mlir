// RUN: tile-opt %s --split-input-file --convert-tilegpu-to-gpu | FileCheck %s
// Shared tiles at their offsets, the XOR swizzle in the addresses, 16-byte
// vector stores, cp.async with zero fill, and ldmatrix for mma operands.

#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>

// local_alloc with a value: barrier, then per thread one 16-byte store of
// its 8 contiguous halves at row * 32 + (col ^ ((row / 2) % 4) * 8), then
// a barrier so every thread sees every store.
// CHECK-LABEL: gpu.func @store_swizzled
// CHECK:     %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK:     %[[BASE:.*]] = llvm.getelementptr %[[SMEM]][%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:     gpu.barrier
// CHECK:     %[[PHASE:.*]] = arith.divui %[[ROW:.*]], %c2_i32
// CHECK:     %[[PMOD:.*]] = arith.remui %[[PHASE]], %c4_i32
// CHECK:     %[[PVEC:.*]] = arith.muli %[[PMOD]], %c8_i32
// CHECK:     %[[COL:.*]] = arith.xori %{{.*}}, %[[PVEC]]
// CHECK:     llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:     gpu.barrier
func.func @store_swizzled(%x: tensor<64x32xf16, #bA>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc %x {offset = 1024 : i32} : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
  return
}

// -----

#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>

// Buffer i of a ring is 4096 bytes further; each thread starts two 16-byte
// copies (cache global, .cg) whose source size is 16 or 0 by the mask, and
// commit and wait become cp.async.commit_group / wait_group + a barrier.
// The ring's allocation is a barrier too: copies wait for no earlier
// reader of the bytes they overwrite.
// CHECK-LABEL: gpu.func @async_copy
// CHECK:     %[[RING:.*]] = llvm.getelementptr %{{.*}}[%c0_i32]
// CHECK-NEXT: gpu.barrier
// CHECK:     %[[OFF:.*]] = arith.muli %{{.*}}, %c4096_i32
// CHECK:     %[[SLOT:.*]] = llvm.getelementptr %[[RING]][%[[OFF]]]
// CHECK:     %[[SIZE:.*]] = arith.select %{{.*}}, %c16_i32, %c0_i32
// CHECK:     nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK:     nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK:     nvvm.cp.async.commit.group
// CHECK:     nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
func.func @async_copy(%p: tensor<64x32x!tile.ptr<f16>, #bA>, %mask: tensor<64x32xi1, #bA>, %i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %ring = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<2x64x32xf16, #sA>
  %slot = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<2x64x32xf16, #sA> -> !tilegpu.memdesc<64x32xf16, #sA>
  tilegpu.async_copy %p, %slot mask %mask {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bA>, !tilegpu.memdesc<64x32xf16, #sA>, tensor<64x32xi1, #bA>
  tilegpu.async_commit_group
  tilegpu.async_wait 1
  return
}

// -----

#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#sB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#sBt = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#dotB = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 2>

// A 64 x 16 window of A for 2 x 2 warps: each warp reads two 16 x 16 tiles
// with one ldmatrix.x4 each (K contiguous: no transpose).
// CHECK-LABEL: gpu.func @ldmatrix_a
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.ldmatrix
func.func @ldmatrix_a(%i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x32xf16, #sA>
  %a = tilegpu.local_load %m {offsets = array<i64: 0, 16>} : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x16xf16, #dotA>
  return
}

// B (16 x 64, N contiguous) is stored k-major: ldmatrix.trans, one x4 per
// two of the warp's four n-tiles.
// CHECK-LABEL: gpu.func @ldmatrix_b_trans
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
func.func @ldmatrix_b_trans(%i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<32x64xf16, #sB>
  %b = tilegpu.local_load %m {offsets = array<i64: 16, 0>} : !tilegpu.memdesc<32x64xf16, #sB> -> tensor<16x64xf16, #dotB>
  return
}

// B stored with K contiguous (a transposed B in memory): plain ldmatrix.
// CHECK-LABEL: gpu.func @ldmatrix_b_kmajor
// CHECK: nvvm.ldmatrix %{{.*}} {{{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
func.func @ldmatrix_b_kmajor(%i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<32x64xf16, #sBt>
  %b = tilegpu.local_load %m {offsets = array<i64: 0, 0>} : !tilegpu.memdesc<32x64xf16, #sBt> -> tensor<16x64xf16, #dotB>
  return
}

// -----

// Elements read one by one (tf32 B fragments of mma.sync from an N-major
// swizzled tile, a k-window at row 8): a per-thread base for each
// combination of the register bits the swizzle does not merely offset
// (four here), every read that base plus an immediate, not an offset per
// register (which LLVM would keep in a register through a loop).
#sB32 = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotB32 = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 1>
// CHECK-LABEL: gpu.func @scalar_fragments
// CHECK: %[[B0:.*]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i32)
// CHECK-COUNT-3: llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i32)
// CHECK: llvm.getelementptr %[[B0]][%c0_i32{{.*}}]
// CHECK: llvm.load {{.*}} -> f32
// CHECK: llvm.getelementptr %[[B0]][%c128_i32]
// CHECK: llvm.load {{.*}} -> f32
func.func @scalar_fragments(%p: tensor<8x64x!tile.ptr<f32>, #dotB32>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<16x64xf32, #sB32>
  %b = tilegpu.local_load %m {offsets = array<i64: 8, 0>} : !tilegpu.memdesc<16x64xf32, #sB32> -> tensor<8x64xf32, #dotB32>
  tile.store %p, %b : tensor<8x64x!tile.ptr<f32>, #dotB32>
  return
}

// -----

// A tile staged in a loop (attention's K and V at one stage): the thread's
// eight 16-byte stores, rows 16 apart, keep the same swizzled column, so
// they are one per-thread base plus immediates (2048 bytes a step), not
// eight loop-invariant addresses LLVM would keep in registers.
#bK = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#sK = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: gpu.func @store_in_loop
// CHECK:     scf.for
// CHECK:       gpu.barrier
// CHECK:       %[[B:.*]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i32)
// CHECK-NOT:   llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i32)
// CHECK:       %[[A0:.*]] = llvm.getelementptr %[[B]][%c0_i32{{.*}}]
// CHECK:       llvm.store {{.*}}, %[[A0]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:       %[[A1:.*]] = llvm.getelementptr %[[B]][%c2048_i32]
// CHECK:       llvm.store {{.*}}, %[[A1]]
// CHECK-COUNT-5: llvm.store
// CHECK:       %[[A7:.*]] = llvm.getelementptr %[[B]][%c14336_i32]
// CHECK:       llvm.store {{.*}}, %[[A7]]
// CHECK:       gpu.barrier
func.func @store_in_loop(%x: tensor<128x64xf16, #bK>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %m = tilegpu.local_alloc %x {offset = 0 : i32} : (tensor<128x64xf16, #bK>) -> !tilegpu.memdesc<128x64xf16, #sK>
  }
  return
}

// -----

// mbarriers: thread 0 initializes (and later invalidates) each barrier of
// a buffer, followed by a barrier of the program; waits spin on
// try_wait.parity with the phase's low bit (then fence for wgmma when
// asked); arrivals are plain (one per warp's lane 0 with per_warp) or
// follow the thread's cp.async copies.
#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
// CHECK-LABEL: gpu.func @mbarriers
// CHECK:       %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "@$1 mbarrier.init.shared::cta.b64 [$0], 256;", "r,b" %{{.*}}, %[[T0]]
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "@$1 mbarrier.init.shared::cta.b64 [$0], 256;", "r,b"
// CHECK:       gpu.barrier
// CHECK:       %[[PARITY:.*]] = arith.andi %arg0, %c1_i32
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{\0A\09.reg .pred done;\0Ambarrier_wait_${:uid}:\0A\09mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A\09@!done bra mbarrier_wait_${:uid};\0A\09}", "r,r" %{{.*}}, %[[PARITY]]
// CHECK-NEXT:  nvvm.fence.proxy
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "r"
// CHECK:       %[[LANE0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK:       %[[P:.*]] = arith.andi %arg1, %[[LANE0]]
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{\0A\09.reg .b64 state;\0A\09@$1 mbarrier.arrive.shared::cta.b64 state, [$0];\0A\09}", "r,b" %{{.*}}, %[[P]]
// CHECK:       gpu.barrier
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "@$1 mbarrier.inval.shared::cta.b64 [$0];", "r,b"
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "@$1 mbarrier.inval.shared::cta.b64 [$0];", "r,b"
// CHECK:       gpu.barrier
func.func @mbarriers(%phase: i32, %pred: i1) attributes {tilegpu.num_warps = 8 : i32} {
  %c1 = arith.constant 1 : i32
  %b = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<2x1xi64, #s1>
  tilegpu.mbarrier_init %b, 256 : !tilegpu.memdesc<2x1xi64, #s1>
  %one = tilegpu.memdesc_index %b[%c1] : !tilegpu.memdesc<2x1xi64, #s1> -> !tilegpu.memdesc<1xi64, #s1>
  tilegpu.mbarrier_wait %one, %phase fence_async_proxy : !tilegpu.memdesc<1xi64, #s1>
  tilegpu.async_copy_arrive %one : !tilegpu.memdesc<1xi64, #s1>
  tilegpu.mbarrier_arrive %one if %pred per_warp : !tilegpu.memdesc<1xi64, #s1>
  tilegpu.mbarrier_inval %b : !tilegpu.memdesc<2x1xi64, #s1>
  return
}

// -----

// A copy whose mask only cuts runs at their ends (tilegpu.prefix_mask: a
// row's last K block with K not a multiple of 8) gives each 16-byte copy
// the size of its true prefix: 2 bytes per true mask element, summed.
#bP = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sP = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
// CHECK-LABEL: gpu.func @prefix_copy
// CHECK:     arith.select %{{.*}}, %c2_i32{{.*}}, %c0_i32
// CHECK-COUNT-7: arith.select %{{.*}}, %c2_i32{{.*}}, %c0_i32
// CHECK:     %[[SIZE:.*]] = arith.addi
// CHECK:     nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] :
// CHECK:     nvvm.cp.async.shared.global
// CHECK-NOT: nvvm.cp.async.shared.global
func.func @prefix_copy(%p: tensor<64x32x!tile.ptr<f16>, #bP>, %mask: tensor<64x32xi1, #bP>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x32xf16, #sP>
  tilegpu.async_copy %p, %m mask %mask {tilegpu.vec = 8 : i32, tilegpu.prefix_mask} : tensor<64x32x!tile.ptr<f16>, #bP>, !tilegpu.memdesc<64x32xf16, #sP>, tensor<64x32xi1, #bP>
  return
}

// -----

// With a run length, each 16-byte copy moves clamp(length, 0, 8) halves of
// its run (2 bytes each), as the run's first element gives it, and the mask
// says whether the run is copied at all.
#bL = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sL = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
// CHECK-LABEL: gpu.func @run_length_copy
// CHECK:     %[[LO:.*]] = arith.maxsi %{{.*}}, %c0_i32
// CHECK:     %[[N:.*]] = arith.minsi %[[LO]], %c8_i32
// CHECK:     %[[BYTES:.*]] = arith.muli %[[N]], %c2_i32
// CHECK:     %[[SIZE:.*]] = arith.select %{{.*}}, %[[BYTES]], %c0_i32
// CHECK:     nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] :
// CHECK:     nvvm.cp.async.shared.global
// CHECK-NOT: nvvm.cp.async.shared.global
func.func @run_length_copy(%p: tensor<64x32x!tile.ptr<f16>, #bL>, %mask: tensor<64x32xi1, #bL>, %len: tensor<64x32xi32, #bL>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x32xf16, #sL>
  tilegpu.async_copy %p, %m mask %mask run_length(%len : tensor<64x32xi32, #bL>) {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bL>, !tilegpu.memdesc<64x32xf16, #sL>, tensor<64x32xi1, #bL>
  return
}
