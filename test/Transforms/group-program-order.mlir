// RUN: tile-opt %s --split-input-file --tile-group-program-order=group-m=4 | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-group-program-order=group-m=0 | FileCheck %s --check-prefix=OFF
// A 2-D launch indexed by program_id(0) (rows) and program_id(1) (columns)
// keeps its grid; the program's linear id in launch order (x fastest) is
// renumbered into GROUP_M-grouped tile order.

// CHECK-LABEL: func.func @naive_2d
// CHECK-SAME: (%[[GX:[^:]*]]: i32, %[[GY:[^:]*]]: i32, %[[P:[^:]*]]: !tile.ptr<i32>)
// CHECK-SAME: tile.grouped_program_order = 4 : i32
// CHECK:     tile.launch_grid %[[GX]], %[[GY]]
// CHECK:     %[[X:.*]] = tile.program_id 0 : i32
// CHECK:     %[[Y:.*]] = tile.program_id 1 : i32
// CHECK:     %[[YX:.*]] = arith.muli %[[Y]], %[[GX]] : i32
// CHECK:     %[[PID:.*]] = arith.addi %[[X]], %[[YX]] : i32
// CHECK:     %[[PER:.*]] = arith.muli %[[G:.*]], %[[GY]] : i32
// CHECK:     %[[GID:.*]] = arith.divsi %[[PID]], %[[PER]] : i32
// CHECK:     %[[FIRST:.*]] = arith.muli %[[GID]], %[[G]] : i32
// CHECK:     %[[LEFT:.*]] = arith.subi %[[GX]], %[[FIRST]] : i32
// CHECK:     %[[ROWS:.*]] = arith.minsi %[[LEFT]], %[[G]] : i32
// CHECK:     %[[IN:.*]] = arith.remsi %[[PID]], %[[PER]] : i32
// CHECK:     %[[R:.*]] = arith.remsi %[[IN]], %[[ROWS]] : i32
// CHECK:     %[[M:.*]] = arith.addi %[[FIRST]], %[[R]] : i32
// CHECK:     %[[N:.*]] = arith.divsi %[[IN]], %[[ROWS]] : i32
// CHECK-NOT: tile.launch_grid
// CHECK:     %[[ROW:.*]] = arith.muli %[[M]], %[[GY]] : i32
// CHECK:     %[[IDX:.*]] = arith.addi %[[ROW]], %[[N]] : i32
// CHECK:     tile.store %[[P]], %[[IDX]]
// OFF-LABEL: func.func @naive_2d
// OFF: tile.launch_grid %arg0, %arg1
// OFF: tile.program_id 1
func.func @naive_2d(%gx: i32, %gy: i32, %p: !tile.ptr<i32>) {
  tile.launch_grid %gx, %gy
  %m = tile.program_id 0 : i32
  %n = tile.program_id 1 : i32
  %ny = tile.num_programs 1 : i32
  %row = arith.muli %m, %ny : i32
  %idx = arith.addi %row, %n : i32
  tile.store %p, %idx : !tile.ptr<i32>
  return
}

// -----

// A 1-D grid (the kernel orders its own tiles) is left alone, as is a 2-D
// grid whose second id is never read.
// CHECK-LABEL: func.func @one_d
// CHECK-NOT: grouped_program_order
// CHECK: tile.launch_grid %arg0
// CHECK-LABEL: func.func @unused_second_id
// CHECK-NOT: grouped_program_order
// CHECK: tile.launch_grid %arg0, %arg1
func.func @one_d(%g: i32, %p: !tile.ptr<i32>) {
  tile.launch_grid %g
  %m = tile.program_id 0 : i32
  tile.store %p, %m : !tile.ptr<i32>
  return
}
func.func @unused_second_id(%gx: i32, %gy: i32, %p: !tile.ptr<i32>) {
  tile.launch_grid %gx, %gy
  %m = tile.program_id 0 : i32
  tile.store %p, %m : !tile.ptr<i32>
  return
}
