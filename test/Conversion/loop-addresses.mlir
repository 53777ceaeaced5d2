// RUN: tile-opt %s --tile-loop-pointer-offsets --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s
// In a loop that carries a base pointer (after tile-loop-pointer-offsets),
// each address is one mad.wide of its fixed 32-bit offset onto the moving
// base; the addresses formed before the loop keep the plain lowering.
// CHECK-LABEL: gpu.func @walk
// CHECK-NOT: mad.wide.s32
// CHECK: scf.for
// CHECK: llvm.inline_asm asm_dialect = att "mad.wide.s32 $0, $1, 4, $2;", "=l,r,l"
// CHECK: ld.global
// CHECK: }
// CHECK-NOT: mad.wide.s32
// CHECK: gpu.return
func.func @walk(%p: !tile.ptr<f32>, %out: !tile.ptr<f32>, %s: i32, %n: i32) attributes {tile.kernel, tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %ss = tile.splat %s : tensor<32xi32>
  %off = arith.muli %r, %ss : tensor<32xi32>
  %ps = tile.splat %p : tensor<32x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %off : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %step = tile.splat %n : tensor<32xi32>
  %acc, %last = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %ptrs) -> (tensor<32xf32>, tensor<32x!tile.ptr<f32>>) : i32 {
    %x = tile.load %q : tensor<32x!tile.ptr<f32>>
    %y = arith.addf %a, %x : tensor<32xf32>
    %next = tile.addptr %q, %step : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    scf.yield %y, %next : tensor<32xf32>, tensor<32x!tile.ptr<f32>>
  }
  %os = tile.splat %out : tensor<32x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %op, %acc : tensor<32x!tile.ptr<f32>>
  return
}

// An offset block the loop carries (`cols += BLOCK`, FlagGems' cumsum)
// moves with the loop: the plain lowering (this crashed while the loop's
// block was being converted).
// CHECK-LABEL: gpu.func @carried_offsets
// CHECK: scf.for
// CHECK-NOT: mad.wide.s32
// CHECK: st.global
// CHECK: gpu.return
func.func @carried_offsets(%out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<32xf32>
  %step = arith.constant dense<32> : tensor<32xi32>
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %os = tile.splat %out : tensor<32x!tile.ptr<f32>>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%cols = %r) -> (tensor<32xi32>) : i32 {
    %p = tile.addptr %os, %cols : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    tile.store %p, %one : tensor<32x!tile.ptr<f32>>
    %next = arith.addi %cols, %step : tensor<32xi32>
    scf.yield %next : tensor<32xi32>
  }
  return
}
