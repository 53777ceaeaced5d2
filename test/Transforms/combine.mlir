// RUN: tile-opt %s --tile-combine | FileCheck %s
// RUN: tile-opt %s --tile-combine --canonicalize | FileCheck %s --check-prefix=LOOP

// add(dot(a, b, 0), c) -> dot(a, b, c), keeping the input precision.
// CHECK-LABEL: func.func @fold_addf
// CHECK-SAME: (%[[A:[^:]*]]: tensor<16x32xf16>, %[[B:[^:]*]]: tensor<32x8xf16>, %[[C:[^:]*]]: tensor<16x8xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] {inputPrecision = #tile.precision<ieee>} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
// CHECK-NEXT: return %[[D]]
func.func @fold_addf(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %z {inputPrecision = #tile.precision<ieee>} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.addf %d, %c : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// The dot may be either operand of the add.
// CHECK-LABEL: func.func @fold_addf_commuted
// CHECK-SAME: (%[[A:[^:]*]]: tensor<16x32xf16>, %[[B:[^:]*]]: tensor<32x8xf16>, %[[C:[^:]*]]: tensor<16x8xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
// CHECK-NEXT: return %[[D]]
func.func @fold_addf_commuted(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.addf %c, %d : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// Integer dot with addi.
// CHECK-LABEL: func.func @fold_addi
// CHECK-SAME: (%[[A:[^:]*]]: tensor<16x32xi8>, %[[B:[^:]*]]: tensor<32x8xi8>, %[[C:[^:]*]]: tensor<16x8xi32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
// CHECK-NEXT: return %[[D]]
func.func @fold_addi(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>, %c: tensor<16x8xi32>) -> tensor<16x8xi32> {
  %z = arith.constant dense<0> : tensor<16x8xi32>
  %d = tile.dot %a, %b, %z : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  %r = arith.addi %d, %c : tensor<16x8xi32>
  return %r : tensor<16x8xi32>
}

// The usual accumulation loop: acc += dot(a, b) accumulates in place.
// CHECK-LABEL: func.func @fold_in_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]]
func.func @fold_in_loop(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %n: i32) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<16x8xf32>) : i32 {
    %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
    %s = arith.addf %acc, %d : tensor<16x8xf32>
    scf.yield %s : tensor<16x8xf32>
  }
  return %r : tensor<16x8xf32>
}

// Negative: the accumulator is a constant, but not zero.
// CHECK-LABEL: func.func @not_zero
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<16x8xf32>
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ONE]]
// CHECK: arith.addf %[[D]], %{{.*}}
func.func @not_zero(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %one = arith.constant dense<1.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %one : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.addf %d, %c : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// Negative: the accumulator is not a constant.
// CHECK-LABEL: func.func @acc_not_constant
// CHECK-SAME: %[[E:[^:]*]]: tensor<16x8xf32>)
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[E]]
// CHECK: arith.addf %[[D]], %{{.*}}
func.func @acc_not_constant(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>, %e: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %d = tile.dot %a, %b, %e : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.addf %d, %c : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// Negative: the dot's result has another use, so it must stay.
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[Z]]
// CHECK: %[[R:.*]] = arith.addf %[[D]], %{{.*}}
// CHECK: return %[[R]], %[[D]]
func.func @two_uses(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.addf %d, %c : tensor<16x8xf32>
  return %r, %d : tensor<16x8xf32>, tensor<16x8xf32>
}

// Negative: a subtraction is not an accumulation.
// CHECK-LABEL: func.func @sub
// CHECK: tile.dot
// CHECK: arith.subf
func.func @sub(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %r = arith.subf %c, %d : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// A loop-carried value the loop only sets to its initial value (through an
// scf.if and a select) or keeps is that value; the iter_arg goes.
// LOOP-LABEL: func.func @invariant_iter_arg
// LOOP-SAME: (%[[N:[^:]*]]: index, %[[X:[^:]*]]: i32, %[[C:[^:]*]]: i1)
// LOOP: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (i32)
// LOOP: arith.addi %[[S]], %[[X]]
// LOOP: return %[[X]]
func.func @invariant_iter_arg(%n: index, %x: i32, %c: i1) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %s = %zero) -> (i32, i32) {
    %w = scf.if %c -> (i32) {
      %p = arith.select %c, %x, %v : i32
      scf.yield %p : i32
    } else {
      scf.yield %v : i32
    }
    %t = arith.addi %s, %w : i32
    scf.yield %w, %t : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// A value set to something else is carried.
// LOOP-LABEL: func.func @variant_iter_arg
// LOOP: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)
// LOOP: arith.select
func.func @variant_iter_arg(%n: index, %x: i32, %y: i32, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (i32) {
    %p = arith.select %c, %y, %v : i32
    scf.yield %p : i32
  }
  return %r : i32
}

// A counter that starts k from the lower bound and advances by the step is
// the induction variable plus k: tutorial 09's `tile_id_c`, bumped before
// its use, is the tile index itself.
// LOOP-LABEL: func.func @counter_is_induction_variable
// LOOP-SAME: (%[[LB:[^:]*]]: i32, %[[UB:[^:]*]]: i32)
// LOOP: scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %{{.*}} : i32 {
// LOOP-NEXT: func.call @use(%[[IV]]) : (i32) -> ()
// LOOP-NEXT: }
func.func @counter_is_induction_variable(%lb: i32, %ub: i32) {
  %step = arith.constant 132 : i32
  %init = arith.subi %lb, %step : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%c = %init) -> (i32) : i32 {
    %next = arith.addi %c, %step : i32
    func.call @use(%next) : (i32) -> ()
    scf.yield %next : i32
  }
  return
}

// A counter advancing by something other than the step stays carried, and
// so does one that starts from another value.
// LOOP-LABEL: func.func @counter_not_induction_variable
// LOOP: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
func.func @counter_not_induction_variable(%lb: i32, %ub: i32, %x: i32) -> (i32, i32) {
  %step = arith.constant 132 : i32
  %two = arith.constant 2 : i32
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%c = %lb, %d = %x) -> (i32, i32) : i32 {
    %next = arith.addi %c, %two : i32
    %d2 = arith.addi %d, %step : i32
    func.call @use2(%next, %d2) : (i32, i32) -> ()
    scf.yield %next, %d2 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

func.func private @use(i32)
func.func private @use2(i32, i32)
