//===- NumPy.h - Reading and writing .npy files -----------------*- C++ -*-===//

#ifndef TILE_INTERPRETER_NUMPY_H
#define TILE_INTERPRETER_NUMPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

struct NpyArray {
  std::string descr; // e.g. "<f2"
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // C order
};

/// Read a .npy file (format 1.0-3.0, C order, little-endian).
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Write a .npy file (format 1.0).
llvm::Error writeNpy(llvm::StringRef path, llvm::StringRef descr,
                     llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<uint8_t> data);

/// The .npy descr of a .tile element type name ("fp16" -> "<f2", "bf16" ->
/// "<u2", "i1" -> "|b1", ...); empty for unknown names.
std::string npyDescr(llvm::StringRef dtype);

/// Whether `descr` read from a file denotes the same layout as `expected`
/// (NumPy writes "|i1" for "<i1").
bool npyDescrMatches(llvm::StringRef descr, llvm::StringRef expected);

} // namespace tilec

#endif // TILE_INTERPRETER_NUMPY_H
