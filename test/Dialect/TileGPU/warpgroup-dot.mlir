// RUN: tile-opt %s | tile-opt | FileCheck %s
// Hopper's wgmma at the tilegpu level: a version-3 #mma accumulator (warps
// along M in groups of 4, each warp's tile 16 x instrN), operands in shared
// memory stored as lines of 32/64/128 bytes (lineElems), an asynchronous
// form and the wait that ends it.

#sa = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sb = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]>

// CHECK-LABEL: func.func @sync_and_async
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc<128x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>, !tilegpu.memdesc<64x256xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>, tensor<128x256xf32, #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]>> -> tensor<128x256xf32
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK: tilegpu.warpgroup_dot_wait %[[D]] {pendings = 0 : i32}
func.func @sync_and_async(%a: !tilegpu.memdesc<128x64xf16, #sa>, %b: !tilegpu.memdesc<64x256xf16, #sb>,
                          %c: tensor<128x256xf32, #mma3>) -> tensor<128x256xf32, #mma3> {
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<128x64xf16, #sa>, !tilegpu.memdesc<64x256xf16, #sb>, tensor<128x256xf32, #mma3> -> tensor<128x256xf32, #mma3>
  %e = tilegpu.warpgroup_dot %a, %b, %d {isAsync} : !tilegpu.memdesc<128x64xf16, #sa>, !tilegpu.memdesc<64x256xf16, #sb>, tensor<128x256xf32, #mma3> -> tensor<128x256xf32, #mma3>
  %f = tilegpu.warpgroup_dot_wait %e {pendings = 0 : i32} : tensor<128x256xf32, #mma3> -> tensor<128x256xf32, #mma3>
  return %f : tensor<128x256xf32, #mma3>
}

// Turns: the dot's `turns`, and the ops around the dots that take them.
// CHECK-LABEL: func.func @turns
// CHECK: tilegpu.warpgroup_turns_begin 2
// CHECK: tilegpu.warpgroup_dot {{.*}} {turns = 2 : i32}
// CHECK: tilegpu.warpgroup_turns_end 2
func.func @turns(%a: !tilegpu.memdesc<128x64xf16, #sa>, %b: !tilegpu.memdesc<64x256xf16, #sb>,
                 %c: tensor<128x256xf32, #mma3>) -> tensor<128x256xf32, #mma3> {
  tilegpu.warpgroup_turns_begin 2
  %d = tilegpu.warpgroup_dot %a, %b, %c {turns = 2 : i32} : !tilegpu.memdesc<128x64xf16, #sa>, !tilegpu.memdesc<64x256xf16, #sb>, tensor<128x256xf32, #mma3> -> tensor<128x256xf32, #mma3>
  tilegpu.warpgroup_turns_end 2
  return %d : tensor<128x256xf32, #mma3>
}

// The plain swizzle prints without lineElems (0: whole rows).
// CHECK-LABEL: func.func private @plain
// CHECK-SAME: #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
func.func private @plain() -> !tilegpu.memdesc<64x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 0>>
