// RUN: tile-opt %s --split-input-file --tile-heavy-programs-first=group=8 | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-heavy-programs-first=group=0 | FileCheck %s --check-prefix=OFF
// Where a loop's trip count grows with program_id(0) (causal attention's
// `start_m * BLOCK_M` keys), the programs are renumbered heaviest first
// within groups of 8 positions of the other axes.

// CHECK-LABEL: func.func @grows_with_x
// CHECK-SAME: tile.heavy_programs_first
// CHECK-DAG: %[[NX:.*]] = tile.num_programs 0 : i32
// CHECK-DAG: %[[X:.*]] = tile.program_id 0 : i32
// CHECK-DAG: %[[NY:.*]] = tile.num_programs 1 : i32
// CHECK-DAG: %[[Y:.*]] = tile.program_id 1 : i32
// CHECK-DAG: %[[NZ:.*]] = tile.num_programs 2 : i32
// CHECK-DAG: %[[Z:.*]] = tile.program_id 2 : i32
// The launch order's linear id, x fastest.
// CHECK:     %[[ZY:.*]] = arith.muli %[[NY]], %[[Z]] : i32
// CHECK:     %[[YZ:.*]] = arith.addi %[[Y]], %[[ZY]] overflow<nsw> : i32
// CHECK:     %[[S:.*]] = arith.muli %[[NX]], %[[YZ]] overflow<nsw> : i32
// CHECK:     %[[LIN:.*]] = arith.addi %[[X]], %[[S]] overflow<nsw> : i32
// Groups of 8 (y, z) positions, every x of each.
// CHECK:     %[[POS:.*]] = arith.muli %[[NY]], %[[NZ]] : i32
// CHECK:     %[[PER:.*]] = arith.muli %[[C8:.*]], %[[NX]] : i32
// CHECK:     %[[G:.*]] = arith.divui %[[LIN]], %[[PER]] : i32
// CHECK:     %[[FIRST:.*]] = arith.muli %[[G]], %[[C8]] : i32
// CHECK:     %[[LEFT:.*]] = arith.subi %[[POS]], %[[FIRST]] : i32
// CHECK:     %[[ROWS:.*]] = arith.minui %[[LEFT]], %[[C8]] : i32
// CHECK:     %[[I:.*]] = arith.remui %[[LIN]], %[[PER]] : i32
// CHECK:     %[[IR:.*]] = arith.remui %[[I]], %[[ROWS]] : i32
// CHECK:     %[[R:.*]] = arith.addi %[[FIRST]], %[[IR]] : i32
// CHECK:     %[[Q:.*]] = arith.divui %[[I]], %[[ROWS]] : i32
// The heaviest x first: nx - 1 - q.
// CHECK:     %[[LAST:.*]] = arith.subi %[[NX]], %{{.*}} overflow<nsw, nuw> : i32
// CHECK:     %[[NEWX:.*]] = arith.subi %[[LAST]], %[[Q]] overflow<nsw, nuw> : i32
// CHECK:     %[[NEWY:.*]] = arith.remui %[[R]], %[[NY]] : i32
// CHECK:     %[[NEWZ:.*]] = arith.divui %[[R]], %[[NY]] : i32
// Each id read back from lane 0 (warp-uniform to ptxas once lowered).
// CHECK:     %[[UX:.*]] = tile.hint %[[NEWX]] {tile.warp_uniform} : i32
// CHECK:     %[[UY:.*]] = tile.hint %[[NEWY]] {tile.warp_uniform} : i32
// CHECK:     tile.hint %[[NEWZ]] {tile.warp_uniform} : i32
// CHECK:     %[[HI:.*]] = arith.muli %[[UX]], %{{.*}} : i32
// CHECK:     scf.for %{{.*}} = %{{.*}} to %[[HI]]
// CHECK:     tile.store %{{.*}}, %[[UY]]
// OFF-LABEL: func.func @grows_with_x
// OFF-NOT: tile.heavy_programs_first
// OFF: tile.program_id 0
func.func @grows_with_x(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %hi = arith.muli %x, %c128 : i32
  %sum = scf.for %i = %c0 to %hi step %c64 iter_args(%s = %c0) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  tile.store %p, %y : !tile.ptr<i32>
  return
}

// -----

// Work that shrinks with program_id(0) (a loop from start to the end):
// the lowest ids first, q itself.
// CHECK-LABEL: func.func @shrinks_with_x
// CHECK-SAME: tile.heavy_programs_first
// CHECK:     %[[ROWS:.*]] = arith.minui
// CHECK:     %[[Q:.*]] = arith.divui %{{.*}}, %[[ROWS]] : i32
// CHECK-NOT: overflow<nsw, nuw>
// CHECK:     %[[UQ:.*]] = tile.hint %[[Q]] {tile.warp_uniform} : i32
// CHECK:     %[[LO:.*]] = arith.muli %[[UQ]], %{{.*}} : i32
// CHECK:     scf.for %{{.*}} = %[[LO]] to
func.func @shrinks_with_x(%n: i32, %p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %x = tile.program_id 0 : i32
  %lo = arith.muli %x, %c64 : i32
  %sum = scf.for %i = %lo to %n step %c64 iter_args(%s = %c0) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  tile.store %p, %sum : !tile.ptr<i32>
  return
}

// -----

// Every program the same work: the order stays.
// CHECK-LABEL: func.func @same_work
// CHECK-NOT: tile.heavy_programs_first
// CHECK: tile.program_id 0
func.func @same_work(%n: i32, %p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %x = tile.program_id 0 : i32
  %sum = scf.for %i = %c0 to %n step %c64 iter_args(%s = %x) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  tile.store %p, %sum : !tile.ptr<i32>
  return
}

// -----

// Programs that may wait on each other (an atomic) keep the launch order.
// CHECK-LABEL: func.func @communicates
// CHECK-NOT: tile.heavy_programs_first
// CHECK: tile.program_id 0
func.func @communicates(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %x = tile.program_id 0 : i32
  %hi = arith.muli %x, %c64 : i32
  %sum = scf.for %i = %c0 to %hi step %c64 iter_args(%s = %c0) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  %old = tile.atomic_rmw add, %p, %c1 : !tile.ptr<i32>
  return
}

// -----

// A loop whose bound is not linear in the id (a product of two ids): left
// alone.
// CHECK-LABEL: func.func @not_linear
// CHECK-NOT: tile.heavy_programs_first
func.func @not_linear(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %hi = arith.muli %x, %y : i32
  %sum = scf.for %i = %c0 to %hi step %c64 iter_args(%s = %c0) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  tile.store %p, %sum : !tile.ptr<i32>
  return
}

// -----

// A loop bound carried by another loop may differ per program in ways the
// pass does not follow: left alone.
// CHECK-LABEL: func.func @carried_bound
// CHECK-NOT: tile.heavy_programs_first
func.func @carried_bound(%n: i32, %p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %x = tile.program_id 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%hi = %x) -> (i32) : i32 {
    %s = scf.for %j = %c0 to %hi step %c64 iter_args(%t = %c0) -> (i32) : i32 {
      %u = arith.addi %t, %j : i32
      scf.yield %u : i32
    }
    %next = arith.addi %hi, %s : i32
    scf.yield %next : i32
  }
  tile.store %p, %r : !tile.ptr<i32>
  return
}

// -----

// A persistent loop, range(pid, tiles, NUM_SMS): one iteration more or
// less between programs, no reason to reorder.
// CHECK-LABEL: func.func @persistent
// CHECK-NOT: tile.heavy_programs_first
func.func @persistent(%tiles: i32, %p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c132 = arith.constant 132 : i32
  %x = tile.program_id 0 : i32
  %sum = scf.for %t = %x to %tiles step %c132 iter_args(%s = %c0) -> (i32) : i32 {
    %u = arith.addi %s, %t : i32
    scf.yield %u : i32
  }
  tile.store %p, %sum : !tile.ptr<i32>
  return
}
