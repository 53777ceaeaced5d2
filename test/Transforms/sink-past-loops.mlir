// RUN: tile-opt %s --tile-sink-past-loops | FileCheck %s
// Tensors computed before a loop and first used after it are computed after
// the loop, operands included; what the loop uses and ops with effects stay
// where they are. Index arithmetic used both before and after a loop that
// does not use it is computed again after the loop.

// CHECK-LABEL: func.func @output_pointers
// CHECK:      %[[R:.*]] = tile.make_range 0 to 64
// CHECK:      tile.load
// CHECK:      scf.for
// CHECK:        arith.addi %{{.*}}, %[[R]]
// CHECK:      }
// CHECK-NEXT: arith.sitofp
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg1
// CHECK-NEXT: %[[R2:.*]] = tile.make_range 0 to 64
// CHECK-NEXT: %[[P:.*]] = tile.addptr %[[S]], %[[R2]]
// CHECK-NEXT: tile.store %[[P]]
// The input pointers, used before the loop and after it, are computed
// again after it from the range the loop holds anyway.
// CHECK-NEXT: %[[IS:.*]] = tile.splat %arg0
// CHECK-NEXT: %[[IP:.*]] = tile.addptr %[[IS]], %[[R]]
// CHECK-NEXT: tile.store %[[IP]]
func.func @output_pointers(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %r2 = tile.make_range 0 to 64 : tensor<64xi32>
  %os = tile.splat %out : tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %r2 : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %is = tile.splat %in : tensor<64x!tile.ptr<f32>>
  %ip = tile.addptr %is, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %x = tile.load %ip : tensor<64x!tile.ptr<f32>>
  %zero = arith.constant dense<0> : tensor<64xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64xi32>) : i32 {
    %next = arith.addi %a, %r : tensor<64xi32>
    scf.yield %next : tensor<64xi32>
  }
  %y = arith.sitofp %acc : tensor<64xi32> to tensor<64xf32>
  tile.store %op, %y : tensor<64x!tile.ptr<f32>>
  tile.store %ip, %x : tensor<64x!tile.ptr<f32>>
  return
}

// Q's row offsets address Out too: the uses after the loop get their own
// copies (the make_range marked so that CSE keeps them apart); a loop that
// uses a value keeps it, and so does a float tensor (not index arithmetic).
// CHECK-LABEL: func.func @recompute_after_loop
// CHECK:      %[[R:.*]] = tile.make_range 0 to 64 : tensor<64xi32>
// CHECK:      %[[F:.*]] = arith.sitofp %[[R]]
// CHECK:      %[[Q:.*]] = tile.addptr %{{.*}}, %[[R]]
// CHECK:      tile.load %[[Q]]
// CHECK:      scf.for
// CHECK-NOT:    make_range
// CHECK:      }
// CHECK:      %[[R2:.*]] = tile.make_range 0 to 64 {tile.recomputed} : tensor<64xi32>
// CHECK:      %[[O:.*]] = tile.addptr %{{.*}}, %[[R2]]
// CHECK:      arith.addf %{{.*}}, %[[F]]
// CHECK:      tile.store %[[O]]
func.func @recompute_after_loop(%q: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %f = arith.sitofp %r : tensor<64xi32> to tensor<64xf32>
  %qs = tile.splat %q : tensor<64x!tile.ptr<f32>>
  %qp = tile.addptr %qs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %x = tile.load %qp : tensor<64x!tile.ptr<f32>>
  %y0 = arith.addf %x, %f : tensor<64xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %y0) -> (tensor<64xf32>) : i32 {
    %next = arith.mulf %a, %a : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  %os = tile.splat %out : tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %y = arith.addf %acc, %f : tensor<64xf32>
  tile.store %op, %y : tensor<64x!tile.ptr<f32>>
  return
}

// A scalar used only after the loop (Out's batch offset) moves past it.
// CHECK-LABEL: func.func @scalar_after_loop
// CHECK:      scf.for
// CHECK:      }
// CHECK-NEXT: arith.extsi %arg2
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.addptr %arg0
func.func @scalar_after_loop(%out: !tile.ptr<f32>, %n: i32, %z: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stride = arith.constant 4096 : i64
  %z64 = arith.extsi %z : i32 to i64
  %off = arith.muli %z64, %stride : i64
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) : i32 {
    %next = arith.addf %a, %a : f32
    scf.yield %next : f32
  }
  %p = tile.addptr %out, %off : !tile.ptr<f32>, i64
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %v = tile.splat %sum : tensor<64xf32>
  tile.store %ps, %v : tensor<64x!tile.ptr<f32>>
  return
}
