//===- Interpreter.cpp - Running tile kernels on the CPU ------------------===//
//
// The driver, control flow and memory access. Programs run one after the
// other, x fastest; each program walks the kernel body with a map from IR
// values to tensors.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

unsigned tilec::interp::intBits(Type t) { return t.getIntOrFloatBitWidth(); }

unsigned tilec::interp::elementBytes(Type t) {
  return std::max(1u, t.getIntOrFloatBitWidth() / 8);
}

TensorRef tilec::interp::makeTensor(Tensor::Kind kind, Type elem,
                                    ArrayRef<int64_t> shape) {
  auto t = std::make_shared<Tensor>();
  t->kind = kind;
  t->elem = elem;
  t->shape.assign(shape.begin(), shape.end());
  int64_t n = t->numel();
  switch (kind) {
  case Tensor::Kind::Int:
    t->ints.assign(n, 0);
    break;
  case Tensor::Kind::Float:
    t->floats.assign(n, 0);
    break;
  case Tensor::Kind::Ptr:
    t->ints.assign(n, 0);
    t->buffers.assign(n, -1);
    break;
  case Tensor::Kind::BlockPtr:
    break;
  }
  return t;
}

TensorRef tilec::interp::makeLike(const Tensor &like, ArrayRef<int64_t> shape) {
  return makeTensor(like.kind, like.elem, shape);
}

TensorRef tilec::interp::makeForType(Type type) {
  ArrayRef<int64_t> shape;
  Type elem = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    shape = tensor.getShape();
    elem = tensor.getElementType();
  }
  if (auto ptr = dyn_cast<tile::PointerType>(elem))
    return makeTensor(Tensor::Kind::Ptr, ptr.getPointeeType(), shape);
  if (isa<FloatType>(elem))
    return makeTensor(Tensor::Kind::Float, elem, shape);
  return makeTensor(Tensor::Kind::Int, elem, shape);
}

Machine::Machine(func::FuncOp kernel, ArrayRef<KernelArg> args,
                 std::vector<HostBuffer> &buffers, const RunOptions &options)
    : kernel(kernel), args(args), buffers(buffers), options(options) {}

std::string Machine::where(Operation *op) const {
  std::string loc;
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op->getLoc()))
    loc = llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                        fileLoc.getLine(), fileLoc.getColumn())
              .str();
  else
    loc = "unknown location";
  return llvm::formatv("in kernel '{0}', program ({1}, {2}, {3}), at {4}",
                       const_cast<mlir::func::FuncOp &>(kernel).getName(),
                       pid[0], pid[1], pid[2], loc)
      .str();
}

LogicalResult Machine::fail(Operation *op, const llvm::Twine &message) {
  if (error.empty())
    error = message.str() + " " + where(op);
  return failure();
}

bool Machine::checkAccess(Operation *op, int32_t buffer, int64_t offset,
                          Type elem, llvm::StringRef what) {
  unsigned bytes = elementBytes(elem);
  if (buffer < 0 || buffer >= static_cast<int32_t>(buffers.size())) {
    (void)fail(op, what + " through a pointer that does not point into any "
                          "buffer");
    return false;
  }
  const HostBuffer &b = buffers[buffer];
  int64_t size = static_cast<int64_t>(b.bytes.size());
  if (offset < 0 || offset + bytes > size || offset % bytes != 0) {
    int64_t index = offset >= 0 ? offset / bytes : -((-offset + bytes - 1) / bytes);
    (void)fail(op, llvm::formatv("out-of-bounds {0} of element {1} of buffer "
                                 "'{2}' ({3} elements)",
                                 what, index, b.name, size / bytes)
                       .str());
    return false;
  }
  return true;
}

double Machine::loadFloat(int32_t buffer, int64_t offset, Type elem) {
  const uint8_t *p = buffers[buffer].bytes.data() + offset;
  FloatFormat f = formatOf(elem);
  uint64_t bits = 0; // little-endian, as the GPU
  std::memcpy(&bits, p, formatBytes(f));
  return decodeFloat(f, bits);
}

void Machine::storeFloat(int32_t buffer, int64_t offset, Type elem, double v) {
  FloatFormat f = formatOf(elem);
  uint64_t bits = encodeFloat(f, v);
  std::memcpy(buffers[buffer].bytes.data() + offset, &bits, formatBytes(f));
}

int64_t Machine::loadInt(int32_t buffer, int64_t offset, Type elem) {
  const uint8_t *p = buffers[buffer].bytes.data() + offset;
  unsigned bits = intBits(elem);
  if (bits == 1)
    return *p != 0;
  uint64_t raw = 0;
  std::memcpy(&raw, p, bits / 8);
  return wrapSigned(static_cast<int64_t>(raw), bits);
}

void Machine::storeInt(int32_t buffer, int64_t offset, Type elem, int64_t v) {
  uint8_t *p = buffers[buffer].bytes.data() + offset;
  unsigned bits = intBits(elem);
  if (bits == 1) {
    *p = v != 0;
    return;
  }
  std::memcpy(p, &v, bits / 8);
}

LogicalResult Machine::runBlock(Block &block, ArrayRef<TensorRef> blockArgs,
                                SmallVectorImpl<TensorRef> &yielded) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), blockArgs))
    set(arg, value);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      yielded.clear();
      for (Value v : op.getOperands())
        yielded.push_back(get(v));
      return success();
    }
    if (failed(execute(&op)))
      return failure();
  }
  return success();
}

static bool truthy(const Tensor &t) { return t.ints[0] != 0; }

LogicalResult Machine::executeStructured(Operation *op, bool &handled) {
  handled = true;
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    unsigned bits = intBits(forOp.getInductionVar().getType());
    int64_t lb = get(forOp.getLowerBound())->ints[0];
    int64_t ub = get(forOp.getUpperBound())->ints[0];
    int64_t step = get(forOp.getStep())->ints[0];
    if (step <= 0)
      return fail(op, "a for loop with a step of " + llvm::Twine(step) +
                          " would not terminate;");
    SmallVector<TensorRef> carried;
    for (Value v : forOp.getInitArgs())
      carried.push_back(get(v));
    SmallVector<TensorRef> blockArgs(1 + carried.size());
    for (int64_t i = lb; i < ub; i = wrapSigned(i + step, bits)) {
      TensorRef iv = makeTensor(Tensor::Kind::Int,
                                forOp.getInductionVar().getType(), {});
      iv->ints[0] = i;
      blockArgs[0] = iv;
      std::copy(carried.begin(), carried.end(), blockArgs.begin() + 1);
      SmallVector<TensorRef> next;
      if (failed(runBlock(*forOp.getBody(), blockArgs, next)))
        return failure();
      carried = std::move(next);
      if (i + step < i) // overflow ends the loop
        break;
    }
    for (auto [r, v] : llvm::zip(forOp.getResults(), carried))
      set(r, v);
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    Region &region = truthy(*get(ifOp.getCondition())) ? ifOp.getThenRegion()
                                                       : ifOp.getElseRegion();
    SmallVector<TensorRef> results;
    if (!region.empty() && failed(runBlock(region.front(), {}, results)))
      return failure();
    for (auto [r, v] : llvm::zip(ifOp.getResults(), results))
      set(r, v);
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    SmallVector<TensorRef> carried;
    for (Value v : whileOp.getInits())
      carried.push_back(get(v));
    while (true) {
      SmallVector<TensorRef> forwarded;
      if (failed(runBlock(whileOp.getBefore().front(), carried, forwarded)))
        return failure();
      // scf.condition(%cond) %args...: the first yielded value is the flag.
      bool more = truthy(*forwarded[0]);
      SmallVector<TensorRef> args(forwarded.begin() + 1, forwarded.end());
      if (!more) {
        for (auto [r, v] : llvm::zip(whileOp.getResults(), args))
          set(r, v);
        return success();
      }
      if (failed(runBlock(whileOp.getAfter().front(), args, carried)))
        return failure();
    }
  }
  handled = false;
  return success();
}

LogicalResult Machine::execute(Operation *op) {
  bool handled = false;
  if (failed(executeStructured(op, handled)) || handled)
    return failure(!error.empty());
  if (failed(executeArith(op, handled)) || handled)
    return failure(!error.empty());
  if (failed(executeTile(op, handled)) || handled)
    return failure(!error.empty());
  if (failed(executeMemory(op, handled)) || handled)
    return failure(!error.empty());
  return fail(op, "the CPU interpreter does not support '" +
                      op->getName().getStringRef() + "'");
}

llvm::Error Machine::run() {
  if (kernel.getNumArguments() != args.size())
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' takes {1} arguments but {2} were given",
        kernel.getName(), kernel.getNumArguments(), args.size()));
  // Bind the arguments once; each program reuses them.
  SmallVector<TensorRef> argValues;
  for (auto [arg, given] : llvm::zip(kernel.getArguments(), args)) {
    TensorRef t = makeForType(arg.getType());
    if (t->isPtr()) {
      if (given.kind != KernelArg::Kind::Buffer)
        return llvm::createStringError("argument " + std::to_string(arg.getArgNumber()) +
                                       " of kernel '" + kernel.getName().str() +
                                       "' must be a buffer");
      t->buffers[0] = given.buffer;
    } else if (t->isFloat()) {
      t->floats[0] = roundTo(t->elem, given.kind == KernelArg::Kind::Float
                                          ? given.floatValue
                                          : static_cast<double>(given.intValue));
    } else {
      if (given.kind != KernelArg::Kind::Int)
        return llvm::createStringError("argument " + std::to_string(arg.getArgNumber()) +
                                       " of kernel '" + kernel.getName().str() +
                                       "' must be an integer");
      t->ints[0] = wrapSigned(given.intValue, intBits(t->elem));
    }
    argValues.push_back(t);
  }
  for (pid[2] = 0; pid[2] < options.grid[2]; ++pid[2])
    for (pid[1] = 0; pid[1] < options.grid[1]; ++pid[1])
      for (pid[0] = 0; pid[0] < options.grid[0]; ++pid[0]) {
        env.clear();
        SmallVector<TensorRef> ignored;
        if (failed(runBlock(kernel.getBody().front(), argValues, ignored)))
          return llvm::createStringError(error);
      }
  return llvm::Error::success();
}

llvm::Error tilec::runOnCpu(func::FuncOp kernel, ArrayRef<KernelArg> args,
                            std::vector<HostBuffer> &buffers,
                            const RunOptions &options) {
  for (int64_t g : options.grid)
    if (g <= 0)
      return llvm::createStringError("every grid dimension must be at least 1");
  Machine machine(kernel, args, buffers, options);
  return machine.run();
}
