// RUN: tile-opt %s --split-input-file --tilegpu-warpgroup-turns | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-warpgroup-turns=enabled=false | FileCheck %s --check-prefix=OFF
// In a program of two or more warpgroups, the synchronous dots of a loop
// that holds at least two (attention's Q K^T and P V) take turns: each
// gets `turns` = the number of warpgroups, the loop is preceded by
// warpgroup_turns_begin and followed by warpgroup_turns_end. Asynchronous
// dots, loops with one dot, dots of nested loops and programs of one
// warpgroup are left alone.

#mma = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>

// CHECK-LABEL: func.func @attention_loop
// CHECK:       tilegpu.warpgroup_turns_begin 2
// CHECK-NEXT:  scf.for
// CHECK:         tilegpu.warpgroup_dot {{.*}} {turns = 2 : i32}
// CHECK:         tilegpu.warpgroup_dot {{.*}} {turns = 2 : i32}
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  tilegpu.warpgroup_turns_end 2
// CHECK-NEXT:  return
// OFF-LABEL:   func.func @attention_loop
// OFF-NOT:     turns
// OFF:         return
func.func @attention_loop(%q: !tilegpu.memdesc<128x64xf16, #s>,
                          %k: !tilegpu.memdesc<64x64xf16, #s>,
                          %v: !tilegpu.memdesc<64x64xf16, #s>, %n: i32)
    -> tensor<128x64xf32, #mma> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
    %s = tilegpu.warpgroup_dot %q, %k, %zero : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %e = math.exp2 %s : tensor<128x64xf32, #mma>
    %h = arith.truncf %e : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %p = tilegpu.convert_layout %h : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #dotA>
    %d = tilegpu.warpgroup_dot %p, %v, %acc : tensor<128x64xf16, #dotA>, !tilegpu.memdesc<64x64xf16, #s>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    scf.yield %d : tensor<128x64xf32, #mma>
  }
  return %r : tensor<128x64xf32, #mma>
}

// -----

// One warpgroup: nothing to take turns with.
#mma4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#s4 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @one_warpgroup
// CHECK-NOT:   turns
// CHECK:       return
func.func @one_warpgroup(%q: !tilegpu.memdesc<64x64xf16, #s4>,
                         %k: !tilegpu.memdesc<64x64xf16, #s4>, %n: i32)
    -> tensor<64x64xf32, #mma4> attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma4>) : i32 {
    %s = tilegpu.warpgroup_dot %q, %k, %acc : !tilegpu.memdesc<64x64xf16, #s4>, !tilegpu.memdesc<64x64xf16, #s4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    %d = tilegpu.warpgroup_dot %q, %k, %s : !tilegpu.memdesc<64x64xf16, #s4>, !tilegpu.memdesc<64x64xf16, #s4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    scf.yield %d : tensor<64x64xf32, #mma4>
  }
  return %r : tensor<64x64xf32, #mma4>
}

// -----

// The matmul's k-loop: one dot, in flight across iterations; and a loop
// whose two dots are in a nested loop, which takes the turns itself
// (four warpgroups: 16 warps).
#mma16 = #tilegpu.mma<version = 3, warpsPerCTA = [16, 1], instrShape = [16, 64]>
#s16 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @async_and_nested
// CHECK:       scf.for
// CHECK-NOT:     turns
// CHECK:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK:       }
// CHECK-NOT:   tilegpu.warpgroup_turns_end
// CHECK:       scf.for
// CHECK-NEXT:    tilegpu.warpgroup_turns_begin 4
// CHECK-NEXT:    scf.for
// CHECK:           tilegpu.warpgroup_dot {{.*}} {turns = 4 : i32}
// CHECK:           tilegpu.warpgroup_dot {{.*}} {turns = 4 : i32}
// CHECK:         }
// CHECK-NEXT:    tilegpu.warpgroup_turns_end 4
// CHECK:       return
func.func @async_and_nested(%a: !tilegpu.memdesc<256x64xf16, #s16>,
                            %b: !tilegpu.memdesc<64x64xf16, #s16>, %n: i32)
    -> tensor<256x64xf32, #mma16> attributes {tilegpu.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<256x64xf32, #mma16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<256x64xf32, #mma16>) : i32 {
    %d = tilegpu.warpgroup_dot %a, %b, %acc {isAsync} : !tilegpu.memdesc<256x64xf16, #s16>, !tilegpu.memdesc<64x64xf16, #s16>, tensor<256x64xf32, #mma16> -> tensor<256x64xf32, #mma16>
    scf.yield %d : tensor<256x64xf32, #mma16>
  }
  %w = tilegpu.warpgroup_dot_wait %r {pendings = 0 : i32} : tensor<256x64xf32, #mma16> -> tensor<256x64xf32, #mma16>
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w) -> (tensor<256x64xf32, #mma16>) : i32 {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%x = %acc) -> (tensor<256x64xf32, #mma16>) : i32 {
      %s = tilegpu.warpgroup_dot %a, %b, %x : !tilegpu.memdesc<256x64xf16, #s16>, !tilegpu.memdesc<64x64xf16, #s16>, tensor<256x64xf32, #mma16> -> tensor<256x64xf32, #mma16>
      %t = tilegpu.warpgroup_dot %a, %b, %s : !tilegpu.memdesc<256x64xf16, #s16>, !tilegpu.memdesc<64x64xf16, #s16>, tensor<256x64xf32, #mma16> -> tensor<256x64xf32, #mma16>
      scf.yield %t : tensor<256x64xf32, #mma16>
    }
    scf.yield %in : tensor<256x64xf32, #mma16>
  }
  return %o : tensor<256x64xf32, #mma16>
}

// -----

// A loop with two dots around a loop with two dots: only the inner one
// takes turns (the warpgroup 1 arrival of a nested begin would meet the
// enclosing one's and complete warpgroup 0's barrier without it).
#mmaN = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sN = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @nested_both
// CHECK:       scf.for
// CHECK-NEXT:    tilegpu.warpgroup_dot
// CHECK-NOT:     turns =
// CHECK:         tilegpu.warpgroup_dot
// CHECK-NOT:     turns =
// CHECK:         tilegpu.warpgroup_turns_begin 2
// CHECK-NEXT:    scf.for
// CHECK:           tilegpu.warpgroup_dot {{.*}} {turns = 2 : i32}
// CHECK:           tilegpu.warpgroup_dot {{.*}} {turns = 2 : i32}
// CHECK:         }
// CHECK-NEXT:    tilegpu.warpgroup_turns_end 2
// CHECK-NEXT:    scf.yield
// CHECK:       }
// CHECK-NEXT:  return
func.func @nested_both(%a: !tilegpu.memdesc<128x64xf16, #sN>,
                       %b: !tilegpu.memdesc<64x64xf16, #sN>, %n: i32)
    -> tensor<128x64xf32, #mmaN> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaN>
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaN>) : i32 {
    %s = tilegpu.warpgroup_dot %a, %b, %acc : !tilegpu.memdesc<128x64xf16, #sN>, !tilegpu.memdesc<64x64xf16, #sN>, tensor<128x64xf32, #mmaN> -> tensor<128x64xf32, #mmaN>
    %t = tilegpu.warpgroup_dot %a, %b, %s : !tilegpu.memdesc<128x64xf16, #sN>, !tilegpu.memdesc<64x64xf16, #sN>, tensor<128x64xf32, #mmaN> -> tensor<128x64xf32, #mmaN>
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%x = %t) -> (tensor<128x64xf32, #mmaN>) : i32 {
      %u = tilegpu.warpgroup_dot %a, %b, %x : !tilegpu.memdesc<128x64xf16, #sN>, !tilegpu.memdesc<64x64xf16, #sN>, tensor<128x64xf32, #mmaN> -> tensor<128x64xf32, #mmaN>
      %v = tilegpu.warpgroup_dot %a, %b, %u : !tilegpu.memdesc<128x64xf16, #sN>, !tilegpu.memdesc<64x64xf16, #sN>, tensor<128x64xf32, #mmaN> -> tensor<128x64xf32, #mmaN>
      scf.yield %v : tensor<128x64xf32, #mmaN>
    }
    scf.yield %in : tensor<128x64xf32, #mmaN>
  }
  return %o : tensor<128x64xf32, #mmaN>
}
