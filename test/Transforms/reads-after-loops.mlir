// RUN: tile-opt %s --split-input-file --tilegpu-reads-after-loops | FileCheck %s
// A thread-index read after a loop takes the unsigned minimum with a bound
// built from one of the loop's 32-bit results, an integer where there is
// one (so ptxas cannot compute what follows it before the loop); reads
// before or inside the loop, and reads after a loop without such a result,
// stay as they are.

// CHECK-LABEL: func.func @epilogue
// CHECK:       %[[BEFORE:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:  arith.addi %[[BEFORE]]
// CHECK:       %[[LOOP:.*]]:2 = scf.for
// CHECK:         %[[INSIDE:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:    arith.addi %{{.*}}, %[[INSIDE]]
// CHECK:       }
// CHECK-NEXT:  %[[LOW:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:  %[[BOUND:.*]] = arith.ori %[[LOOP]]#1, %[[LOW]] : i32
// CHECK-NEXT:  %[[AFTER:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:  %[[TIED:.*]] = arith.minui %[[AFTER]], %[[BOUND]] : i32
// CHECK-NEXT:  arith.andi %[[TIED]]
// CHECK:       scf.if
// CHECK-NEXT:    %[[NESTED:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:    %[[TIED2:.*]] = arith.minui %[[NESTED]], %[[BOUND]] : i32
// CHECK-NEXT:    arith.muli %[[TIED2]]
func.func @epilogue(%n: index, %c: i1, %p: !llvm.ptr) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %t0 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %before = arith.addi %t0, %one : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %s = %one) -> (f32, i32) {
    %t1 = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %s2 = arith.addi %s, %t1 : i32
    %acc2 = arith.addf %acc, %acc : f32
    scf.yield %acc2, %s2 : f32, i32
  }
  %t2 = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %lane = arith.andi %t2, %one : i32
  %nested = scf.if %c -> i32 {
    %t3 = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %m = arith.muli %t3, %r#1 : i32
    scf.yield %m : i32
  } else {
    scf.yield %one : i32
  }
  %f = arith.bitcast %r#0 : f32 to i32
  %sum = arith.addi %f, %nested : i32
  return %before, %lane, %sum : i32, i32, i32
}

// -----

// A loop without a 32-bit result: the read after it is left alone.
// CHECK-LABEL: func.func @no_result
// CHECK:       scf.for
// CHECK:       %[[AFTER:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NOT:   arith.minui
// CHECK:       return %[[AFTER]]
func.func @no_result(%n: index, %p: !llvm.ptr) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    llvm.inline_asm has_side_effects "st.global.b32 [$0], 0;", "l" %p : (!llvm.ptr) -> ()
  }
  %t = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
  return %t : i32
}

// -----

// A persistent kernel's epilogue: the read after the K loop, inside the
// tile loop, is tied to the K loop.
// CHECK-LABEL: func.func @persistent
// CHECK:       scf.for
// CHECK:         %[[K:.*]] = scf.for
// CHECK:         %[[BOUND:.*]] = arith.ori %[[K]], %{{.*}} : i32
// CHECK-NEXT:    %[[READ:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:    arith.minui %[[READ]], %[[BOUND]] : i32
func.func @persistent(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%sum = %one) -> (i32) {
    %k = scf.for %i = %c0 to %n step %c1 iter_args(%a = %sum) -> (i32) {
      %a2 = arith.addi %a, %a : i32
      scf.yield %a2 : i32
    }
    %tid = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %s = arith.addi %k, %tid : i32
    scf.yield %s : i32
  }
  return %r : i32
}

// -----

// A kernel at the register ceiling is left as it is; the mark goes.
// CHECK-LABEL: func.func @ceiling
// CHECK-NOT:   tilegpu.register_ceiling
// CHECK-NOT:   arith.minui
// CHECK:       return
func.func @ceiling(%n: index) -> i32 attributes {tilegpu.register_ceiling} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %k = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one) -> (i32) {
    %a2 = arith.addi %a, %a : i32
    scf.yield %a2 : i32
  }
  %tid = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %s = arith.addi %k, %tid : i32
  return %s : i32
}

// -----

// Only a float result, computed by arithmetic (a running maximum): the
// bound is built from it where the first read is.
// CHECK-LABEL: func.func @float_result
// CHECK:       %[[ACC:.*]] = scf.for
// CHECK:       }
// CHECK-NEXT:  llvm.inline_asm has_side_effects "bar.sync 0;"
// CHECK-NEXT:  %[[BITS:.*]] = arith.bitcast %[[ACC]] : f32 to i32
// CHECK-NEXT:  %[[LOW:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:  %[[BOUND:.*]] = arith.ori %[[BITS]], %[[LOW]] : i32
// CHECK-NEXT:  %[[READ:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, %tid.x;"
// CHECK-NEXT:  arith.minui %[[READ]], %[[BOUND]] : i32
func.func @float_result(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
    %a2 = arith.addf %a, %a : f32
    scf.yield %a2 : f32
  }
  llvm.inline_asm has_side_effects "bar.sync 0;", "" : () -> ()
  %tid = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %f = arith.uitofp %tid : i32 to f32
  %s = arith.addf %acc, %f : f32
  return %s : f32
}

// -----

// A result an asm defines (a wgmma accumulator: reading it before the
// wgmma.wait_group serializes the loop's wgmmas) is never the bound.
// CHECK-LABEL: func.func @accumulator_result
// CHECK:       scf.for
// CHECK-NOT:   arith.minui
// CHECK:       return
func.func @accumulator_result(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
    %a2 = llvm.inline_asm has_side_effects "wgmma.mma_async ...;", "=f,0" %a : (f32) -> f32
    scf.yield %a2 : f32
  }
  llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "" : () -> ()
  %tid = llvm.inline_asm has_side_effects {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %f = arith.uitofp %tid : i32 to f32
  %s = arith.addf %acc, %f : f32
  return %s : f32
}
