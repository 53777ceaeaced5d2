//===- Specialization.h - What a call's arguments let the JIT assume -*- C++ -*-===//
//
// Each call's arguments fix the types of unannotated parameters and give
// the facts the compiler specializes on, as Triton does: a pointer aligned
// to 16 bytes, an integer that is a multiple of 16, an integer equal to 1.
// The facts become a --signature string for the compiler and a compact key
// for the caches.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_SPECIALIZATION_H
#define TILE_RUNTIME_SPECIALIZATION_H

#include "tile/Runtime/JIT.h"

#include <optional>
#include <string>
#include <vector>

namespace tile {

/// A run-time parameter as the kernel declares it.
struct DeclaredParam {
  std::string name;
  /// The annotation, when there is one.
  std::optional<DType> type;
  bool isPointer = false;
  /// What the annotation promises (`*fp16:16`, `i32:16`, `i32:1`): calls
  /// must keep the promise.
  unsigned divisibility = 1;
  bool equalsOne = false;
  /// Triton's @jit(do_not_specialize=...): no value facts (1, multiples of
  /// 16, aligned addresses); do_not_specialize_on_alignment: no
  /// divisibility or alignment facts.
  bool specializeValue = true;
  bool specializeAlignment = true;
  /// Read by the kernel's @heuristics (`args['b'] is not None`): a null
  /// pointer is Triton's None and allowed.
  bool mayBeNull = false;
  /// Declared `= None` (a pointer): a launch may leave it out, from the
  /// end of the argument list, and it is passed as a null pointer.
  bool defaultNone = false;
};

/// A run-time parameter as one call specializes it.
struct ParamSpec {
  std::string name;
  DType type = DType::i32;
  bool isPointer = false;
  unsigned divisibility = 1; // 16 or 1
  bool equalsOne = false;
};

/// The specialization of `params` for `args`; an error (naming the
/// argument) when the count, a kind or a declared type does not match.
Expected<std::vector<ParamSpec>> specialize(
    const std::vector<DeclaredParam> &params, const std::vector<Arg> &args);

/// "a_ptr=*fp16:16,M=i32:16,stride=i32:1,..." for tilec's --signature.
std::string signatureString(const std::vector<ParamSpec> &specs);

/// A compact cache key of the specialization.
std::string specializationKey(const std::vector<ParamSpec> &specs);

/// The same key straight from the arguments, for the launch fast path:
/// appends to `key` and returns true when the arguments are valid; false
/// when `specialize` has an error to report.
bool quickSpecializationKey(const std::vector<DeclaredParam> &params,
                            const Arg *args, size_t count, std::string &key);

/// The bytes a scalar argument passes to the kernel for parameter type
/// `type` (fp16/bf16 rounded to nearest even), in an 8-byte slot.
uint64_t scalarBits(const Arg &arg, DType type);

} // namespace tile

#endif // TILE_RUNTIME_SPECIALIZATION_H
