//===- DType.h - Element types of the .tile language ------------*- C++ -*-===//

#ifndef TILE_FRONTEND_DTYPE_H
#define TILE_FRONTEND_DTYPE_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace tilec {

/// Scalar element types. Unsigned types are distinct here (they change
/// division, comparison and extension) though MLIR integers are signless.
/// FP8E4M3 is Triton's float8e4nv (e4m3, no infinities), FP8E5M2 its
/// float8e5 (e5m2, IEEE-like).
// clang-format off
enum class ScalarType {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64,
  FP8E4M3, FP8E5M2,
};
// clang-format on

bool isFloat(ScalarType t);
bool isInteger(ScalarType t); // includes i1
bool isUnsigned(ScalarType t);
/// fp8e4nv or fp8e5: storage and dot operands only; arithmetic on them
/// is carried out in fp32.
bool isFloat8(ScalarType t);
unsigned getBitWidth(ScalarType t);

/// Canonical short name: "fp16", "i32", "u8", "i1", ...
llvm::StringRef getName(ScalarType t);

/// Parse a type name: short names (`fp16`, `i32`) and Triton's long names
/// (`float16`, `int32`, `bfloat16`, `uint8`, `int1`).
std::optional<ScalarType> parseScalarType(llvm::StringRef name);

} // namespace tilec

#endif // TILE_FRONTEND_DTYPE_H
