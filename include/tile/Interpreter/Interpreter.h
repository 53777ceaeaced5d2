//===- Interpreter.h - CPU execution of tile-dialect kernels ----*- C++ -*-===//
//
// Runs a kernel in the tile dialect (after inlining and constexpr folding)
// on the CPU, program by program over the whole grid, with the numerics of
// the GPU path: 16-bit floats rounded after every operation, fp32 dot
// accumulation with fused multiply-adds in k order, integer wrap-around,
// masked loads that read nothing. Every pointer remembers which host buffer
// it came from, so an access outside that buffer is reported with the
// kernel, the program id, the source location, the buffer and the element
// index, and the run fails.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_INTERPRETER_H
#define TILE_INTERPRETER_INTERPRETER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// Host memory a pointer argument points to.
struct HostBuffer {
  std::string name;          // the parameter's name, for reports
  unsigned elementBytes = 1; // bytes per element of the parameter's type
  std::vector<uint8_t> bytes;
  /// Triton's None: the kernel gets a null pointer (and no element is in
  /// bounds).
  bool isNull = false;
  int64_t numElements() const {
    return static_cast<int64_t>(bytes.size()) / elementBytes;
  }
};

/// One kernel argument, in the kernel's parameter order.
struct KernelArg {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  int buffer = -1; // index into the buffers, for Kind::Buffer
  int64_t intValue = 0;
  double floatValue = 0;

  static KernelArg ofBuffer(int index) {
    KernelArg a;
    a.kind = Kind::Buffer;
    a.buffer = index;
    return a;
  }
  static KernelArg ofInt(int64_t v) {
    KernelArg a;
    a.intValue = v;
    return a;
  }
  static KernelArg ofFloat(double v) {
    KernelArg a;
    a.kind = Kind::Float;
    a.floatValue = v;
    return a;
  }
};

struct RunOptions {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Where device_print writes.
  llvm::raw_ostream *printStream = &llvm::outs();
};

/// Run `kernel` over the grid with `args`, reading and writing `buffers`.
/// Errors (out-of-bounds or null accesses, failed device assertions,
/// unsupported operations) come back as a message naming the kernel, the
/// program and the source location.
llvm::Error runOnCpu(mlir::func::FuncOp kernel, llvm::ArrayRef<KernelArg> args,
                     std::vector<HostBuffer> &buffers,
                     const RunOptions &options);

} // namespace tilec

#endif // TILE_INTERPRETER_INTERPRETER_H
