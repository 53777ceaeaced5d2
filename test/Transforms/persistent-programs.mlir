// RUN: tile-opt %s --split-input-file --tile-persistent-programs=programs=132 | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-persistent-programs | FileCheck %s --check-prefix=OFF
// One-tile matmul programs become persistent: about one program per SM
// walks the declared grid's tiles.

// A 128x256x64 tile in 3 stages (144 KiB: one program per SM) on 8 warps.
// The code after the grid runs in a loop over the linear tile ids, from
// the launch's linear program id by its program count to gx * gy; the
// program ids become the tile id's coordinates and num_programs(0) gx.
// CHECK-LABEL: func.func @one_tile
// CHECK-SAME:    tile.persistent_programs = 132 : i32
// CHECK:         tile.launch_grid %[[GX:.*]], %[[GY:.*]]
// CHECK-DAG:     %[[X:.*]] = tile.program_id 0
// CHECK-DAG:     %[[NX:.*]] = tile.num_programs 0
// CHECK-DAG:     %[[Y:.*]] = tile.program_id 1
// CHECK-DAG:     %[[NY:.*]] = tile.num_programs 1
// CHECK-DAG:     %[[Z:.*]] = tile.program_id 2
// CHECK-DAG:     %[[NZ:.*]] = tile.num_programs 2
// CHECK:         %[[YZ:.*]] = arith.muli %[[NY]], %[[Z]]
// CHECK:         %[[LINE:.*]] = arith.addi %[[Y]], %[[YZ]]
// CHECK:         %[[ROWS:.*]] = arith.muli %[[NX]], %[[LINE]]
// CHECK:         %[[FIRST:.*]] = arith.addi %[[X]], %[[ROWS]]
// CHECK:         %[[XY:.*]] = arith.muli %[[NX]], %[[NY]]
// CHECK:         %[[LAUNCHED:.*]] = arith.muli %[[XY]], %[[NZ]]
// CHECK:         %[[G:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK:         %[[TILES:.*]] = arith.muli %[[G]], %c1
// CHECK:         scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES]] step %[[LAUNCHED]]
// CHECK-NEXT:      %[[TX:.*]] = arith.remsi %[[T]], %[[GX]]
// CHECK-NEXT:      %[[REST:.*]] = arith.divsi %[[T]], %[[GX]]
// CHECK-NEXT:      %[[TY:.*]] = arith.remsi %[[REST]], %[[GY]]
// CHECK-NOT:       tile.program_id
// CHECK-NOT:       tile.num_programs
// CHECK:           scf.for
// CHECK:             tile.dot
// CHECK:           %[[ROW:.*]] = arith.muli %[[TY]], %[[GX]]
// CHECK:           arith.addi %[[ROW]], %[[TX]]
// CHECK:           tile.store
// CHECK:         }
// CHECK-NEXT:    return
// OFF-LABEL: func.func @one_tile
// OFF-NOT:     tile.persistent_programs
// OFF:         tile.program_id 0
func.func @one_tile(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                    %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %nx = tile.num_programs 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f16>>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %row = arith.muli %y, %nx : i32
  %id = arith.addi %row, %x : i32
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %id : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// 128x256x64 in 2 stages on 4 warps (96 KiB): two programs share an SM,
// hiding each other's latencies; the kernel stays one tile per program.
// CHECK-LABEL: func.func @two_programs_fit
// CHECK-NOT:     tile.persistent_programs
// CHECK-NOT:     scf.for {{.*}} step %{{.*}} :
// CHECK:         tile.program_id 0
func.func @two_programs_fit(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                    %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 2 : i32, tilegpu.num_warps = 4 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %nx = tile.num_programs 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f16>>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %row = arith.muli %y, %nx : i32
  %id = arith.addi %row, %x : i32
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %id : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// Programs that may communicate (an atomic) keep their launch.
// CHECK-LABEL: func.func @atomic
// CHECK-NOT:     tile.persistent_programs
func.func @atomic(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                    %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %nx = tile.num_programs 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f16>>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %row = arith.muli %y, %nx : i32
  %id = arith.addi %row, %x : i32
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %id : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128x256xf32>
  %old = tile.atomic_rmw add, %pco, %one : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// Attention's shape (tutorial 06 without its causal split): Q loaded once,
// K and V in the key loop (3 stages of 32 KiB beside Q's 32 KiB: one
// program per SM), two dots in that loop. The descriptor's tensor map,
// and the scalars it is made from, are made once before the tile loop;
// Q's load and the key loop run per tile.
// CHECK-LABEL: func.func @attention
// CHECK-SAME:    tile.persistent_programs = 132 : i32
// CHECK:         tile.launch_grid
// CHECK:         %[[ROWS:.*]] = arith.extsi
// CHECK-NEXT:    %[[MAP:.*]] = tile.make_tensor_map %{{.*}}, [%[[ROWS]],
// CHECK:         scf.for
// CHECK-NOT:       tile.make_tensor_map
// CHECK:           tile.load
// CHECK:           scf.for
// CHECK:             tile.dot
// CHECK:             tile.load %{{.*}} tma(%[[MAP]]
// CHECK:             tile.dot
// CHECK:           tile.store
func.func @attention(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                  %o: !tile.ptr<f16>, %gx: i32, %gy: i32, %n: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c128_64 = arith.constant 128 : i64
  %rows = arith.extsi %n : i32 to i64
  %mv = tile.make_tensor_map %v, [%rows, %c128_64], [%c128_64, %c1_64] block [64, 128] : !tile.ptr<f16>
  %pq = tile.splat %q : tensor<128x128x!tile.ptr<f16>>
  %tq = tile.load %pq : tensor<128x128x!tile.ptr<f16>>
  %pk = tile.splat %k : tensor<128x64x!tile.ptr<f16>>
  %pv = tile.splat %v : tensor<64x128x!tile.ptr<f16>>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %s0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %tk = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
    %s = tile.dot %tq, %tk, %s0 : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
    %tv = tile.load %pv tma(%mv[%i, %c0]) : tensor<64x128x!tile.ptr<f16>>
    %d = tile.dot %p, %tv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf16>
  %po = tile.splat %o : tensor<128x128x!tile.ptr<f16>>
  %offs = tile.splat %x : tensor<128x128xi32>
  %poo = tile.addptr %po, %offs : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  tile.store %poo, %h : tensor<128x128x!tile.ptr<f16>>
  return
}

// -----

// The same on one warpgroup: a thread would hold 192 fp32 results of the
// two dots beside the tile loop's registers (this spilled); one tile per
// program.
// CHECK-LABEL: func.func @attention_one_warpgroup
// CHECK-NOT:     tile.persistent_programs
func.func @attention_one_warpgroup(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                  %o: !tile.ptr<f16>, %gx: i32, %gy: i32, %n: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c128_64 = arith.constant 128 : i64
  %rows = arith.extsi %n : i32 to i64
  %mv = tile.make_tensor_map %v, [%rows, %c128_64], [%c128_64, %c1_64] block [64, 128] : !tile.ptr<f16>
  %pq = tile.splat %q : tensor<128x128x!tile.ptr<f16>>
  %tq = tile.load %pq : tensor<128x128x!tile.ptr<f16>>
  %pk = tile.splat %k : tensor<128x64x!tile.ptr<f16>>
  %pv = tile.splat %v : tensor<64x128x!tile.ptr<f16>>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %s0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %tk = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
    %s = tile.dot %tq, %tk, %s0 : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
    %tv = tile.load %pv tma(%mv[%i, %c0]) : tensor<64x128x!tile.ptr<f16>>
    %d = tile.dot %p, %tv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf16>
  %po = tile.splat %o : tensor<128x128x!tile.ptr<f16>>
  %offs = tile.splat %x : tensor<128x128xi32>
  %poo = tile.addptr %po, %offs : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  tile.store %poo, %h : tensor<128x128x!tile.ptr<f16>>
  return
}

// -----

// K's pointer tile is offset from a base that changes with the program
// (attention's `K + off_hz * stride_kh`): its tensor map would be rebuilt
// per tile, so the kernel keeps one tile per program (and its map).
// CHECK-LABEL: func.func @per_tile_base
// CHECK-NOT:     tile.persistent_programs
func.func @per_tile_base(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                  %o: !tile.ptr<f16>, %gx: i32, %gy: i32, %n: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c128_64 = arith.constant 128 : i64
  %xoff = arith.muli %x, %c64 : i32
  %kx = tile.addptr %k, %xoff : !tile.ptr<f16>, i32
  %rows = arith.extsi %n : i32 to i64
  %mv = tile.make_tensor_map %v, [%rows, %c128_64], [%c128_64, %c1_64] block [64, 128] : !tile.ptr<f16>
  %pq = tile.splat %q : tensor<128x128x!tile.ptr<f16>>
  %tq = tile.load %pq : tensor<128x128x!tile.ptr<f16>>
  %pk = tile.splat %kx : tensor<128x64x!tile.ptr<f16>>
  %pv = tile.splat %v : tensor<64x128x!tile.ptr<f16>>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %s0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %tk = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
    %s = tile.dot %tq, %tk, %s0 : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
    %tv = tile.load %pv tma(%mv[%i, %c0]) : tensor<64x128x!tile.ptr<f16>>
    %d = tile.dot %p, %tv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf16>
  %po = tile.splat %o : tensor<128x128x!tile.ptr<f16>>
  %offs = tile.splat %x : tensor<128x128xi32>
  %poo = tile.addptr %po, %offs : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  tile.store %poo, %h : tensor<128x128x!tile.ptr<f16>>
  return
}

// -----

// A descriptor made from the program's own base: not made once.
// CHECK-LABEL: func.func @map_per_tile
// CHECK-NOT:     tile.persistent_programs
func.func @map_per_tile(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                  %o: !tile.ptr<f16>, %gx: i32, %gy: i32, %n: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c128_64 = arith.constant 128 : i64
  %vx = tile.addptr %v, %x : !tile.ptr<f16>, i32
  %rows = arith.extsi %n : i32 to i64
  %mv = tile.make_tensor_map %vx, [%rows, %c128_64], [%c128_64, %c1_64] block [64, 128] : !tile.ptr<f16>
  %pq = tile.splat %q : tensor<128x128x!tile.ptr<f16>>
  %tq = tile.load %pq : tensor<128x128x!tile.ptr<f16>>
  %pk = tile.splat %k : tensor<128x64x!tile.ptr<f16>>
  %pv = tile.splat %v : tensor<64x128x!tile.ptr<f16>>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %s0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %tk = tile.load %pk : tensor<128x64x!tile.ptr<f16>>
    %s = tile.dot %tq, %tk, %s0 : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
    %tv = tile.load %pv tma(%mv[%i, %c0]) : tensor<64x128x!tile.ptr<f16>>
    %d = tile.dot %p, %tv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf16>
  %po = tile.splat %o : tensor<128x128x!tile.ptr<f16>>
  %offs = tile.splat %x : tensor<128x128xi32>
  %poo = tile.addptr %po, %offs : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  tile.store %poo, %h : tensor<128x128x!tile.ptr<f16>>
  return
}

// -----

// Dots in two loops of the same bounds: both run in the tile loop, one
// after the other (the ring counts the larger loop's tiles once).
// CHECK-LABEL: func.func @two_loops
// CHECK-SAME:    tile.persistent_programs = 132 : i32
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             tile.dot
// CHECK:           scf.for
// CHECK:             tile.dot
// CHECK:           tile.store
func.func @two_loops(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                     %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f16>>
  %r0 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %x : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// A loop whose bounds depend on the program (causal attention's key loops
// end at the program's diagonal): programs of different lengths keep the
// hardware's hand-out, one tile per program.
// CHECK-LABEL: func.func @program_bounds
// CHECK-NOT:     tile.persistent_programs
func.func @program_bounds(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                     %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f16>>
  %hi = arith.muli %x, %k : i32
  %r0 = scf.for %i = %c0 to %hi step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f16>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %x : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  return
}

// -----

// fp32 operands (tf32): only fp16 and bf16 tiles are made persistent,
// whose loads tile-pointer-tensor-maps gives TMA copies.
// CHECK-LABEL: func.func @fp32_operands
// CHECK-NOT:     tile.persistent_programs
func.func @fp32_operands(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>,
                         %gx: i32, %gy: i32, %k: i32)
    attributes {tile.kernel, tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  tile.launch_grid %gx, %gy
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32>
  %pa = tile.splat %a : tensor<128x64x!tile.ptr<f32>>
  %pb = tile.splat %b : tensor<64x256x!tile.ptr<f32>>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32>) : i32 {
    %ta = tile.load %pa : tensor<128x64x!tile.ptr<f32>>
    %tb = tile.load %pb : tensor<64x256x!tile.ptr<f32>>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf32> * tensor<64x256xf32> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %pc = tile.splat %c : tensor<128x256x!tile.ptr<f32>>
  %offs = tile.splat %x : tensor<128x256xi32>
  %pco = tile.addptr %pc, %offs : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xi32>
  tile.store %pco, %r : tensor<128x256x!tile.ptr<f32>>
  return
}
