// RUN: tile-opt %s --tile-sink-past-loops | FileCheck %s
// Tensors computed before a loop and first used after it are computed after
// the loop, operands included; what the loop uses and ops with effects stay
// where they are.

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
