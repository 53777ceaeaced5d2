// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @unknown() {
  // expected-error @+1 {{reads globaltimer or smid, not 'clock'}}
  %0 = tile.special_register "clock" : i64
  return
}

// -----

func.func @width() {
  // expected-error @+1 {{smid is i32}}
  %0 = tile.special_register "smid" : i64
  return
}
