// RUN: tile-opt %s --split-input-file --tile-loop-pointer-offsets | FileCheck %s
// A block of pointers carried through a loop and advanced uniformly becomes
// a carried base pointer; the block is rebuilt from the base and the fixed
// 32-bit offsets inside the loop and after it.

// Attention's K tile: `K + off` plus row and column offsets, advanced by
// `64 * stride` per iteration. The uniform `off` moves the base, the
// broadcast offsets are added once before the loop.
// CHECK-LABEL: func.func @carried
// CHECK:      %[[BASE:.*]] = tile.addptr %arg0, %arg3 : !tile.ptr<f16>, i32
// CHECK:      %[[ROWS:.*]] = tile.broadcast %{{.*}} : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK:      %[[OFFS:.*]] = arith.addi %[[ROWS]], %{{.*}} : tensor<64x32xi32>
// CHECK:      %[[LAST:.*]] = scf.for {{.*}} iter_args(%[[B:.*]] = %[[BASE]]) -> (!tile.ptr<f16>)
// CHECK-NEXT:   %[[S:.*]] = tile.splat %[[B]] : tensor<64x32x!tile.ptr<f16>>
// CHECK-NEXT:   %[[P:.*]] = tile.addptr %[[S]], %[[OFFS]]
// CHECK-NEXT:   tile.load %[[P]]
// CHECK:        %[[NEXT:.*]] = tile.addptr %[[B]], %[[STEP:.*]] : !tile.ptr<f16>, i32
// CHECK-NEXT:   scf.yield %[[NEXT]] : !tile.ptr<f16>
// CHECK:      %[[S2:.*]] = tile.splat %[[LAST]]
// CHECK-NEXT: %[[P2:.*]] = tile.addptr %[[S2]], %[[OFFS]]
// CHECK:      tile.store %[[P2]]
func.func @carried(%k: !tile.ptr<f16>, %skn: i32, %skk: i32, %off: i32, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %rd = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 32 : tensor<32xi32>
  %d = tile.expand_dims %rd {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %nn = tile.expand_dims %rn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %skks = tile.splat %skk : tensor<64x1xi32>
  %skns = tile.splat %skn : tensor<1x32xi32>
  %od = arith.muli %d, %skks : tensor<64x1xi32>
  %on = arith.muli %nn, %skns : tensor<1x32xi32>
  %base = tile.splat %k : tensor<64x1x!tile.ptr<f16>>
  %offs = tile.splat %off : tensor<64x1xi32>
  %moved = tile.addptr %base, %offs : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %rows = tile.addptr %moved, %od : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %wide = tile.broadcast %rows : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %onb = tile.broadcast %on : tensor<1x32xi32> -> tensor<64x32xi32>
  %ptrs = tile.addptr %wide, %onb : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.muli %skn, %c64 : i32
  %steps = tile.splat %step : tensor<64x32xi32>
  %last = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptrs) -> (tensor<64x32x!tile.ptr<f16>>) : i32 {
    %x = tile.load %p : tensor<64x32x!tile.ptr<f16>>
    tile.store %p, %x : tensor<64x32x!tile.ptr<f16>>
    %next = tile.addptr %p, %steps : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %next : tensor<64x32x!tile.ptr<f16>>
  }
  %y = tile.load %ptrs : tensor<64x32x!tile.ptr<f16>>
  tile.store %last, %y : tensor<64x32x!tile.ptr<f16>>
  return
}

// -----

// 64-bit offsets would cost as much as the addresses: the loop keeps them.
// So does a block advanced by different amounts per element.
// CHECK-LABEL: func.func @kept
// CHECK:      scf.for {{.*}} -> (tensor<128x!tile.ptr<f32>>)
// CHECK:      scf.for {{.*}} -> (tensor<128x!tile.ptr<f32>>)
func.func @kept(%p: !tile.ptr<f32>, %s: i64, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %r64 = arith.extsi %r : tensor<128xi32> to tensor<128xi64>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %wide = tile.addptr %ps, %r64 : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  %ss = tile.splat %s : tensor<128xi64>
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%q = %wide) -> (tensor<128x!tile.ptr<f32>>) : i32 {
    %x = tile.load %q : tensor<128x!tile.ptr<f32>>
    tile.store %q, %x : tensor<128x!tile.ptr<f32>>
    %next = tile.addptr %q, %ss : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
    scf.yield %next : tensor<128x!tile.ptr<f32>>
  }
  %narrow = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%q = %narrow) -> (tensor<128x!tile.ptr<f32>>) : i32 {
    %x = tile.load %q : tensor<128x!tile.ptr<f32>>
    tile.store %q, %x : tensor<128x!tile.ptr<f32>>
    %next = tile.addptr %q, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    scf.yield %next : tensor<128x!tile.ptr<f32>>
  }
  return
}

// -----

// A block made before the loop and moved in it by a uniform amount, not
// carried (SGLang's prefill attention: `k_ptrs + (start + start_n) *
// stride`): the amount moves the base inside the loop, and the block is
// rebuilt from it and the 32-bit offsets, so no 64-bit address per element
// lives through the loop.
// CHECK-LABEL: func.func @moved_in_loop
// CHECK:      %[[OFFS:.*]] = tile.broadcast %{{.*}} : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK:      scf.for %[[I:[^ ]*]] =
// CHECK:        %[[AMOUNT:.*]] = arith.muli %[[I]], %arg1 : i32
// CHECK-NEXT:   %[[B:.*]] = tile.addptr %arg0, %[[AMOUNT]] : !tile.ptr<f16>, i32
// CHECK-NEXT:   %[[S:.*]] = tile.splat %[[B]] : tensor<64x32x!tile.ptr<f16>>
// CHECK-NEXT:   %[[P:.*]] = tile.addptr %[[S]], %[[OFFS]]
// CHECK-NEXT:   tile.load %[[P]]
// A block of 64-bit offsets is left as it is.
// CHECK-LABEL: func.func @wide_offsets
// CHECK:      scf.for
// CHECK-NEXT:   arith.muli
// CHECK-NEXT:   tile.splat %{{.*}} : tensor<64x32xi32>
// CHECK-NEXT:   tile.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
func.func @moved_in_loop(%k: !tile.ptr<f16>, %s: i32, %n: i32) -> tensor<64x32xf16> attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %rd = tile.make_range 0 to 64 : tensor<64xi32>
  %d = tile.expand_dims %rd {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %db = tile.broadcast %d : tensor<64x1xi32> -> tensor<64x32xi32>
  %base = tile.splat %k : tensor<64x32x!tile.ptr<f16>>
  %ptrs = tile.addptr %base, %db : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x32xf16>) : i32 {
    %amount = arith.muli %i, %s : i32
    %sp = tile.splat %amount : tensor<64x32xi32>
    %p = tile.addptr %ptrs, %sp : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %p : tensor<64x32x!tile.ptr<f16>>
    %y = arith.addf %acc, %x : tensor<64x32xf16>
    scf.yield %y : tensor<64x32xf16>
  }
  return %r : tensor<64x32xf16>
}

func.func @wide_offsets(%k: !tile.ptr<f16>, %s: i32, %n: i32, %o: tensor<64x32xi64>) -> tensor<64x32xf16> attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %base = tile.splat %k : tensor<64x32x!tile.ptr<f16>>
  %ptrs = tile.addptr %base, %o : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi64>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x32xf16>) : i32 {
    %amount = arith.muli %i, %s : i32
    %sp = tile.splat %amount : tensor<64x32xi32>
    %p = tile.addptr %ptrs, %sp : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %p : tensor<64x32x!tile.ptr<f16>>
    %y = arith.addf %acc, %x : tensor<64x32xf16>
    scf.yield %y : tensor<64x32xf16>
  }
  return %r : tensor<64x32xf16>
}
