// RUN: tile-opt %s --split-input-file --tile-fuse-nested-loops | FileCheck %s
// A persistent loop (tl.range(..., flatten=True)) with one inner loop
// becomes one loop over every (tile, k) pair: the tile index and k are
// counted, the prologue's values are computed where k is 0 and carried, and
// the epilogue (the store) runs where k is the last. The inner loop's value,
// which starts from a constant (the accumulator's zeros), is reset to it
// after the epilogue (a select on the same condition, which the pipeliner
// moves into the epilogue's branch). When the inner loop would not run, the
// original loops run instead.

// CHECK-LABEL: func.func @persistent
// CHECK: %[[T:.*]] = arith.maxsi
// CHECK: %[[K:.*]] = arith.maxsi
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[K]], %{{.*}}
// CHECK: scf.if %[[RUNS]] -> (i32) {
// CHECK:   %[[TOTAL:.*]] = arith.muli %[[T]], %[[K]]
// CHECK:   scf.for %{{.*}} = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[COUNT:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}, %[[KK:.*]] = %{{.*}}, %[[BASE:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (i32, i32, i32, i32, tensor<16xf32>)
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[KK]], %{{.*}}
// CHECK:     %[[P:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK:       arith.muli
// CHECK:     } else {
// CHECK:       scf.yield %[[BASE]] : i32
// CHECK-NOT: arith.select %[[FIRST]]
// CHECK:     tile.load
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]]
// CHECK:     %[[LAST:.*]] = arith.cmpi eq, %[[KK]]
// CHECK:     %[[E:.*]] = scf.if %[[LAST]] -> (i32) {
// CHECK:       tile.store %{{.*}}, %[[NEXT]]
// CHECK:     } else {
// CHECK:       scf.yield %[[COUNT]] : i32
// CHECK:     arith.select %[[LAST]]
// CHECK:     arith.select %[[LAST]]
// CHECK:     %[[RESET:.*]] = arith.select %[[LAST]], %{{.*}}, %[[NEXT]] : tensor<16xf32>
// CHECK:     scf.yield %[[E]], %{{.*}}, %{{.*}}, %[[P]], %[[RESET]]
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK-NOT: tile.flatten
func.func @persistent(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %tiles: i32, %k_tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %pid = tile.program_id 0 : i32
  %r = scf.for %t = %pid to %tiles step %c4 iter_args(%count = %c0) -> (i32) : i32 {
    %zero = arith.constant dense<0.0> : tensor<16xf32>
    %base = arith.muli %t, %c4 : i32
    %sum = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zero) -> (tensor<16xf32>) : i32 {
      %off = arith.addi %base, %k : i32
      %ptr = tile.addptr %p, %off : !tile.ptr<f32>, i32
      %ptrs = tile.splat %ptr : tensor<16x!tile.ptr<f32>>
      %x = tile.load %ptrs : tensor<16x!tile.ptr<f32>>
      %next = arith.addf %acc, %x : tensor<16xf32>
      scf.yield %next : tensor<16xf32>
    }
    %out = tile.addptr %q, %base : !tile.ptr<f32>, i32
    %outs = tile.splat %out : tensor<16x!tile.ptr<f32>>
    tile.store %outs, %sum : tensor<16x!tile.ptr<f32>>
    %count1 = arith.addi %count, %c1 : i32
    scf.yield %count1 : i32
  } {tile.flatten}
  return
}

// -----

// An inner value that starts from the prologue's result restarts from it
// where k is 0 (select), and is carried as the loop leaves it.
// CHECK-LABEL: func.func @computed_init
// A loop that carries nothing fuses too.
// CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[KK:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (i32, i32, tensor<16xf32>, tensor<16xf32>)
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[KK]], %{{.*}}
// CHECK:     %[[P:.*]] = scf.if %[[FIRST]] -> (tensor<16xf32>) {
// CHECK:     %[[START:.*]] = arith.select %[[FIRST]], %[[P]], %[[ACC]] : tensor<16xf32>
// CHECK:     %[[NEXT:.*]] = arith.addf %[[START]]
// CHECK:     scf.yield %{{.*}}, %{{.*}}, %[[P]], %[[NEXT]]
func.func @computed_init(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %tiles: i32, %k_tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %pid = tile.program_id 0 : i32
  scf.for %t = %pid to %tiles step %c4 : i32 {
    %tf = arith.sitofp %t : i32 to f32
    %bias = tile.splat %tf : tensor<16xf32>
    %sum = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %bias) -> (tensor<16xf32>) : i32 {
      %ptr = tile.addptr %p, %k : !tile.ptr<f32>, i32
      %ptrs = tile.splat %ptr : tensor<16x!tile.ptr<f32>>
      %x = tile.load %ptrs : tensor<16x!tile.ptr<f32>>
      %next = arith.addf %acc, %x : tensor<16xf32>
      scf.yield %next : tensor<16xf32>
    }
    %out = tile.addptr %q, %t : !tile.ptr<f32>, i32
    %outs = tile.splat %out : tensor<16x!tile.ptr<f32>>
    tile.store %outs, %sum : tensor<16x!tile.ptr<f32>>
  } {tile.flatten}
  return
}

// -----

// A prologue with side effects (a store before the inner loop) cannot be
// recomputed: the loops stay as they are, without the attribute.
// CHECK-LABEL: func.func @not_fused
// CHECK: scf.for
// CHECK: tile.store
// CHECK: scf.for
// CHECK-NOT: tile.flatten
func.func @not_fused(%p: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %t = %c0 to %n step %c1 : i32 {
    %v = arith.constant 1.0 : f32
    tile.store %p, %v : !tile.ptr<f32>
    scf.for %k = %c0 to %n step %c1 : i32 {
      %x = tile.load %p : !tile.ptr<f32>
    }
  } {tile.flatten}
  return
}
