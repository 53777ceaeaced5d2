//===- Machine.h - State of a CPU run of a tile kernel ----------*- C++ -*-===//

#ifndef TILE_LIB_INTERPRETER_MACHINE_H
#define TILE_LIB_INTERPRETER_MACHINE_H

#include "Numerics.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace tilec::interp {

/// A block pointer's parts.
struct BlockPointer {
  int32_t buffer = -1;
  int64_t base = 0; // byte offset of the base pointer
  llvm::SmallVector<int64_t, 4> shape, strides, offsets;
};

/// A value: a scalar or a block of ints, floats or pointers, or a block
/// pointer. Pointers are (buffer, byte offset) pairs.
struct Tensor {
  enum class Kind : uint8_t { Int, Float, Ptr, BlockPtr };
  Kind kind = Kind::Int;
  mlir::Type elem; // element type; the pointee for pointers
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<int64_t> ints;   // Int values, Ptr byte offsets
  std::vector<double> floats;  // Float values
  std::vector<int32_t> buffers; // Ptr buffer indices (-1: none)
  std::shared_ptr<BlockPointer> block;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  bool isFloat() const { return kind == Kind::Float; }
  bool isPtr() const { return kind == Kind::Ptr; }
};
using TensorRef = std::shared_ptr<Tensor>;

/// A fresh tensor of `kind` with `shape`, storage allocated.
TensorRef makeTensor(Tensor::Kind kind, mlir::Type elem,
                     llvm::ArrayRef<int64_t> shape);
/// A tensor shaped like `like` (same kind and element type).
TensorRef makeLike(const Tensor &like, llvm::ArrayRef<int64_t> shape);
/// The tensor of `type` (scalar or ranked tensor; pointers are Ptr).
TensorRef makeForType(mlir::Type type);

/// Bit width of an integer element type (1 for i1).
unsigned intBits(mlir::Type t);

class Machine {
public:
  Machine(mlir::func::FuncOp kernel, llvm::ArrayRef<KernelArg> args,
          std::vector<HostBuffer> &buffers, const RunOptions &options);

  llvm::Error run();

  // Execution.
  mlir::LogicalResult runBlock(mlir::Block &block,
                               llvm::ArrayRef<TensorRef> args,
                               llvm::SmallVectorImpl<TensorRef> &yielded);
  mlir::LogicalResult execute(mlir::Operation *op);
  mlir::LogicalResult executeStructured(mlir::Operation *op, bool &handled);
  mlir::LogicalResult executeArith(mlir::Operation *op, bool &handled);
  mlir::LogicalResult executeTile(mlir::Operation *op, bool &handled);
  mlir::LogicalResult executeMemory(mlir::Operation *op, bool &handled);

  TensorRef get(mlir::Value v) { return env.lookup(v); }
  void set(mlir::Value v, TensorRef t) { env[v] = std::move(t); }

  /// Report an error at `op` (the run stops).
  mlir::LogicalResult fail(mlir::Operation *op, const llvm::Twine &message);
  std::string where(mlir::Operation *op) const;

  /// Memory access with bounds checks; `what` is "load", "store" or
  /// "atomic". Returns false (after reporting) on a bad access.
  bool checkAccess(mlir::Operation *op, int32_t buffer, int64_t offset,
                   mlir::Type elem, llvm::StringRef what);
  double loadFloat(int32_t buffer, int64_t offset, mlir::Type elem);
  int64_t loadInt(int32_t buffer, int64_t offset, mlir::Type elem);
  void storeFloat(int32_t buffer, int64_t offset, mlir::Type elem, double v);
  void storeInt(int32_t buffer, int64_t offset, mlir::Type elem, int64_t v);

  mlir::func::FuncOp kernel;
  llvm::ArrayRef<KernelArg> args;
  std::vector<HostBuffer> &buffers;
  const RunOptions &options;
  llvm::DenseMap<mlir::Value, TensorRef> env;
  std::array<int64_t, 3> pid = {0, 0, 0};
  std::string error;
};

/// Bytes one element of `t` occupies in memory (i1: one byte).
unsigned elementBytes(mlir::Type t);

} // namespace tilec::interp

#endif // TILE_LIB_INTERPRETER_MACHINE_H
