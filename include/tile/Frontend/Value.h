//===- Value.h - Values during kernel elaboration ---------------*- C++ -*-===//
//
// While MLIRGen walks a kernel it evaluates every expression to a Val: either
// a compile-time value (constexpr int/float/bool/string/dtype/tuple, or a
// reference to a helper, a built-in or the `tl` namespace) or a run-time
// value (an mlir::Value with its .tile type: element dtype, pointer-ness and
// block shape). Constexpr arithmetic folds here, which is how `if` on a
// constexpr compiles only the taken branch.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_VALUE_H
#define TILE_FRONTEND_VALUE_H

#include "tile/Frontend/DType.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tilec {

struct FunctionDef;

/// The .tile type of a run-time value.
struct TileType {
  ScalarType element = ScalarType::I32; // the pointee for pointers
  bool isPointer = false;
  bool isBlockPointer = false; // a make_block_ptr value; shape = block shape
  /// A tensor descriptor (tl.make_tensor_descriptor): a block pointer whose
  /// accesses check every bound; isBlockPointer is set too, so it is never
  /// an operand of arithmetic.
  bool isDescriptor = false;
  bool padWithNan = false;             // a descriptor's padding_option="nan"
  llvm::SmallVector<int64_t, 4> shape; // empty for scalars

  bool isBlock() const { return !shape.empty() && !isBlockPointer; }
  bool isScalar() const { return shape.empty(); }
  TileType withShape(llvm::ArrayRef<int64_t> newShape) const {
    TileType t = *this;
    t.shape.assign(newShape.begin(), newShape.end());
    return t;
  }
  TileType withElement(ScalarType e) const {
    TileType t = *this;
    t.element = e;
    t.isPointer = false;
    return t;
  }
  TileType scalar() const { return withShape({}); }
  bool operator==(const TileType &o) const {
    return element == o.element && isPointer == o.isPointer &&
           isBlockPointer == o.isBlockPointer &&
           isDescriptor == o.isDescriptor && padWithNan == o.padWithNan &&
           shape == o.shape;
  }
  bool operator!=(const TileType &o) const { return !(*this == o); }
  /// "fp16", "*fp32", "block<64x64xfp16>", "block_ptr<...>".
  std::string str() const;
};

class Val {
public:
  enum class Kind {
    None, Bool, Int, Float, Str, DType, Tuple, // constexprs
    Runtime,                                   // an IR value
    Function,                                  // a helper
    Builtin,                                   // a built-in function
    Namespace,                                 // `tl`, `triton`, `tl.math`
    Slice,                                     // `:` in a subscript
  };

  Val() = default;
  static Val none() { return Val(); }
  static Val boolean(bool b) {
    Val v(Kind::Bool);
    v.intValue = b;
    return v;
  }
  static Val integer(int64_t i) {
    Val v(Kind::Int);
    v.intValue = i;
    return v;
  }
  static Val floating(double f) {
    Val v(Kind::Float);
    v.floatValue = f;
    return v;
  }
  static Val string(std::string s) {
    Val v(Kind::Str);
    v.text = std::move(s);
    return v;
  }
  static Val dtype(ScalarType t, bool pointer = false) {
    Val v(Kind::DType);
    v.type.element = t;
    v.type.isPointer = pointer;
    return v;
  }
  static Val tuple(std::vector<Val> elements) {
    Val v(Kind::Tuple);
    v.elements = std::move(elements);
    return v;
  }
  static Val runtime(mlir::Value value, TileType type) {
    Val v(Kind::Runtime);
    v.value = value;
    v.type = std::move(type);
    return v;
  }
  static Val function(const FunctionDef *fn) {
    Val v(Kind::Function);
    v.fn = fn;
    return v;
  }
  static Val builtin(std::string name) {
    Val v(Kind::Builtin);
    v.text = std::move(name);
    return v;
  }
  static Val nameSpace(std::string name) {
    Val v(Kind::Namespace);
    v.text = std::move(name);
    return v;
  }
  static Val slice() { return Val(Kind::Slice); }

  Kind getKind() const { return kind; }
  bool isNone() const { return kind == Kind::None; }
  bool isRuntime() const { return kind == Kind::Runtime; }
  bool isConstexpr() const {
    return kind == Kind::None || kind == Kind::Bool || kind == Kind::Int ||
           kind == Kind::Float || kind == Kind::Str || kind == Kind::DType ||
           (kind == Kind::Tuple && allConstexpr());
  }
  /// Bool, Int or Float constexpr.
  bool isNumber() const {
    return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float;
  }
  bool isTuple() const { return kind == Kind::Tuple; }

  int64_t getInt() const { return intValue; }
  bool getBool() const { return intValue != 0; }
  double getFloat() const {
    return kind == Kind::Float ? floatValue : static_cast<double>(intValue);
  }
  const std::string &getString() const { return text; }
  llvm::ArrayRef<Val> getElements() const { return elements; }
  mlir::Value getValue() const { return value; }
  const TileType &getType() const { return type; }
  ScalarType getDType() const { return type.element; }
  bool isPointerDType() const { return type.isPointer; }
  const FunctionDef *getFunction() const { return fn; }
  const std::string &getName() const { return text; }

  /// Python truthiness of a constexpr.
  bool truthy() const;
  /// Structural equality of constexprs (Python `==`).
  bool equals(const Val &other) const;
  /// "int", "float", "block<...>", ... for messages.
  std::string describe() const;
  /// Python-like spelling of a constexpr value ("128", "'leaky_relu'").
  std::string repr() const;

private:
  explicit Val(Kind kind) : kind(kind) {}
  bool allConstexpr() const;

  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string text;
  std::vector<Val> elements;
  mlir::Value value;
  TileType type;
  const FunctionDef *fn = nullptr;
};

} // namespace tilec

#endif // TILE_FRONTEND_VALUE_H
