// RUN: tile-opt %s -split-input-file -verify-diagnostics

// convert_layout changes only the layout: shape and element type stay.

func.func @shape(%x: tensor<16x32xf16>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = tilegpu.convert_layout %x : tensor<16x32xf16> -> tensor<32x16xf16>
  return
}

// -----

func.func @element_type(%x: tensor<16x32xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tilegpu.convert_layout %x : tensor<16x32xf16> -> tensor<16x32xf32>
  return
}

// -----

func.func @not_a_tensor(%x: f32) {
  // expected-error @+1 {{'tilegpu.convert_layout' op operand #0 must be ranked tensor}}
  %0 = "tilegpu.convert_layout"(%x) : (f32) -> f32
  return
}
