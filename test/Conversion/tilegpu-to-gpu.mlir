// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --convert-tilegpu-to-gpu | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --convert-tile-to-tilegpu | FileCheck %s --check-prefix=LAYOUT

// The input gets its layouts from --convert-tile-to-tilegpu: blocked
// encodings cannot be written in .mlir input yet (their parser rejects every
// spelling). The LAYOUT lines show the data movement each kernel has before
// the GPU lowering.

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @tile_kernels
// CHECK: llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: func.func

// A kernel becomes a gpu.func kernel with 32 * num_warps threads; pointers
// become i64 addresses. A masked load moves `other` into the destination
// and predicates the ld; a masked store is predicated; make_range and
// program_id read the thread and block ids.
// CHECK-LABEL: gpu.func @masked_copy
// CHECK-SAME: (%[[X:[^:]*]]: i64, %[[Y:[^:]*]]: i64, %[[N:[^:]*]]: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK-SAME: tilegpu.num_warps = 1 : i32
// CHECK: %[[OTHER:.*]] = arith.constant 2.500000e+00 : f32
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[PID:.*]] = arith.index_cast %[[BID]] : index to i32
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: arith.index_cast %[[TID]] : index to i32
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %c4_i64{{.*}} : i64
// CHECK: %[[ADDR:.*]] = arith.addi %[[X]], %[[OFF]] : i64
// CHECK: %[[INIT:.*]] = arith.bitcast %[[OTHER]] : f32 to i32
// Each access says which registers of which tile (shape and layout) it
// touches (tilegpu.element_access, for tilegpu-interleave-general-path).
// CHECK: %[[LD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<32xi1, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>, 0, 1]} "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b,r" %[[ADDR]], %[[MASK]], %[[INIT]] : (i64, i1, i32) -> i32
// CHECK: %[[V:.*]] = arith.bitcast %[[LD]] : i32 to f32
// CHECK: %[[YADDR:.*]] = arith.addi %[[Y]], %{{.*}} : i64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<32xi1, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>, 0, 1]} "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[YADDR]], %[[BITS]], %[[MASK]] : (i64, i32, i1) -> ()
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @masked_copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %pid = tile.program_id 0 : i32
  %c32 = arith.constant 32 : i32
  %start = arith.muli %pid, %c32 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %s = tile.splat %start : tensor<32xi32>
  %o = arith.addi %s, %r : tensor<32xi32>
  %ns = tile.splat %n : tensor<32xi32>
  %m = arith.cmpi slt, %o, %ns : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %o : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %other = arith.constant dense<2.5> : tensor<32xf32>
  %v = tile.load %xp, %m, %other : tensor<32x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<32x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %o : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %yp, %v, %m : tensor<32x!tile.ptr<f32>>
  return
}

// 4 warps: 128 threads. A load without mask is not predicated. No
// occupancy hint without tilegpu.programs_per_sm.
// CHECK-LABEL: gpu.func @four_warps
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-NOT: nvvm.minctasm
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att {{.*}} "ld.global.b16 $0, [ $1 + 0 ];", "=h,l"
// CHECK: arith.bitcast %{{.*}} : i16 to f16
func.func @four_warps(%x: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : tensor<128x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f16>>
  %w = arith.addf %v, %v : tensor<128xf16>
  tile.store %xp, %w : tensor<128x!tile.ptr<f16>>
  return
}

// 16 elements on 32 threads: lanes 16..31 hold copies, so even an unmasked
// store is predicated on the owner (lane bit 4 clear); a scalar store runs
// in thread 0 only (and, a scalar, carries no element_access).
// CHECK-LABEL: gpu.func @store_owner
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<16xi1, {{.*}}>, 0, 1]} "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
// CHECK: %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %c7_i32{{.*}}, %[[T0]]
func.func @store_owner(%y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %ys = tile.splat %y : tensor<16x!tile.ptr<i32>>
  %yp = tile.addptr %ys, %r : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %yp, %r : tensor<16x!tile.ptr<i32>>
  %c7 = arith.constant 7 : i32
  tile.store %y, %c7 : !tile.ptr<i32>
  return
}

// The conversion to the slice layout expand_dims wants, expand_dims itself
// and the broadcast keep every element in its thread: they only pick
// registers, with no barrier and no shared memory.
// LAYOUT-LABEL: func.func @register_local
// LAYOUT: tilegpu.convert_layout
// LAYOUT: tile.expand_dims
// LAYOUT: tile.broadcast
// CHECK-LABEL: gpu.func @register_local
// CHECK: %[[LD:.*]] = llvm.inline_asm {{.*}}"ld.global.b32
// CHECK: %[[V:.*]] = arith.bitcast %[[LD]] : i32 to f32
// CHECK-NOT: gpu.barrier
// CHECK-NOT: @tile_smem
// CHECK-COUNT-4: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %{{.*}}, %{{.*}} : (i64, i32) -> ()
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @register_local(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %xp : tensor<32x!tile.ptr<f32>>
  %ve = tile.expand_dims %v {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %vb = tile.broadcast %ve : tensor<1x32xf32> -> tensor<4x32xf32>
  %ys = tile.splat %y : tensor<4x32x!tile.ptr<f32>>
  tile.store %ys, %vb : tensor<4x32x!tile.ptr<f32>>
  return
}

// A transpose renames registers, but the store wants the value in its
// pointers' layout, where other threads hold the elements: the conversion
// goes through shared memory between two barriers, each thread storing
// its runs of 4 consecutive elements of a row as one 16-byte vector (rows
// of 32 bytes keep their length: only rows of a multiple of 128 bytes are
// padded) and loading single elements of the other layout.
// LAYOUT-LABEL: func.func @cross_thread
// LAYOUT: tile.trans
// LAYOUT: tilegpu.convert_layout
// CHECK-LABEL: gpu.func @cross_thread
// CHECK: gpu.barrier
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK: %[[SADDR:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[SADDR]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[SMEM2:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK: %[[LADDR:.*]] = llvm.getelementptr %[[SMEM2]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[E:.*]] = llvm.load %[[LADDR]] : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: st.global.b32
// CHECK: gpu.return
func.func @cross_thread(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %xs = tile.splat %p : tensor<8x32x!tile.ptr<f32>>
  %x = tile.load %xs : tensor<8x32x!tile.ptr<f32>>
  %t = tile.trans %x, [1, 0] : tensor<8x32xf32> -> tensor<32x8xf32>
  %ys = tile.splat %p : tensor<32x8x!tile.ptr<f32>>
  tile.store %ys, %t : tensor<32x8x!tile.ptr<f32>>
  return
}

// A reshape takes the source's placement seen in the new shape (a linear
// layout), so no element moves: the reduction over the split dimension
// (a lane bit of the source) shuffles the loaded registers directly, and
// shared memory is used only by the store's conversion afterwards.
// LAYOUT-LABEL: func.func @register_reshape
// LAYOUT: tile.reshape {{.*}} -> tensor<8x2x16xf32, #tilegpu.linear<rank = 3, regs = [1, 0, 0, 2, 0, 0, 4, 0, 0], lanes = [0, 0, 1, 0, 0, 2, 0, 0, 4, 0, 0, 8, 0, 1, 0], warps = []>>
// CHECK-LABEL: gpu.func @register_reshape
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK-NOT: @tile_smem
// CHECK: gpu.barrier
func.func @register_reshape(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %xs = tile.splat %p : tensor<8x32x!tile.ptr<f32>>
  %x = tile.load %xs : tensor<8x32x!tile.ptr<f32>>
  %r = tile.reshape %x : tensor<8x32xf32> -> tensor<8x2x16xf32>
  %s = tile.reduce %r {axis = 1 : i32} : (tensor<8x2x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.reduce.return %c : f32
  }
  %ys = tile.splat %q : tensor<8x16x!tile.ptr<f32>>
  tile.store %ys, %s : tensor<8x16x!tile.ptr<f32>>
  return
}

// Consecutive but unaligned addresses in a 2-D block (a pointer without
// divisibility; rows of a block keep 16-byte runs a thread whatever their
// alignment): four scalar stores per run, all from the first one's address
// register with immediate byte offsets 0, 4, 8, 12.
// CHECK-LABEL: gpu.func @unaligned_run
// CHECK: %[[ADDR:.*]] = arith.addi %arg0, %{{.*}} : i64
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[ADDR]],
// CHECK: "st.global.b32 [ $0 + 4 ], $1;", "l,r" %[[ADDR]],
// CHECK: "st.global.b32 [ $0 + 8 ], $1;", "l,r" %[[ADDR]],
// CHECK: "st.global.b32 [ $0 + 12 ], $1;", "l,r" %[[ADDR]],
// CHECK: gpu.return
func.func @unaligned_run(%y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %c = tile.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %cols = tile.broadcast %c : tensor<1x128xi32> -> tensor<2x128xi32>
  %v = arith.sitofp %cols : tensor<2x128xi32> to tensor<2x128xf32>
  %ys = tile.splat %y : tensor<2x128x!tile.ptr<f32>>
  %ya = tile.addptr %ys, %cols : tensor<2x128x!tile.ptr<f32>>, tensor<2x128xi32>
  tile.store %ya, %v : tensor<2x128x!tile.ptr<f32>>
  return
}

// A contiguous unaligned row: one element a thread, lanes on consecutive
// elements, and every register addressed from the first one's address
// (elements t, t + 32, t + 64, t + 96 of a warp: offsets 0, 128, 256, 384).
// CHECK-LABEL: gpu.func @unaligned_row
// CHECK: %[[ROW:.*]] = arith.addi %arg0, %{{.*}} : i64
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[ROW]],
// CHECK: "st.global.b32 [ $0 + 128 ], $1;", "l,r" %[[ROW]],
// CHECK: "st.global.b32 [ $0 + 256 ], $1;", "l,r" %[[ROW]],
// CHECK: "st.global.b32 [ $0 + 384 ], $1;", "l,r" %[[ROW]],
// CHECK: gpu.return
// LAYOUT-LABEL: func.func @unaligned_row
// LAYOUT: tile.store {{.*}}tilegpu.contiguous_row{{.*}}sizePerThread = {{\[?}}1{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}
func.func @unaligned_row(%y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %v = arith.sitofp %r : tensor<128xi32> to tensor<128xf32>
  %ys = tile.splat %y : tensor<128x!tile.ptr<f32>>
  %ya = tile.addptr %ys, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %ya, %v : tensor<128x!tile.ptr<f32>>
  return
}

// A reduction within one warp: butterfly shuffles over the 5 lane bits,
// no shared memory; every lane ends with the result.
// CHECK-LABEL: gpu.func @reduce
// CHECK-NOT: gpu.barrier
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[X:.*]], %c1_i32, %c32_i32
// CHECK: %[[M1:.*]] = arith.maxnumf %[[X]], %[[S1]] : f32
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle xor %[[M1]], %c2_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32
// CHECK: %[[S5:.*]], %{{.*}} = gpu.shuffle xor %[[M4:.*]], %c16_i32
// CHECK: %[[MAX:.*]] = arith.maxnumf %[[M4]], %[[S5]] : f32
// CHECK-NOT: llvm.load
// CHECK: %[[BITS:.*]] = arith.bitcast %[[MAX]] : f32 to i32
// CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %[[BITS]], %{{.*}}
func.func @reduce(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %xp : tensor<32x!tile.ptr<f32>>
  %m = tile.reduce %v {axis = 0 : i32} : (tensor<32xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.reduce.return %c : f32
  }
  tile.store %y, %m : !tile.ptr<f32>
  return
}

// Along axis 0 of an 8 x 32 block on one warp (a lane per column, the 8
// rows in each thread's registers) the rows are added in registers, as a
// tree: no shuffle, no shared memory.
// CHECK-LABEL: gpu.func @reduce_axis0
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-7: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
func.func @reduce_axis0(%x: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %xs = tile.splat %x : tensor<8x32x!tile.ptr<i32>>
  %v = tile.load %xs : tensor<8x32x!tile.ptr<i32>>
  %s = tile.reduce %v {axis = 0 : i32} : (tensor<8x32xi32>) -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tile.reduce.return %c : i32
  }
  %ys = tile.splat %x : tensor<32x!tile.ptr<i32>>
  tile.store %ys, %s : tensor<32x!tile.ptr<i32>>
  return
}

// More than 64 elements a thread (128 rows here) are added in order, each
// into the running sum, as Triton does: ptxas streams such a chain, where a
// tree over 1024 elements a thread spilled (bench/NOTES.md, stop 40).
// CHECK-LABEL: gpu.func @reduce_axis0_long
// CHECK-NOT: gpu.shuffle
// CHECK: %[[A1:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[A2:.*]] = arith.addi %[[A1]], %{{.*}} : i32
// CHECK-NEXT: %[[A3:.*]] = arith.addi %[[A2]], %{{.*}} : i32
// CHECK-COUNT-124: arith.addi
// CHECK-NOT: arith.addi
// CHECK: gpu.return
func.func @reduce_axis0_long(%x: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %xs = tile.splat %x : tensor<128x32x!tile.ptr<i32>>
  %v = tile.load %xs : tensor<128x32x!tile.ptr<i32>>
  %s = tile.reduce %v {axis = 0 : i32} : (tensor<128x32xi32>) -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tile.reduce.return %c : i32
  }
  %ys = tile.splat %x : tensor<32x!tile.ptr<i32>>
  tile.store %ys, %s : tensor<32x!tile.ptr<i32>>
  return
}

// Across 4 warps: registers, then 5 shuffles, then one thread per warp
// (lane 0) writes its partial to slot warp of the scratch; after a barrier
// every thread combines the 4 slots.
// CHECK-LABEL: gpu.func @reduce_warps
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: scf.if %[[LANE0]] {
// CHECK:   llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: }
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: gpu.return
func.func @reduce_warps(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %xs = tile.splat %x : tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>>
  %m = tile.reduce %v {axis = 0 : i32} : (tensor<512xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.reduce.return %c : f32
  }
  tile.store %y, %m : !tile.ptr<f32>
  return
}

// argmax carries values and i64 indices together; a 64-bit index moves as
// two 32-bit shuffles.
// CHECK-LABEL: gpu.func @argmax_i64
// CHECK: %[[LO:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[HI:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: gpu.shuffle xor %[[LO]], %c1_i32
// CHECK: gpu.shuffle xor %[[HI]], %c1_i32
// CHECK: arith.cmpf ogt
// CHECK: arith.select
func.func @argmax_i64(%p: !tile.ptr<f32>, %q: !tile.ptr<i64>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %i = arith.extsi %r : tensor<32xi32> to tensor<32xi64>
  %s = tile.splat %p : tensor<32x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %a : tensor<32x!tile.ptr<f32>>
  %m:2 = tile.reduce %v, %i {axis = 0 : i32} : (tensor<32xf32>, tensor<32xi64>) -> (f32, i64) {
  ^bb0(%x: f32, %xi: i64, %y: f32, %yi: i64):
    %gt = arith.cmpf ogt, %y, %x : f32
    %mv = arith.select %gt, %y, %x : f32
    %mi = arith.select %gt, %yi, %xi : i64
    tile.reduce.return %mv, %mi : f32, i64
  }
  tile.store %q, %m#1 : !tile.ptr<i64>
  return
}

// With mma.sync (the default), an f32 dot in tf32 precision is m16n8k8 on
// operands rounded with cvt.rna.tf32.f32.
// MMA-LABEL: gpu.func @dot(
// MMA: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// MMA: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}

// Without mma.sync (use-mma=false), dot stores A and B to shared memory and accumulates each thread's C
// elements over K (8) with FMAs; the 16 x 16 result gives every thread 8.
// CHECK-LABEL: gpu.func @dot
// CHECK: gpu.barrier
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK: %{{.*}}:8 = scf.for %{{.*}} = %c0_i32{{[_0-9]*}} to %c8_i32{{[_0-9]*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-COUNT-8: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: scf.yield
func.func @dot(%a: f32, %b: f32, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %as = tile.splat %a : tensor<16x8xf32>
  %bs = tile.splat %b : tensor<8x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %as, %bs, %zero : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
  %ys = tile.splat %y : tensor<16x16x!tile.ptr<f32>>
  tile.store %ys, %d : tensor<16x16x!tile.ptr<f32>>
  return
}

// With mma.sync a 16 x 16 x 16 f16 product on one warp is two m16n8k16
// instructions (one per 8-column half of C); each takes four 32-bit A
// registers (8 halves), two B registers and four f32 accumulators, and the
// accumulator of both starts as the zero constant.
// MMA-LABEL: gpu.func @dot_mma
// MMA-COUNT-2: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%cst, %cst, %cst, %cst] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// MMA-NOT: mma.sync
// MMA: gpu.return
func.func @dot_mma(%a: f16, %b: f16, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %as = tile.splat %a : tensor<16x16xf16>
  %bs = tile.splat %b : tensor<16x16xf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %as, %bs, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %ys = tile.splat %y : tensor<16x16x!tile.ptr<f32>>
  tile.store %ys, %d : tensor<16x16x!tile.ptr<f32>>
  return
}

// int8 into int32 on mma.sync: a 16 x 16 x 32 product on one warp is two
// m16n8k32 instructions (inline PTX, s8 operands, wrapping s32
// accumulation), each taking four A registers and two B registers of four
// bytes each.
// MMA-LABEL: gpu.func @dot_mma_int8
// MMA-COUNT-2: llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r" {{.*}} : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// MMA-NOT: mma.sync
// MMA: gpu.return
func.func @dot_mma_int8(%a: i8, %b: i8, %y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %as = tile.splat %a : tensor<16x32xi8>
  %bs = tile.splat %b : tensor<32x16xi8>
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %d = tile.dot %as, %bs, %zero : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  %ys = tile.splat %y : tensor<16x16x!tile.ptr<i32>>
  tile.store %ys, %d : tensor<16x16x!tile.ptr<i32>>
  return
}

// f16 inputs are widened and accumulated in f32, then truncated.
// CHECK-LABEL: gpu.func @dot_f16
// CHECK: scf.for
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @dot_f16(%a: f16, %b: f16, %y: !tile.ptr<f16>) attributes {tilegpu.num_warps = 1 : i32} {
  %as = tile.splat %a : tensor<16x16xf16>
  %bs = tile.splat %b : tensor<16x16xf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf16>
  %d = tile.dot %as, %bs, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  %ys = tile.splat %y : tensor<16x16x!tile.ptr<f16>>
  tile.store %ys, %d : tensor<16x16x!tile.ptr<f16>>
  return
}

// A scalar atomic runs in thread 0; its old value is shared with the other
// threads through shared memory.
// CHECK-LABEL: gpu.func @atomic
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @atomic(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %v: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %old = tile.atomic_rmw add, %p, %v : !tile.ptr<f32>
  tile.store %q, %old : !tile.ptr<f32>
  return
}

// atomic_cas compares with its fourth operand and stores the third; a
// debug_barrier is a barrier of the program.
// CHECK-LABEL: gpu.func @cas_lock
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.cas.b32 $0, [ $1 + 0 ], $4, $2;", "=r,l,r,b,r" %arg0, %c1_i32{{.*}}, %{{.*}}, %c0_i32
// CHECK: gpu.barrier
// CHECK: atom.acq_rel.gpu.global.exch.b32
func.func @cas_lock(%lock: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %old = tile.atomic_rmw cas, %lock, %c1 cmp %c0 : !tile.ptr<i32>
  tile.debug_barrier
  %prev = tile.atomic_rmw xchg, %lock, %c0 : !tile.ptr<i32>
  return
}

// A kernel that shared memory limits to one program per SM tells ptxas so.
// CHECK-LABEL: gpu.func @one_per_sm
// CHECK-SAME: nvvm.minctasm = 1 : i32
func.func @one_per_sm(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32, tilegpu.programs_per_sm = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %xp : tensor<32x!tile.ptr<f32>>
  tile.store %xp, %v : tensor<32x!tile.ptr<f32>>
  return
}

// A mask the axis analysis proves constant over runs of 4 columns (N a
// multiple of 16, 4 registers per thread along the row) is one compare per
// run: the ops carry tilegpu.constancy and 8 registers take 2 compares.
// LAYOUT-LABEL: func.func @mask_runs
// LAYOUT: arith.cmpi slt, %{{.*}}, %{{.*}} {tilegpu.constancy = 4 : i32}
// LAYOUT: arith.sitofp %{{[0-9]+}} : tensor
// CHECK-LABEL: gpu.func @mask_runs
// CHECK-COUNT-2: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: gpu.return
func.func @mask_runs(%y: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %yh = tile.hint %y {multipleOf = array<i32: 16>} : !tile.ptr<f32>
  %nh = tile.hint %n {multipleOf = array<i32: 16>} : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %ns = tile.splat %nh : tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %ys = tile.splat %yh : tensor<256x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = arith.sitofp %r : tensor<256xi32> to tensor<256xf32>
  tile.store %yp, %v, %m : tensor<256x!tile.ptr<f32>>
  return
}
