// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s
// In the body of a loop that holds another loop (a persistent kernel's tile
// loop), the thread index is read with a volatile mov, which LLVM may not
// hoist: the epilogue's per-element addresses are then computed per tile
// after the K loop, not at the kernel's start and live through every loop
// (tutorial 09's descriptor kernel: 186 -> 128 registers at 128x128).
// Inside the inner loop it stays gpu.thread_id.
// CHECK-LABEL: gpu.func @tile_loop
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK-NOT:       %tid.x
// CHECK:           gpu.thread_id x
// CHECK:         }
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r"
// CHECK:         st.global
func.func @tile_loop(%p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %ps = tile.splat %p : tensor<32x!tile.ptr<f32>>
  scf.for %t = %c0 to %n step %c1 : i32 {
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32xf32>) : i32 {
      %kr = tile.make_range 0 to 32 : tensor<32xi32>
      %ks = tile.splat %k : tensor<32xi32>
      %ko = arith.addi %kr, %ks : tensor<32xi32>
      %kp = tile.addptr %ps, %ko : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
      %x = tile.load %kp : tensor<32x!tile.ptr<f32>>
      %y = arith.addf %acc, %x : tensor<32xf32>
      scf.yield %y : tensor<32xf32>
    }
    %tr = tile.make_range 0 to 32 : tensor<32xi32>
    %ts = tile.splat %t : tensor<32xi32>
    %to = arith.addi %tr, %ts : tensor<32xi32>
    %tp = tile.addptr %ps, %to : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    tile.store %tp, %sum : tensor<32x!tile.ptr<f32>>
  }
  return
}

// After a loop of the kernel (the epilogue) the read is volatile too: the
// coordinates of the Out tile equal those of the Q tile addressed before
// the loop, and LLVM would otherwise keep those through the loop (one
// register each) instead of computing them again. Before the loop and
// inside it, gpu.thread_id.
// CHECK-LABEL: gpu.func @after_loop
// CHECK-NOT:   %tid.x
// CHECK:       gpu.thread_id x
// CHECK:       scf.for
// CHECK-NOT:     %tid.x
// CHECK:       }
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r"
// CHECK:       st.global
func.func @after_loop(%q: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %qs = tile.splat %q : tensor<32x!tile.ptr<f32>>
  %qp = tile.addptr %qs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %x = tile.load %qp : tensor<32x!tile.ptr<f32>>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32xf32>) : i32 {
    %y = arith.addf %acc, %acc : tensor<32xf32>
    scf.yield %y : tensor<32xf32>
  }
  %r2 = tile.make_range 0 to 32 {tile.recomputed} : tensor<32xi32>
  %os = tile.splat %o : tensor<32x!tile.ptr<f32>>
  %op = tile.addptr %os, %r2 : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %op, %sum : tensor<32x!tile.ptr<f32>>
  return
}
