// RUN: tile-opt %s --split-input-file --convert-tile-to-tilegpu | FileCheck %s

// A general path's tile in a loop that carries its base pointer: no stride
// is known, so the addresses have no contiguity. They become row pointers
// (the carried base plus the rows' offsets, 128x1) broadcast and moved by
// the columns' offsets, so that no per-element offset is loop-invariant;
// the access takes a balanced arrangement (8 x 4 lanes, 2 x 2 warps: each
// thread holds 8 rows x 8 columns, 16 offsets instead of 64).
// CHECK-LABEL: func.func @general_path_tile
// CHECK: scf.for
// CHECK: %[[BASE:.*]] = tile.splat %{{.*}} : tensor<128x1x!tile.ptr<f16>, [[L:#tilegpu.blocked<sizePerThread = \[1, 1\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[2, 2\], order = \[1, 0\]>]]>
// CHECK: %[[ROWS:.*]] = tile.addptr %[[BASE]], %{{.*}} : tensor<128x1x!tile.ptr<f16>, [[L]]>, tensor<128x1xi32, [[L]]>
// CHECK: %[[WIDE:.*]] = tile.broadcast %[[ROWS]] : tensor<128x1x!tile.ptr<f16>, [[L]]> -> tensor<128x64x!tile.ptr<f16>, [[L]]>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[WIDE]], %{{.*}} : tensor<128x64x!tile.ptr<f16>, [[L]]>, tensor<128x64xi32, [[L]]>
// CHECK: tile.load %[[PTRS]] : tensor<128x64x!tile.ptr<f16>, [[L]]>
func.func @general_path_tile(%a: !tile.ptr<f16>, %out: !tile.ptr<f16>, %sm: i32, %sk: i32, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %sms = tile.splat %sm : tensor<128x1xi32>
  %rows = arith.muli %em, %sms : tensor<128x1xi32>
  %ek = tile.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %sks = tile.splat %sk : tensor<1x64xi32>
  %cols = arith.muli %ek, %sks : tensor<1x64xi32>
  %rowsb = tile.broadcast %rows : tensor<128x1xi32> -> tensor<128x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
  %offs = arith.addi %rowsb, %colsb : tensor<128x64xi32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf16>
  %step = arith.muli %sk, %c1 : i32
  %sum:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %base = %a) -> (tensor<128x64xf16>, !tile.ptr<f16>) : i32 {
    %s = tile.splat %base : tensor<128x64x!tile.ptr<f16>>
    %p = tile.addptr %s, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %v = tile.load %p : tensor<128x64x!tile.ptr<f16>>
    %acc2 = arith.addf %acc, %v : tensor<128x64xf16>
    %next = tile.addptr %base, %step : !tile.ptr<f16>, i32
    scf.yield %acc2, %next : tensor<128x64xf16>, !tile.ptr<f16>
  }
  %os = tile.splat %out : tensor<128x64x!tile.ptr<f16>>
  %op = tile.addptr %os, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  tile.store %op, %sum#0 : tensor<128x64x!tile.ptr<f16>>
  return
}

// -----

// With unit column stride the addresses are contiguous along the columns:
// the access keeps its coalesced layout and its per-element offsets.
// CHECK-LABEL: func.func @contiguous_tile
// CHECK: scf.for
// CHECK-NOT: tile.broadcast {{.*}}!tile.ptr
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x64x!tile.ptr<f16>, #tilegpu.blocked<sizePerThread = [1, 8]
func.func @contiguous_tile(%a: !tile.ptr<f16>, %out: !tile.ptr<f16>, %sm: i32, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %sms = tile.splat %sm : tensor<128x1xi32>
  %rows = arith.muli %em, %sms : tensor<128x1xi32>
  %ek = tile.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowsb = tile.broadcast %rows : tensor<128x1xi32> -> tensor<128x64xi32>
  %colsb = tile.broadcast %ek : tensor<1x64xi32> -> tensor<128x64xi32>
  %offs = arith.addi %rowsb, %colsb : tensor<128x64xi32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf16>
  %sum:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %base = %a) -> (tensor<128x64xf16>, !tile.ptr<f16>) : i32 {
    %s = tile.splat %base : tensor<128x64x!tile.ptr<f16>>
    %p = tile.addptr %s, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %v = tile.load %p : tensor<128x64x!tile.ptr<f16>>
    %acc2 = arith.addf %acc, %v : tensor<128x64xf16>
    %next = tile.addptr %base, %c64 : !tile.ptr<f16>, i32
    scf.yield %acc2, %next : tensor<128x64xf16>, !tile.ptr<f16>
  }
  %os = tile.splat %out : tensor<128x64x!tile.ptr<f16>>
  %op = tile.addptr %os, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  tile.store %op, %sum#0 : tensor<128x64x!tile.ptr<f16>>
  return
}

// -----

// A loop that recomputes its addresses from the induction variable, as
// tutorial 09's persistent matmul does (`offs_k = k * 64 + arange`,
// `a + rows * sm + offs_k[None, :] * sk` with the base not carried): the
// loop-varying scalar `k * 64 * sk` is peeled out of the offsets and
// moves the base; the rest is split into row pointers and column offsets
// as above, with the balanced arrangement.
// CHECK-LABEL: func.func @recomputed_tile
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[K64:.*]] = arith.muli %[[K]], %{{.*}} : i32
// CHECK: %[[STEP:.*]] = arith.muli %[[K64]], %{{.*}} : i32
// CHECK: %[[MOVED:.*]] = tile.addptr %{{.*}}, %[[STEP]] : !tile.ptr<f16>, i32
// CHECK: %[[BASE:.*]] = tile.splat %[[MOVED]] : tensor<128x1x!tile.ptr<f16>, [[L:#tilegpu.blocked<sizePerThread = \[1, 1\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[2, 2\], order = \[1, 0\]>]]>
// CHECK: %[[ROWS:.*]] = tile.addptr %[[BASE]], %{{.*}} : tensor<128x1x!tile.ptr<f16>, [[L]]>, tensor<128x1xi32, [[L]]>
// CHECK: %[[WIDE:.*]] = tile.broadcast %[[ROWS]] : tensor<128x1x!tile.ptr<f16>, [[L]]> -> tensor<128x64x!tile.ptr<f16>, [[L]]>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[WIDE]], %{{.*}} : tensor<128x64x!tile.ptr<f16>, [[L]]>, tensor<128x64xi32, [[L]]>
// CHECK: tile.load %[[PTRS]], %{{.*}} : tensor<128x64x!tile.ptr<f16>, [[L]]>
func.func @recomputed_tile(%a: !tile.ptr<f16>, %out: !tile.ptr<f16>, %sm: i32, %sk: i32, %n: i32, %kdim: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf16>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf16>) : i32 {
    %k64 = arith.muli %k, %c64 : i32
    %k64s = tile.splat %k64 : tensor<64xi32>
    %offk = arith.addi %k64s, %rk : tensor<64xi32>
    %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %sms = tile.splat %sm : tensor<128x1xi32>
    %rows = arith.muli %em, %sms : tensor<128x1xi32>
    %ek = tile.expand_dims %offk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %sks = tile.splat %sk : tensor<1x64xi32>
    %cols = arith.muli %ek, %sks : tensor<1x64xi32>
    %rowsb = tile.broadcast %rows : tensor<128x1xi32> -> tensor<128x64xi32>
    %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
    %offs = arith.addi %rowsb, %colsb : tensor<128x64xi32>
    %s = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
    %p = tile.addptr %s, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %left = arith.subi %kdim, %k64 : i32
    %lefts = tile.splat %left : tensor<1x64xi32>
    %ekm = tile.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %inb = arith.cmpi slt, %ekm, %lefts : tensor<1x64xi32>
    %mask = tile.broadcast %inb : tensor<1x64xi1> -> tensor<128x64xi1>
    %other = arith.constant dense<0.0> : tensor<128x64xf16>
    %v = tile.load %p, %mask, %other : tensor<128x64x!tile.ptr<f16>>
    %acc2 = arith.addf %acc, %v : tensor<128x64xf16>
    scf.yield %acc2 : tensor<128x64xf16>
  }
  %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rowsb = tile.broadcast %em : tensor<128x1xi32> -> tensor<128x64xi32>
  %os = tile.splat %out : tensor<128x64x!tile.ptr<f16>>
  %op = tile.addptr %os, %rowsb : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  tile.store %op, %sum : tensor<128x64x!tile.ptr<f16>>
  return
}

// -----

// Offsets that vary with the loop through a loaded tensor (a gather) have
// no loop-varying scalar to peel: the access keeps its per-element
// pointers.
// CHECK-LABEL: func.func @gathered_rows
// CHECK: scf.for
// CHECK-NOT: tile.broadcast {{.*}}!tile.ptr
// CHECK: tile.load
// CHECK: tile.load
func.func @gathered_rows(%a: !tile.ptr<f16>, %idx: !tile.ptr<i32>, %out: !tile.ptr<f16>, %sk: i32, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf16>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf16>) : i32 {
    %ks = tile.splat %k : tensor<128xi32>
    %ir = arith.addi %ks, %rm : tensor<128xi32>
    %is = tile.splat %idx : tensor<128x!tile.ptr<i32>>
    %ip = tile.addptr %is, %ir : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
    %rowsv = tile.load %ip : tensor<128x!tile.ptr<i32>>
    %em = tile.expand_dims %rowsv {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %ek = tile.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %sks = tile.splat %sk : tensor<1x64xi32>
    %cols = arith.muli %ek, %sks : tensor<1x64xi32>
    %rowsb = tile.broadcast %em : tensor<128x1xi32> -> tensor<128x64xi32>
    %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
    %offs = arith.addi %rowsb, %colsb : tensor<128x64xi32>
    %s = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
    %p = tile.addptr %s, %offs : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %v = tile.load %p : tensor<128x64x!tile.ptr<f16>>
    %acc2 = arith.addf %acc, %v : tensor<128x64xf16>
    scf.yield %acc2 : tensor<128x64xf16>
  }
  %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rowsb = tile.broadcast %em : tensor<128x1xi32> -> tensor<128x64xi32>
  %os = tile.splat %out : tensor<128x64x!tile.ptr<f16>>
  %op = tile.addptr %os, %rowsb : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  tile.store %op, %sum : tensor<128x64x!tile.ptr<f16>>
  return
}
