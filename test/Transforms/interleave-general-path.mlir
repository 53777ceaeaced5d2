// RUN: tile-opt %s --split-input-file --tilegpu-interleave-general-path="group-size=1" | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-interleave-general-path | FileCheck %s --check-prefix=GROUP
// RUN: tile-opt %s --split-input-file --tilegpu-interleave-general-path="max-loads=1" | FileCheck %s --check-prefix=MAXLOADS
// In the general path (the else region of a versioned kernel's scf.if),
// each store comes right after the loads and arithmetic it needs; the fast
// path is left as it is. With the default group size the two stores of a
// group share one run of loads.

// CHECK-LABEL: func.func @two_elements
// The fast path keeps its order.
// CHECK:       "ld.fast $0, [ $1 + 0 ];"
// CHECK-NEXT:  "ld.fast $0, [ $1 + 4 ];"
// CHECK:       } else {
// CHECK-NEXT:    %[[A0:.*]] = llvm.inline_asm {{.*}} "ld.a $0, [ $1 + 0 ];"
// CHECK-NEXT:    %[[B0:.*]] = llvm.inline_asm {{.*}} "ld.b $0, [ $1 + 0 ];"
// CHECK-NEXT:    %[[S0:.*]] = arith.addi %[[A0]], %[[B0]]
// CHECK-NEXT:    llvm.inline_asm {{.*}} "st.y [ $0 + 0 ], $1;", "l,r" %{{.*}}, %[[S0]]
// CHECK-NEXT:    %[[A1:.*]] = llvm.inline_asm {{.*}} "ld.a $0, [ $1 + 4 ];"
// CHECK-NEXT:    %[[B1:.*]] = llvm.inline_asm {{.*}} "ld.b $0, [ $1 + 4 ];"
// CHECK-NEXT:    %[[S1:.*]] = arith.addi %[[A1]], %[[B1]]
// CHECK-NEXT:    llvm.inline_asm {{.*}} "st.y [ $0 + 4 ], $1;", "l,r" %{{.*}}, %[[S1]]
// CHECK-NEXT:  } {tile.versioned}

// GROUP-LABEL: func.func @two_elements
// GROUP:       } else {
// GROUP-NEXT:    "ld.a $0, [ $1 + 0 ];"
// GROUP-NEXT:    "ld.a $0, [ $1 + 4 ];"
// GROUP-NEXT:    "ld.b $0, [ $1 + 0 ];"
// GROUP-NEXT:    "ld.b $0, [ $1 + 4 ];"
// GROUP-NEXT:    arith.addi
// GROUP-NEXT:    "st.y [ $0 + 0 ], $1;"
// GROUP-NEXT:    arith.addi
// GROUP-NEXT:    "st.y [ $0 + 4 ], $1;"
func.func @two_elements(%c: i1, %pa: i64, %pb: i64, %py: i64) {
  scf.if %c {
    %f0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.fast $0, [ $1 + 0 ];", "=r,l" %pa : (i64) -> i32
    %f1 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.fast $0, [ $1 + 4 ];", "=r,l" %pa : (i64) -> i32
    %s = arith.addi %f0, %f1 : i32
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "st.fast [ $0 + 0 ], $1;", "l,r" %py, %s : (i64, i32) -> ()
  } else {
    %a0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.a $0, [ $1 + 0 ];", "=r,l" %pa : (i64) -> i32
    %a1 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.a $0, [ $1 + 4 ];", "=r,l" %pa : (i64) -> i32
    %b0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.b $0, [ $1 + 0 ];", "=r,l" %pb : (i64) -> i32
    %b1 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.b $0, [ $1 + 4 ];", "=r,l" %pb : (i64) -> i32
    %s0 = arith.addi %a0, %b0 : i32
    %s1 = arith.addi %a1, %b1 : i32
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "st.y [ $0 + 0 ], $1;", "l,r" %py, %s0 : (i64, i32) -> ()
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "st.y [ $0 + 4 ], $1;", "l,r" %py, %s1 : (i64, i32) -> ()
  } {tile.versioned}
  return
}

// -----

// A load keeps its place before a store that may touch the same element:
// the same registers of the same tile (a swap), or a tile of another shape
// or layout. Stores keep their order, and an op with other side effects
// (the barrier) orders everything around it.
// CHECK-LABEL: func.func @ordered
// CHECK:       } else {
// CHECK-NEXT:    "ld.a $0, [ $1 + 0 ];"
// CHECK-NEXT:    "ld.b $0, [ $1 + 0 ];"
// CHECK-NEXT:    "st.a [ $0 + 0 ], $1;"
// CHECK-NEXT:    "st.b [ $0 + 0 ], $1;"
// CHECK-NEXT:    "ld.other $0, [ $1 + 8 ];"
// CHECK-NEXT:    "ld.c $0, [ $1 + 4 ];"
// CHECK-NEXT:    "st.c [ $0 + 4 ], $1;"
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    "st.other [ $0 + 8 ], $1;"
func.func @ordered(%c: i1, %pa: i64, %pb: i64) {
  scf.if %c {
  } else {
    %a = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.a $0, [ $1 + 0 ];", "=r,l" %pa : (i64) -> i32
    %b = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.b $0, [ $1 + 0 ];", "=r,l" %pb : (i64) -> i32
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "st.a [ $0 + 0 ], $1;", "l,r" %pa, %b : (i64, i32) -> ()
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "st.b [ $0 + 0 ], $1;", "l,r" %pb, %a : (i64, i32) -> ()
    %o = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<32x2xi1>, 1, 1]} "ld.other $0, [ $1 + 8 ];", "=r,l" %pa : (i64) -> i32
    %x = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.c $0, [ $1 + 4 ];", "=r,l" %pa : (i64) -> i32
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "st.c [ $0 + 4 ], $1;", "l,r" %pb, %x : (i64, i32) -> ()
    gpu.barrier
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<32x2xi1>, 1, 1]} "st.other [ $0 + 8 ], $1;", "l,r" %pb, %o : (i64, i32) -> ()
  } {tile.versioned}
  return
}

// -----

// Without the versioned attribute nothing moves.
// CHECK-LABEL: func.func @not_versioned
// CHECK:       "ld.a $0, [ $1 + 0 ];"
// CHECK-NEXT:  "ld.a $0, [ $1 + 4 ];"
// CHECK-NEXT:  "st.y [ $0 + 0 ], $1;"
func.func @not_versioned(%c: i1, %pa: i64, %py: i64) {
  scf.if %c {
  } else {
    %a0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.a $0, [ $1 + 0 ];", "=r,l" %pa : (i64) -> i32
    %a1 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.a $0, [ $1 + 4 ];", "=r,l" %pa : (i64) -> i32
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "st.y [ $0 + 0 ], $1;", "l,r" %py, %a0 : (i64, i32) -> ()
    llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "st.y [ $0 + 4 ], $1;", "l,r" %py, %a1 : (i64, i32) -> ()
  }
  return
}

// -----

// A tile loaded from global memory and stored to the lowering's own shared
// buffer (local_alloc): the barrier and fence marked tilegpu.shared_only
// order shared memory only, so the global loads move past the first
// barrier and each shared store follows its own load; the shared stores
// keep their order and stay between the barriers. The unhoisted %tid.x
// read orders nothing.
// CHECK-LABEL: func.func @shared_staging
// CHECK:       } else {
// CHECK-NEXT:    gpu.barrier {tilegpu.shared_only}
// CHECK-NEXT:    %[[L0:.*]] = llvm.inline_asm {{.*}} "ld.a $0, [ $1 + 0 ];"
// CHECK-NEXT:    llvm.inline_asm {{.*}}tilegpu.unhoisted_read
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    llvm.store %[[L0]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT:    %[[L1:.*]] = llvm.inline_asm {{.*}} "ld.a $0, [ $1 + 4 ];"
// CHECK:         llvm.store %[[L1]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.fence.proxy {{.*}}tilegpu.shared_only
// CHECK-NEXT:    gpu.barrier {tilegpu.shared_only}
// An unmarked barrier (tl.debug_barrier) still orders the global loads:
// the load before it stays there, away from its store.
// CHECK-NEXT:    "ld.b $0, [ $1 + 0 ];"
// CHECK-NEXT:    gpu.barrier{{$}}
// CHECK-NEXT:    llvm.store
// With the default group (8 roots, 32 loads) both loads come first; with
// max-loads=1 each group holds one store, as with group-size=1.
// GROUP-LABEL: func.func @shared_staging
// GROUP:       } else {
// GROUP-NEXT:    gpu.barrier {tilegpu.shared_only}
// GROUP-NEXT:    "ld.a $0, [ $1 + 0 ];"
// GROUP-NEXT:    "ld.a $0, [ $1 + 4 ];"
// MAXLOADS-LABEL: func.func @shared_staging
// MAXLOADS:       } else {
// MAXLOADS-NEXT:    gpu.barrier {tilegpu.shared_only}
// MAXLOADS-NEXT:    "ld.a $0, [ $1 + 0 ];"
// MAXLOADS-NOT:     "ld.a $0, [ $1 + 4 ];"
// MAXLOADS:         llvm.store
// MAXLOADS-NEXT:    "ld.a $0, [ $1 + 4 ];"
func.func @shared_staging(%c: i1, %pa: i64, %pb: i64, %smem: !llvm.ptr<3>) {
  scf.if %c {
  } else {
    %a0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.a $0, [ $1 + 0 ];", "=r,l" %pa : (i64) -> i32
    %a1 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 1, 1]} "ld.a $0, [ $1 + 4 ];", "=r,l" %pa : (i64) -> i32
    gpu.barrier {tilegpu.shared_only}
    %t = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.unhoisted_read} "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %o0 = llvm.getelementptr %smem[%t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    llvm.store %a0, %o0 : i32, !llvm.ptr<3>
    %c4 = arith.constant 4 : i32
    %t4 = arith.addi %t, %c4 : i32
    %o1 = llvm.getelementptr %smem[%t4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    llvm.store %a1, %o1 : i32, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>, tilegpu.shared_only}
    gpu.barrier {tilegpu.shared_only}
    %b0 = llvm.inline_asm has_side_effects asm_dialect = att {tilegpu.element_access = [tensor<64xi1>, 0, 1]} "ld.b $0, [ $1 + 0 ];", "=r,l" %pb : (i64) -> i32
    gpu.barrier
    llvm.store %b0, %o0 : i32, !llvm.ptr<3>
  } {tile.versioned}
  return
}
