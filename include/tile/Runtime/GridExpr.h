//===- GridExpr.h - Launch-grid expressions of the metadata -----*- C++ -*-===//
//
// The metadata's grid is three expressions over the kernel's integer
// arguments ("cdiv(M, 128) * cdiv(N, 256)"): integers, parameter names,
// + - * // % (Python floor semantics), parentheses, cdiv, min and max.
// Parsed once when a kernel is loaded; evaluated on every launch.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_GRIDEXPR_H
#define TILE_RUNTIME_GRIDEXPR_H

#include "tile/Runtime/JIT.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tile {

class GridExpr {
public:
  /// Parse `text`; names resolve to indices into the argument values by
  /// `lookup` (which returns -1 for an unknown name).
  static Expected<GridExpr>
  parse(const std::string &text,
        const std::function<int(const std::string &)> &lookup);

  /// The value for the given argument values; an error on division by zero.
  Expected<int64_t> evaluate(const int64_t *values) const;
  Expected<int64_t> evaluate(const std::vector<int64_t> &values) const {
    return evaluate(values.data());
  }

  struct Node;

private:
  std::shared_ptr<const Node> root;
};

} // namespace tile

#endif // TILE_RUNTIME_GRIDEXPR_H
