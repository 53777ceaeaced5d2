// RUN: tile-opt %s --tile-loop-pointer-offsets --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s
// Offsets that are coordinates times constants or scalars (`rows * s +
// cols`) address a thread's registers from its first register's address:
// the other rows add the scalar times their distance in the layout (here
// 32 rows of 2 bytes), the other columns an immediate. This is done in
// kernels with a loop at the register ceiling (its dots' accumulators:
// 64x128 fp32 on one warp): in that loop one mad.wide remains (not one
// per register), and after it the addresses come from the first one too.
// CHECK-LABEL: gpu.func @rows
// CHECK: scf.for
// CHECK: %[[FIRST:.*]] = llvm.inline_asm asm_dialect = att "mad.wide.s32 $0, $1, 2, $2;"
// CHECK-NOT: mad.wide.s32
// CHECK: arith.addi %[[FIRST]], %c14_i64
// CHECK: %[[S:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[ROWS:.*]] = arith.muli %[[S]], %c64_i64
// CHECK: arith.addi %[[FIRST]], %[[ROWS]]
// CHECK-NOT: mad.wide.s32
// CHECK: scf.yield
// CHECK: %[[OUT:.*]] = arith.addi %arg1
// CHECK: arith.addi %[[OUT]], %c2_i64
// CHECK: arith.extsi %arg2 : i32 to i64
// CHECK: gpu.return
func.func @rows(%p: !tile.ptr<f16>, %out: !tile.ptr<f16>, %s: i32, %n: i32, %d: !tile.ptr<f32>) attributes {tile.kernel, tilegpu.num_warps = 1 : i32} {
  %az = arith.constant dense<1.0> : tensor<64x16xf16>
  %bz = arith.constant dense<1.0> : tensor<16x128xf16>
  %cz = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x8xf16>
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %c = tile.make_range 0 to 8 : tensor<8xi32>
  %r2 = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ss = tile.splat %s : tensor<64x1xi32>
  %ro = arith.muli %r2, %ss : tensor<64x1xi32>
  %rb = tile.broadcast %ro : tensor<64x1xi32> -> tensor<64x8xi32>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %c2 : tensor<1x8xi32> -> tensor<64x8xi32>
  %off = arith.addi %rb, %cb : tensor<64x8xi32>
  %ps = tile.splat %p : tensor<64x8x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  %step = tile.splat %n : tensor<64x8xi32>
  %acc, %last, %dacc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %ptrs, %e = %cz) -> (tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %f = tile.dot %az, %bz, %e : tensor<64x16xf16> * tensor<16x128xf16> -> tensor<64x128xf32>
    %x = tile.load %q : tensor<64x8x!tile.ptr<f16>>
    %y = arith.addf %a, %x : tensor<64x8xf16>
    %next = tile.addptr %q, %step : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
    scf.yield %y, %next, %f : tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>, tensor<64x128xf32>
  }
  %os = tile.splat %out : tensor<64x8x!tile.ptr<f16>>
  %op = tile.addptr %os, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  tile.store %op, %acc : tensor<64x8x!tile.ptr<f16>>
  %dr = tile.make_range 0 to 128 : tensor<128xi32>
  %ds = tile.splat %d : tensor<128x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %dr : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %dsum = tile.reduce %dacc {axis = 0 : i32} : (tensor<64x128xf32>) -> tensor<128xf32> {
  ^bb0(%x0: f32, %x1: f32):
    %x2 = arith.addf %x0, %x1 : f32
    tile.reduce.return %x2 : f32
  }
  tile.store %dp, %dsum : tensor<128x!tile.ptr<f32>>
  return
}

// A product of two coordinates is not of that form: each register keeps
// its own offset (one mad.wide per 16-byte run and register).
// CHECK-LABEL: gpu.func @not_affine
// CHECK: scf.for
// CHECK-COUNT-16: mad.wide.s32
// CHECK: scf.yield
func.func @not_affine(%p: !tile.ptr<f16>, %out: !tile.ptr<f16>, %s: i32, %n: i32, %d: !tile.ptr<f32>) attributes {tile.kernel, tilegpu.num_warps = 1 : i32} {
  %az = arith.constant dense<1.0> : tensor<64x16xf16>
  %bz = arith.constant dense<1.0> : tensor<16x128xf16>
  %cz = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x8xf16>
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %c = tile.make_range 0 to 8 : tensor<8xi32>
  %r2 = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ss = tile.splat %s : tensor<64x1xi32>
  %ro = arith.muli %r2, %r2 : tensor<64x1xi32>
  %rb = tile.broadcast %ro : tensor<64x1xi32> -> tensor<64x8xi32>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %c2 : tensor<1x8xi32> -> tensor<64x8xi32>
  %off = arith.addi %rb, %cb : tensor<64x8xi32>
  %ps = tile.splat %p : tensor<64x8x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  %step = tile.splat %n : tensor<64x8xi32>
  %acc, %last, %dacc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %ptrs, %e = %cz) -> (tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %f = tile.dot %az, %bz, %e : tensor<64x16xf16> * tensor<16x128xf16> -> tensor<64x128xf32>
    %x = tile.load %q : tensor<64x8x!tile.ptr<f16>>
    %y = arith.addf %a, %x : tensor<64x8xf16>
    %next = tile.addptr %q, %step : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
    scf.yield %y, %next, %f : tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>, tensor<64x128xf32>
  }
  %os = tile.splat %out : tensor<64x8x!tile.ptr<f16>>
  %op = tile.addptr %os, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  tile.store %op, %acc : tensor<64x8x!tile.ptr<f16>>
  %dr = tile.make_range 0 to 128 : tensor<128xi32>
  %ds = tile.splat %d : tensor<128x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %dr : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %dsum = tile.reduce %dacc {axis = 0 : i32} : (tensor<64x128xf32>) -> tensor<128xf32> {
  ^bb0(%x0: f32, %x1: f32):
    %x2 = arith.addf %x0, %x1 : f32
    tile.reduce.return %x2 : f32
  }
  tile.store %dp, %dsum : tensor<128x!tile.ptr<f32>>
  return
}

// Without such a loop (no dot: registers to spare) each register keeps its
// own offset, which measured faster there.
// CHECK-LABEL: gpu.func @registers_to_spare
// CHECK: scf.for
// CHECK-COUNT-16: mad.wide.s32
// CHECK: scf.yield
func.func @registers_to_spare(%p: !tile.ptr<f16>, %out: !tile.ptr<f16>, %s: i32, %n: i32) attributes {tile.kernel, tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x8xf16>
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %c = tile.make_range 0 to 8 : tensor<8xi32>
  %r2 = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ss = tile.splat %s : tensor<64x1xi32>
  %ro = arith.muli %r2, %ss : tensor<64x1xi32>
  %rb = tile.broadcast %ro : tensor<64x1xi32> -> tensor<64x8xi32>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %c2 : tensor<1x8xi32> -> tensor<64x8xi32>
  %off = arith.addi %rb, %cb : tensor<64x8xi32>
  %ps = tile.splat %p : tensor<64x8x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  %step = tile.splat %n : tensor<64x8xi32>
  %acc, %last = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %ptrs) -> (tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>) : i32 {
    %x = tile.load %q : tensor<64x8x!tile.ptr<f16>>
    %y = arith.addf %a, %x : tensor<64x8xf16>
    %next = tile.addptr %q, %step : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
    scf.yield %y, %next : tensor<64x8xf16>, tensor<64x8x!tile.ptr<f16>>
  }
  %os = tile.splat %out : tensor<64x8x!tile.ptr<f16>>
  %op = tile.addptr %os, %off : tensor<64x8x!tile.ptr<f16>>, tensor<64x8xi32>
  tile.store %op, %acc : tensor<64x8x!tile.ptr<f16>>
  return
}
