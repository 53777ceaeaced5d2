// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the tile dialect, one case per split.

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = tile.program_id 3 : i32
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = tile.num_programs -1 : i32
  return
}

//===----------------------------------------------------------------------===//
// make_range
//===----------------------------------------------------------------------===//

// -----

func.func @make_range_not_pow2() {
  // expected-error @+1 {{range length 12 is not a power of two}}
  %0 = tile.make_range 0 to 12 : tensor<12xi32>
  return
}

// -----

func.func @make_range_wrong_size() {
  // expected-error @+1 {{result has 32 elements but the range has 64}}
  %0 = tile.make_range 0 to 64 : tensor<32xi32>
  return
}

// -----

func.func @make_range_empty() {
  // expected-error @+1 {{end must be greater than start}}
  %0 = tile.make_range 16 to 16 : tensor<1xi32>
  return
}

// -----

func.func @make_range_reversed() {
  // expected-error @+1 {{end must be greater than start}}
  %0 = tile.make_range 32 to 0 : tensor<32xi32>
  return
}

// -----

func.func @make_range_rank() {
  // expected-error @+1 {{result must be a 1-D tensor}}
  %0 = tile.make_range 0 to 16 : tensor<4x4xi32>
  return
}

// -----

func.func @make_range_element_type() {
  // expected-error @+1 {{must be ranked tensor of 32-bit signless integer values}}
  %0 = tile.make_range 0 to 16 : tensor<16xi64>
  return
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// -----

func.func @splat_type(%x: f32) {
  // expected-error @+1 {{source is the result element type}}
  %0 = "tile.splat"(%x) : (f32) -> tensor<16xi32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{source rank 1 differs from result rank 2}}
  %0 = tile.broadcast %x : tensor<16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{cannot broadcast dimension of size 2 to 4}}
  %0 = tile.broadcast %x : tensor<2x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<1x16xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tile.broadcast %x : tensor<1x16xf32> -> tensor<4x16xf16>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{axis 2 out of range for rank 1}}
  %0 = tile.expand_dims %x {axis = 2 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @expand_dims_negative_axis(%x: tensor<16xf32>) {
  // The message prints the axis as unsigned; only check the rejection.
  // expected-error @+1 {{out of range for rank 1}}
  %0 = tile.expand_dims %x {axis = -1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{result shape does not insert a unit dimension at axis 0}}
  %0 = tile.expand_dims %x {axis = 0 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{source and result have different element counts}}
  %0 = tile.reshape %x : tensor<4x16xf32> -> tensor<32xf32>
  return
}

// -----

func.func @trans_order_size(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{order has 3 entries for a rank-2 source}}
  %0 = tile.trans %x, [2, 1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @trans_not_permutation(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{order is not a permutation}}
  %0 = tile.trans %x, [1, 1] : tensor<4x16xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @trans_out_of_range(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{order is not a permutation}}
  %0 = tile.trans %x, [2, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{result shape is not the permuted source shape}}
  %0 = tile.trans %x, [1, 0] : tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{pointee must be an integer or float type, got 'tensor<4xf32>'}}
func.func @pointer_to_tensor(%p: !tile.ptr<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{pointee must be an integer or float type, got '!tile.ptr<f32>'}}
func.func @pointer_to_pointer(%p: !tile.ptr<!tile.ptr<f32>>) {
  return
}

// -----

func.func @ptr_to_int_of_block(%p: tensor<4x!tile.ptr<f32>>) {
  // expected-error @+1 {{pointers and addresses must have one shape}}
  %0 = "tile.ptr_to_int"(%p) : (tensor<4x!tile.ptr<f32>>) -> i64
  return
}

// -----

func.func @ptr_to_int_i32(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{addresses are i64}}
  %0 = tile.ptr_to_int %p : !tile.ptr<f32> -> i32
  return
}

// -----

func.func @int_to_ptr_shape(%a: tensor<4xi64>) {
  // expected-error @+1 {{pointers and addresses must have one shape}}
  %0 = tile.int_to_ptr %a : tensor<4xi64> -> tensor<8x!tile.ptr<f16>>
  return
}

// -----

func.func @addptr_shape(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{offset shape must match the pointer shape}}
  %0 = tile.addptr %p, %o : tensor<128x!tile.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @addptr_scalar_tensor(%p: !tile.ptr<f32>, %o: tensor<64xi32>) {
  // expected-error @+1 {{offset shape must match the pointer shape}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, tensor<64xi32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // expected-error @+1 {{'other' requires a mask}}
  %0 = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask is i1 with the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{result is the pointee of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @store_value_type(%p: !tile.ptr<f32>, %v: f16) {
  // expected-error @+1 {{value is the pointee of ptr}}
  "tile.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.ptr<f32>, f16) -> ()
  return
}

// -----

func.func @atomic_bitwise_float(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{float atomics support add, and xchg, max and min on 32- and 64-bit types}}
  %0 = tile.atomic_rmw or, %p, %v : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @atomic_narrow_int(%p: !tile.ptr<i16>, %v: i16) {
  // expected-error @+1 {{atomics on integers narrower than 32 bits}}
  %0 = tile.atomic_rmw add, %p, %v : !tile.ptr<i16>
  return
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

// -----

func.func @make_block_ptr_arity(%p: !tile.ptr<f16>, %n: i64, %o: i32) {
  // expected-error @+1 {{shape, strides and offsets need 2 entries each}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n], [%o, %o] order [1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @make_block_ptr_pointee(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{base pointee type differs from the block's}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order [1, 0] : !tile.ptr<f32> -> !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @make_block_ptr_order_size(%p: !tile.ptr<f16>, %n: i64, %o: i32) {
  // expected-error @+1 {{order has 1 entries for rank 2}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order [0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @make_block_ptr_order_permutation(%p: !tile.ptr<f16>, %n: i64, %o: i32) {
  // expected-error @+1 {{order is not a permutation}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order [0, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @advance_arity(%b: !tile.block_ptr<tensor<16x32xf16>>, %o: i32) {
  // expected-error @+1 {{needs 2 offsets}}
  %0 = tile.advance %b, [%o] : !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @block_load_boundary_range(%b: !tile.block_ptr<tensor<16x32xf16>>) {
  // expected-error @+1 {{boundary_check dimension 2 out of range for rank 2}}
  %0 = tile.block_load %b {boundaryCheck = array<i32: 0, 2>} : !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @block_load_boundary_repeat(%b: !tile.block_ptr<tensor<16x32xf16>>) {
  // expected-error @+1 {{boundary_check repeats dimension 1}}
  %0 = tile.block_load %b {boundaryCheck = array<i32: 1, 1>} : !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @block_store_boundary_range(%b: !tile.block_ptr<tensor<16x32xf16>>, %v: tensor<16x32xf16>) {
  // expected-error @+1 {{boundary_check dimension -1 out of range for rank 2}}
  tile.block_store %b, %v {boundaryCheck = array<i32: -1>} : !tile.block_ptr<tensor<16x32xf16>>
  return
}

// -----

func.func @block_store_value_type(%b: !tile.block_ptr<tensor<16x32xf16>>, %v: tensor<16x32xf32>) {
  // expected-error @+1 {{value is the block of ptr}}
  "tile.block_store"(%b, %v) : (!tile.block_ptr<tensor<16x32xf16>>, tensor<16x32xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

// -----

func.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operands must be 2-D}}
  %0 = tile.dot %a, %b, %c : tensor<16xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_inner(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{inner dimensions differ: 32 vs 16}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator shape must be 16x8}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_element_types(%a: tensor<16x32xf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operand element types differ: 'f16' vs 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
  return
}

// -----

// The two fp8 types mix; fp8 with a 16-bit type does not.
func.func @dot_fp8_with_f16(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operand element types differ: 'f8E4M3FN' vs 'f16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x8xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_fp8_into_bf16(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x8xf8E5M2>, %c: tensor<16x8xbf16>) {
  // expected-error @+1 {{cannot accumulate a product of 'f8E4M3FN' in 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x8xf8E5M2> -> tensor<16x8xbf16>
  return
}

// -----

func.func @dot_float_int_acc(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xi32>) {
  // expected-error @+1 {{cannot accumulate a product of 'f16' in 'i32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xi32>
  return
}

// -----

func.func @dot_int_types(%a: tensor<16x32xi16>, %b: tensor<32x8xi16>, %c: tensor<16x8xi32>) {
  // expected-error @+1 {{cannot accumulate a product of 'i16' in 'i32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xi16> * tensor<32x8xi16> -> tensor<16x8xi32>
  return
}

// -----

func.func @dot_int_acc(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{cannot accumulate a product of 'i8' in 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_result_type(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{all of {c, d} have same type}}
  %0 = "tile.dot"(%a, %b, %c) : (tensor<16x32xf16>, tensor<32x8xf16>, tensor<16x8xf32>) -> tensor<16x8xf16>
  return
}

//===----------------------------------------------------------------------===//
// inline_asm_elementwise
//===----------------------------------------------------------------------===//

// -----

func.func @inline_asm_shapes(%x: tensor<8xf32>) {
  // expected-error @+1 {{operands and results must have one shape}}
  %0 = tile.inline_asm_elementwise "mov.b32 $0, $1;", "=r,r"(%x) {pack = 1 : i32} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @inline_asm_operand(%x: tensor<8xf32>) {
  // expected-error @+1 {{the asm refers to operand $2, but it has 2 ($0 to $1)}}
  %0 = tile.inline_asm_elementwise "mov.b32 $0, $2;", "=r,r"(%x) {pack = 1 : i32} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @inline_asm_constraints(%x: tensor<8xf32>) {
  // expected-error @+1 {{the constraints "=r" name 1 output(s) and 0 input(s), for 1 result(s) and 1 argument(s)}}
  %0 = tile.inline_asm_elementwise "mov.b32 $0, 0;", "=r"(%x) {pack = 1 : i32} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @inline_asm_pack(%x: tensor<8xf16>) {
  // expected-error @+1 {{packs of 4 'f16' do not fit a 32-bit register}}
  %0 = tile.inline_asm_elementwise "mov.b32 $0, $1;", "=r,r"(%x) {pack = 4 : i32} : (tensor<8xf16>) -> tensor<8xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

// -----

func.func @gather_off_axis(%x: tensor<4x8xf32>, %i: tensor<2x4xi32>) {
  // expected-error @+1 {{index and source differ in dimension 1}}
  %0 = tile.gather %x[%i] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x4xi32> -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<8xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{result must have the index's shape and the source's element type}}
  %0 = tile.gather %x[%i] {axis = 0 : i32} : tensor<8xf32>, tensor<4xi32> -> tensor<8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// histogram
//===----------------------------------------------------------------------===//

// -----

func.func @histogram_float(%x: tensor<8xf32>) {
  // expected-error @+1 {{counts a 1-D block of integers}}
  %0 = tile.histogram %x : tensor<8xf32> -> tensor<4xi32>
  return
}

// -----

func.func @histogram_result(%x: tensor<8xi32>) {
  // expected-error @+1 {{result must be a 1-D block of i32 (one per bin)}}
  %0 = tile.histogram %x : tensor<8xi32> -> tensor<4xi64>
  return
}

// -----

func.func @histogram_mask(%x: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{mask must be i1 of the operand's shape}}
  %0 = tile.histogram %x, %m : tensor<8xi32>, tensor<4xi1> -> tensor<4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// -----

func.func @scan_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 out of range for rank 2}}
  %0 = tile.scan %x {axis = 2 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan.return %s : f32
  }
  return
}

// -----

func.func @scan_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{result type differs from its operand's}}
  %0 = tile.scan %x {axis = 0 : i32} : (tensor<8xf32>) -> tensor<8xf16> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan.return %s : f32
  }
  return
}

// -----

func.func @scan_region_types(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region argument types must be the operand element types}}
  %0 = tile.scan %x {axis = 0 : i32} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.scan.return %s : i32
  }
  return
}

// -----

func.func @scan_region_results(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must return 1 values}}
  %0 = tile.scan %x {axis = 0 : i32} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.scan.return %a, %b : f32, f32
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_no_operands() {
  // expected-error @+1 {{needs at least one operand}}
  "tile.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tile.reduce.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 out of range for rank 2}}
  %0 = tile.reduce %x {axis = 2 : i32} : (tensor<4x8xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return
}

// -----

func.func @reduce_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{needs one result per operand}}
  %0:2 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return
}

// -----

func.func @reduce_operand_shapes(%x: tensor<8xf32>, %y: tensor<16xi32>) {
  // expected-error @+1 {{operands must have the same shape}}
  %0:2 = tile.reduce %x, %y {axis = 0 : i32} : (tensor<8xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tile.reduce.return %a, %ai : f32, i32
  }
  return
}

// -----

func.func @reduce_result_element(%x: tensor<8xf32>) {
  // expected-error @+1 {{result element type differs from its operand's}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f16 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result shape must drop the reduced axis}}
  %0 = tile.reduce %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return
}

// -----

func.func @reduce_1d_result_not_scalar(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape must drop the reduced axis}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return
}

// -----

func.func @reduce_region_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region needs 2 arguments}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32):
    tile.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_region_types(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region argument types must be the operand element types}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    tile.reduce.return %s : f16
  }
  return
}

// -----

func.func @reduce_region_return_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must return 1 values}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.reduce.return %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_region_return_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region returns a value of the wrong type}}
  %0 = tile.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %i = arith.fptosi %a : f32 to i32
    tile.reduce.return %i : i32
  }
  return
}

// -----

func.func @reduce_return_parent(%x: f32) {
  // expected-error @+1 {{expects parent op 'tile.reduce'}}
  tile.reduce.return %x : f32
}

//===----------------------------------------------------------------------===//
// hint
//===----------------------------------------------------------------------===//

// -----

func.func @hint_count(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{hint needs 2 values}}
  %0 = tile.hint %x {multipleOf = array<i32: 16>} : tensor<4x8xi32>
  return
}

// -----

func.func @hint_scalar_count(%x: i32) {
  // expected-error @+1 {{hint needs 1 values}}
  %0 = tile.hint %x {maxContiguous = array<i32: 1, 1>} : i32
  return
}

// -----

func.func @hint_positive(%x: tensor<8xi32>) {
  // expected-error @+1 {{hint values must be positive}}
  %0 = tile.hint %x {maxContiguous = array<i32: 0>} : tensor<8xi32>
  return
}

// -----

func.func @hint_negative(%x: tensor<8xi32>) {
  // expected-error @+1 {{hint values must be positive}}
  %0 = tile.hint %x {multipleOf = array<i32: -16>} : tensor<8xi32>
  return
}

// -----

func.func @dot_f64_into_f32(%a: tensor<16x16xf64>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{cannot accumulate a product of 'f64' in 'f32'}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf32>
  return
}

// -----

func.func @float_atomic_max(%p: tensor<16x!tile.ptr<f16>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{float atomics support add, and xchg, max and min on 32- and 64-bit types}}
  %0 = tile.atomic_rmw max, %p, %v : tensor<16x!tile.ptr<f16>>
  return
}

// -----

func.func @f16_atomic_xchg(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error @+1 {{float atomics support add, and xchg, max and min on 32- and 64-bit types}}
  %0 = tile.atomic_rmw xchg, %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @negative_range() -> tensor<8xi32> {
  // A range may start below zero.
  %0 = tile.make_range -4 to 4 : tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @range_wraps() -> tensor<16xi32> {
  // expected-error @+1 {{end must be greater than start}}
  %0 = tile.make_range 2147483640 to -2147483640 : tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @cas_without_cmp(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{a compare value goes with cas, and only with it}}
  %0 = tile.atomic_rmw cas, %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @cmp_without_cas(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{a compare value goes with cas, and only with it}}
  %0 = tile.atomic_rmw add, %p, %v cmp %v : !tile.ptr<i32>
  return
}

// -----

func.func @cas_masked(%p: tensor<16x!tile.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<16xi1>) {
  // expected-error @+1 {{cas takes no mask}}
  %0 = tile.atomic_rmw cas, %p, %v, %m cmp %v : tensor<16x!tile.ptr<i32>>
  return
}

// -----

func.func @cas_narrow(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error @+1 {{cas supports 32- and 64-bit elements}}
  %0 = tile.atomic_rmw cas, %p, %v cmp %v : !tile.ptr<f16>
  return
}

// -----

func.func @tensor_map_rank(%base: !tile.ptr<f16>, %m: i64) {
  // expected-error @+1 {{shape, strides and block_shape need the same length}}
  %0 = tile.make_tensor_map %base, [%m], [%m, %m] block [64, 32] : !tile.ptr<f16>
  return
}

// -----

func.func @tensor_map_box(%base: !tile.ptr<f16>, %m: i64) {
  // expected-error @+1 {{block dimensions but the last must be 1 to 256 elements}}
  %0 = tile.make_tensor_map %base, [%m, %m], [%m, %m] block [512, 32] : !tile.ptr<f16>
  return
}

// -----

func.func @tma_load_coords(%p: tensor<64x32x!tile.ptr<f16>>, %map: !tile.tensormap, %r: i32) {
  // expected-error @+1 {{a tensor map's load is a block with one coordinate per dimension}}
  %0 = tile.load %p tma(%map[%r]) : tensor<64x32x!tile.ptr<f16>>
  return
}

// -----

func.func @tma_coords_without_map(%p: tensor<64x!tile.ptr<f16>>, %r: i32) {
  // expected-error @+1 {{TMA coordinates need a tensor map}}
  %0 = "tile.load"(%p, %r) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 1>}> : (tensor<64x!tile.ptr<f16>>, i32) -> tensor<64xf16>
  return
}

// -----

func.func @map_elementwise_shapes(%a: tensor<16xf32>, %b: tensor<32xf32>) {
  // expected-error @+1 {{operands and results must have one shape}}
  %0 = tile.map_elementwise %a, %b : (tensor<16xf32>, tensor<32xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.map_elementwise.return %x : f32
  }
  return
}

// -----

func.func @map_elementwise_arguments(%a: tensor<16xf32>) {
  // expected-error @+1 {{region argument of type 'i32' for operand elements of type 'f32'}}
  %0 = tile.map_elementwise %a : (tensor<16xf32>) -> tensor<16xi32> {
  ^bb0(%x: i32):
    tile.map_elementwise.return %x : i32
  }
  return
}

// -----

func.func @map_elementwise_returns(%a: tensor<16xf32>) {
  // expected-error @+1 {{region returns 1 values for 2 results packed by 1}}
  %0:2 = tile.map_elementwise %a : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%x: f32):
    tile.map_elementwise.return %x : f32
  }
  return
}

// -----

func.func @map_elementwise_pack_arguments(%a: tensor<16xf32>) {
  // expected-error @+1 {{region takes 1 scalars for 1 operands packed by 2}}
  %0 = tile.map_elementwise %a pack 2 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32):
    tile.map_elementwise.return %x, %x : f32, f32
  }
  return
}

// -----

func.func @map_elementwise_pack_returns(%a: tensor<16xf32>) {
  // expected-error @+1 {{region returns 'i32' for result elements of type 'f32'}}
  %0:2 = tile.map_elementwise %a pack 2 : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%x: f32, %y: f32):
    %i = arith.fptosi %x : f32 to i32
    tile.map_elementwise.return %x, %i, %i, %i : f32, i32, i32, i32
  }
  return
}

// -----

func.func @map_elementwise_pack_zero(%a: tensor<16xf32>) {
  // expected-error @+1 {{pack must be at least 1}}
  %0 = tile.map_elementwise %a pack 0 : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0:
    tile.map_elementwise.return %a : tensor<16xf32>
  }
  return
}

// -----

func.func @float_atomic_umax(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{float atomics support add, and xchg, max and min on 32- and 64-bit types}}
  %0 = tile.atomic_rmw umax, %p, %v : tensor<16x!tile.ptr<f32>>
  return
}
