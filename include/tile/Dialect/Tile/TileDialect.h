//===- TileDialect.h - Tile dialect -----------------------------*- C++ -*-===//
//
// The tensor-level dialect of the .tile language.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TILEDIALECT_H
#define TILE_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/TileDialect.h.inc"
#include "tile/Dialect/Tile/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/TileTypes.h.inc"

namespace mlir::tile {

/// On a kernel compiled for debugging (`@jit(debug=True)`): it keeps its
/// device_asserts on the GPU (tile-strip-device-asserts).
inline constexpr llvm::StringLiteral kDebugAttrName = "tile.debug";

/// Whether `t` is one of the language's fp8 element types (f8E4M3FN,
/// Triton's float8e4nv; f8E5M2, its float8e5).
inline bool isFloat8Type(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

/// For a pointer (or block of pointers) type, the pointee type with the same
/// shape and encoding; other types are returned unchanged.
Type getPointeeOrSameShape(Type type);

/// i1, or a tensor of i1 with the shape and encoding of `type`.
Type getI1SameShape(Type type);

/// A tensor with `type`'s shape and encoding holding `elementType`, or
/// `elementType` itself when `type` is a scalar.
Type getSameShape(Type type, Type elementType);

/// Whether the TMA unit copies tiles of `elementType` through the tensor
/// maps `tile.make_tensor_map` describes: fp16, bf16, fp32 and int8.
inline bool isTMAElementType(Type elementType) {
  return elementType.isF16() || elementType.isBF16() || elementType.isF32() ||
         elementType.isInteger(8);
}

} // namespace mlir::tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/TileOps.h.inc"

namespace mlir::tile {

/// Whether every use of `v` is as operand A or B of a dot (of `dot`, where
/// given), directly or through transposes: a tile that is only ever a
/// dot's staged operand.
bool usedOnlyAsDotOperand(Value v, DotOp dot = DotOp());

/// Whether the programs of `kernel` may communicate (atomics, volatile
/// loads, inline assembly): a spin on a flag another program sets, whose
/// order of execution is then theirs to keep.
bool programsMayCommunicate(Operation *kernel);

/// Why `constraints` (LLVM's inline-asm constraint list) do not fit an
/// inline_asm_elementwise of `results` results and `args` arguments: the
/// outputs (`=...`) first, one per result, then one input per argument,
/// clobbers (`~{...}`) anywhere; in-out (`+...`) entries are not taken.
/// std::nullopt where they fit.
std::optional<std::string> checkInlineAsmConstraints(StringRef constraints,
                                                     unsigned results,
                                                     unsigned args);
/// Why the asm `text` refers to an operand it does not have (`$N` or
/// `${N:...}` with N at least `operands`) or has a `$` LLVM would reject;
/// std::nullopt where it does not.
std::optional<std::string> checkInlineAsmText(StringRef text,
                                              unsigned operands);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TILEDIALECT_H
