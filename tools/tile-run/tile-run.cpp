//===- tile-run.cpp - Run one kernel from the command line ----------------===//
//
// tile-run FILE.tile -k KERNEL [-D NAME=VALUE]... [--grid X[,Y[,Z]]]
//          --arg NAME=VALUE ... [--device cpu|gpu] [--seed S]
//          [--dump NAME[=FILE.npy]]...
//
// Buffers come from `--arg p=rand:fp16:64x64` (normal random), `zeros:`,
// `ones:`, `arange:`, `file:x.npy` or `None` (a null pointer); scalars from
// `--arg n=1000`. The arguments also feed the kernel's @heuristics. The grid
// is `--grid`, or the kernel's @grid evaluated with the scalar arguments.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compiler.h"
#include "tile/Frontend/Sema.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Interpreter/NumPy.h"
#include "tile/Runtime/CUDADriver.h"
#include "tile/Runtime/JIT.h"
#include "tile/Support/Float16.h"
#include "tile/Support/Float8.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include <chrono>
#include <cmath>
#include <random>

using namespace tilec;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("tile-run options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .tile file>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> kernelName("k", cl::desc("The kernel to run"),
                                cl::value_desc("kernel"), cl::cat(category));
cl::list<std::string> defines("D", cl::desc("Bind a constexpr: -D NAME=VALUE"),
                              cl::value_desc("NAME=VALUE"), cl::Prefix,
                              cl::cat(category));
cl::opt<std::string> signature("signature",
                               cl::desc("Types of unannotated parameters"),
                               cl::cat(category));
cl::opt<std::string> gridOption("grid", cl::desc("Launch grid X[,Y[,Z]]"),
                                cl::cat(category));
cl::list<std::string> argOptions("arg", cl::desc("An argument: NAME=VALUE"),
                                 cl::value_desc("NAME=VALUE"),
                                 cl::cat(category));
cl::opt<std::string> device("device", cl::desc("cpu or gpu"), cl::init("cpu"),
                            cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of rand: arguments"),
                       cl::init(0), cl::cat(category));
cl::list<std::string> dumps("dump",
                            cl::desc("Write a buffer after the run: "
                                     "NAME[=FILE.npy]"),
                            cl::cat(category));
cl::opt<unsigned> numWarps("num-warps", cl::desc("Warps per program"),
                           cl::cat(category));
cl::opt<bool> verbose("v", cl::desc("Report the run"), cl::cat(category));

/// Print an error and return the exit status.
int error(const llvm::Twine &message) {
  llvm::errs() << "tile-run: error: " << message << "\n";
  return 1;
}

struct Buffer {
  std::string dtype; // "fp16", ...
  std::vector<int64_t> shape;
};

/// Element bytes of a .tile dtype name.
unsigned dtypeBytes(llvm::StringRef dtype) {
  std::optional<ScalarType> t = parseScalarType(dtype);
  return t ? std::max(1u, getBitWidth(*t) / 8) : 0;
}

/// Encode `v` as one element of `dtype` at `p`.
void encode(llvm::StringRef dtype, double v, uint8_t *p) {
  ScalarType t = *parseScalarType(dtype);
  switch (t) {
  case ScalarType::F16: {
    uint16_t h = tilec::toHalfBits(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case ScalarType::BF16: {
    uint16_t h = tilec::toBFloat16Bits(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case ScalarType::FP8E4M3:
  case ScalarType::FP8E5M2: {
    Float8Kind kind =
        t == ScalarType::FP8E4M3 ? Float8Kind::E4M3 : Float8Kind::E5M2;
    *p = float8Bits(roundToFloat8(v, kind), kind);
    return;
  }
  case ScalarType::F32: {
    float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case ScalarType::F64:
    std::memcpy(p, &v, 8);
    return;
  default: {
    int64_t i = static_cast<int64_t>(v);
    std::memcpy(p, &i, std::max(1u, getBitWidth(t) / 8));
    return;
  }
  }
}

/// Parse "4096x4096" into a shape.
std::optional<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t n;
    if (part.trim().getAsInteger(10, n) || n < 0)
      return std::nullopt;
    shape.push_back(n);
  }
  return shape;
}
} // namespace

/// Run the kernel through the JIT: copy the buffers to the GPU, launch,
/// copy them back (the same HostBuffers the CPU path fills).
static int runOnGpu(const PlannedKernel &planned,
                    const std::vector<KernelArg> &args,
                    std::vector<HostBuffer> &buffers,
                    std::optional<tile::Grid> grid) {
  std::string why;
  const tile::cuda::Driver *d = tile::cuda::getDriver(&why);
  if (!d)
    return error("--device gpu: " + why);
  tile::JIT jit;
  tile::CompileOptions options;
  options.defines.assign(defines.begin(), defines.end());
  if (numWarps.getNumOccurrences())
    options.numWarps = numWarps;
  auto kernel = jit.loadFile(inputFile, planned.instance.kernel->name, options);
  if (!kernel)
    return error(kernel.error());
  if (tile::Status s = tile::JIT::useDevice(); !s)
    return error(s.error());
  // The JIT made a context current; allocate and copy in.
  std::vector<tile::cuda::CUdeviceptr> device(buffers.size(), 0);
  auto release = [&] {
    for (tile::cuda::CUdeviceptr p : device)
      if (p)
        d->cuMemFree(p);
  };
  std::vector<tile::Arg> launchArgs;
  for (auto [i, param] : llvm::enumerate(planned.instance.params)) {
    const ParamType &type = param.second;
    tile::DType dtype = tile::dtypeFromName(getName(type.elementType).str())
                            .value_or(tile::DType::fp32);
    const KernelArg &a = args[i];
    if (type.kind == ParamType::Kind::Pointer) {
      HostBuffer &b = buffers[a.buffer];
      if (b.isNull) {
        launchArgs.push_back(tile::ptr(0, dtype));
        continue;
      }
      size_t bytes = std::max<size_t>(b.bytes.size(), 16);
      tile::cuda::CUresult r = d->cuMemAlloc(&device[a.buffer], bytes);
      if (r == tile::cuda::CUDA_SUCCESS && !b.bytes.empty())
        r = d->cuMemcpyHtoD(device[a.buffer], b.bytes.data(), b.bytes.size());
      if (r != tile::cuda::CUDA_SUCCESS) {
        release();
        return error(tile::cuda::describe(*d, "copying to the GPU", r));
      }
      launchArgs.push_back(tile::ptr(device[a.buffer], dtype, b.bytes.size()));
    } else if (isFloat(type.elementType)) {
      if (type.elementType == ScalarType::F64)
        launchArgs.push_back(a.floatValue);
      else
        launchArgs.push_back(float(a.floatValue));
    } else if (type.elementType == ScalarType::I64 ||
               type.elementType == ScalarType::U64) {
      launchArgs.push_back(int64_t(a.intValue));
    } else if (type.elementType == ScalarType::I1) {
      launchArgs.push_back(a.intValue != 0);
    } else {
      launchArgs.push_back(int32_t(a.intValue));
    }
  }
  tile::Status s = kernel->launchWith(nullptr, grid, launchArgs);
  tile::cuda::CUresult r = s ? d->cuCtxSynchronize() : tile::cuda::CUDA_SUCCESS;
  for (size_t i = 0; s && r == tile::cuda::CUDA_SUCCESS && i < buffers.size(); ++i)
    if (!buffers[i].bytes.empty())
      r = d->cuMemcpyDtoH(buffers[i].bytes.data(), device[i],
                          buffers[i].bytes.size());
  release();
  if (!s)
    return error(s.error());
  if (r != tile::cuda::CUDA_SUCCESS)
    return error(tile::cuda::describe(*d, "running the kernel", r));
  return 0;
}

static int run() {
  if (device != "cpu" && device != "gpu")
    return error("--device must be cpu or gpu, not '" + device + "'");

  CompileOptions options;
  if (kernelName.getNumOccurrences())
    options.specialize.kernel = kernelName;
  options.specialize.defines.assign(defines.begin(), defines.end());
  options.specialize.signature = signature;
  if (numWarps.getNumOccurrences())
    options.specialize.numWarps = numWarps;
  // The arguments' values, for the kernel's @heuristics: a buffer is a
  // pointer that is not None.
  for (llvm::StringRef a : argOptions) {
    auto [name, value] = a.split('=');
    llvm::StringRef kind = value.trim().split(':').first;
    std::string ignored;
    std::optional<Val> v =
        llvm::is_contained({"rand", "zeros", "ones", "arange", "file"}, kind)
            ? std::optional<Val>(Val::integer(1))
            : parseDefineValue(value.trim(), ignored);
    if (v && !name.trim().empty())
      options.specialize.argumentValues.emplace_back(name.trim().str(), *v);
  }
  CompilerSession session(options);
  if (!session.loadFile(inputFile) || !session.generate())
    return 1;
  const std::vector<PlannedKernel> &kernels = session.getKernels();
  if (kernels.size() != 1)
    return error("the file has several kernels; pick one with -k");
  const PlannedKernel &planned = kernels[0];
  mlir::func::FuncOp func;
  session.getModule().walk([&](mlir::func::FuncOp f) {
    if (f.getName() == planned.instance.symbol)
      func = f;
  });
  if (!func)
    return error("internal error: the kernel was not generated");

  // Arguments, in the kernel's parameter order.
  llvm::StringMap<std::string> given;
  for (const std::string &a : argOptions) {
    auto [name, value] = llvm::StringRef(a).split('=');
    if (!llvm::StringRef(a).contains('=') || name.empty())
      return error("--arg expects NAME=VALUE, got '" + a + "'");
    if (!given.try_emplace(name.trim(), value.trim().str()).second)
      return error("--arg " + name + " is given twice");
  }
  std::mt19937_64 rng(seed);
  std::vector<HostBuffer> buffers;
  std::vector<Buffer> bufferInfo;
  std::vector<KernelArg> args;
  llvm::StringMap<Val> gridEnv;
  for (const auto &[name, value] : planned.instance.constexprs)
    gridEnv[name] = value;
  for (const auto &[name, type] : planned.instance.params) {
    auto it = given.find(name);
    const Param *declared = planned.instance.kernel->findParam(name);
    bool defaultNone = declared && declared->defaultsToNone();
    if (it == given.end() && !defaultNone)
      return error("missing --arg " + name + " (" + formatParamType(type) + ")");
    // A pointer declared `= None` left out is a null pointer.
    std::string specText = it == given.end() ? "None" : it->second;
    if (it != given.end())
      given.erase(it);
    llvm::StringRef spec = specText;
    if (type.kind == ParamType::Kind::Pointer) {
      std::string dtype = getName(type.elementType).str();
      HostBuffer buffer;
      buffer.name = name;
      buffer.elementBytes = dtypeBytes(dtype);
      Buffer info;
      info.dtype = dtype;
      auto [kind, rest] = spec.split(':');
      if (spec == "None") {
        buffer.isNull = true; // for kernels whose @heuristics test it
      } else if (kind == "file") {
        auto array = readNpy(rest);
        if (!array)
          return error(llvm::toString(array.takeError()));
        std::string want = npyDescr(dtype);
        if (!npyDescrMatches(array->descr, want))
          return error("--arg " + name + ": '" + rest + "' holds '" +
                       array->descr + "' data but " + name + " is *" + dtype +
                       " ('" + want + "')");
        info.shape = array->shape;
        buffer.bytes = std::move(array->data);
      } else if (kind == "rand" || kind == "zeros" || kind == "ones" ||
                 kind == "arange") {
        auto [dt, shapeText] = rest.split(':');
        if (dt != dtype)
          return error("--arg " + name + ": the data type '" + dt +
                       "' differs from the parameter's *" + dtype);
        auto shape = parseShape(shapeText);
        if (!shape)
          return error("--arg " + name + ": bad shape '" + shapeText +
                       "' (expected e.g. 64x128)");
        info.shape = *shape;
        int64_t n = 1;
        for (int64_t d : *shape)
          n *= d;
        if (n > (int64_t(1) << 31))
          return error("--arg " + name + ": buffer too large");
        buffer.bytes.assign(n * buffer.elementBytes, 0);
        std::normal_distribution<double> normal;
        std::uniform_int_distribution<int> small(-8, 7);
        for (int64_t i = 0; i < n; ++i) {
          double v = 0;
          if (kind == "ones")
            v = 1;
          else if (kind == "arange")
            v = static_cast<double>(i);
          else if (kind == "rand")
            v = isFloat(type.elementType) ? normal(rng)
                : type.elementType == ScalarType::I1 ? (rng() & 1)
                                                     : small(rng);
          encode(dtype, v, buffer.bytes.data() + i * buffer.elementBytes);
        }
      } else {
        return error("--arg " + name +
                     ": expected rand:, zeros:, ones:, "
                     "arange:, file: or None, got '" +
                     spec + "'");
      }
      args.push_back(KernelArg::ofBuffer(buffers.size()));
      buffers.push_back(std::move(buffer));
      bufferInfo.push_back(std::move(info));
      continue;
    }
    if (isFloat(type.elementType)) {
      double v;
      if (spec.getAsDouble(v))
        return error("--arg " + name + ": expected a number, got '" + spec + "'");
      args.push_back(KernelArg::ofFloat(v));
      gridEnv[name] = Val::floating(v);
    } else {
      int64_t v;
      if (spec.getAsInteger(0, v)) {
        if (spec == "True" || spec == "true")
          v = 1;
        else if (spec == "False" || spec == "false")
          v = 0;
        else
          return error("--arg " + name + ": expected an integer, got '" +
                       spec + "'");
      }
      args.push_back(KernelArg::ofInt(v));
      gridEnv[name] = Val::integer(v);
    }
  }
  if (!given.empty())
    return error("--arg " + given.begin()->getKey() +
                 ": no such run-time parameter of '" +
                 planned.instance.symbol + "'");

  RunOptions runOptions;
  if (!gridOption.empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(gridOption).split(parts, ',');
    if (parts.size() > 3)
      return error("--grid takes at most three dimensions");
    for (auto [i, part] : llvm::enumerate(parts))
      if (part.trim().getAsInteger(10, runOptions.grid[i]) ||
          runOptions.grid[i] < 1)
        return error("--grid dimensions must be positive integers, got '" +
                     gridOption + "'");
  } else if (!planned.gridExprs.empty()) {
    for (auto [i, expr] : llvm::enumerate(planned.gridExprs)) {
      std::optional<Val> v =
          evalConstexpr(*expr, gridEnv, session.getDiagnostics());
      if (!v || v->getKind() != Val::Kind::Int)
        return error("cannot evaluate the kernel's @grid; pass --grid");
      if (v->getInt() < 1)
        return error("the grid's dimension " + std::to_string(i) + " is " +
                     std::to_string(v->getInt()) + "; it must be at least 1");
      runOptions.grid[i] = v->getInt();
    }
  } else {
    return error("the kernel has no @grid; pass --grid X[,Y[,Z]]");
  }

  auto start = std::chrono::steady_clock::now();
  if (device == "gpu") {
    std::optional<tile::Grid> grid;
    if (!gridOption.empty())
      grid = tile::Grid{unsigned(runOptions.grid[0]),
                        unsigned(runOptions.grid[1]),
                        unsigned(runOptions.grid[2])};
    if (int status = runOnGpu(planned, args, buffers, grid))
      return status;
  } else {
    // What the config's pre_hook zeroes before a launch (on the GPU, the JIT
    // does it).
    for (auto [i, param] : llvm::enumerate(planned.instance.params))
      if (args[i].kind == KernelArg::Kind::Buffer &&
          llvm::is_contained(planned.zeroBeforeLaunch, param.first))
        llvm::fill(buffers[args[i].buffer].bytes, 0);
    if (llvm::Error e = runOnCpu(func, args, buffers, runOptions))
      return error(llvm::toString(std::move(e)));
  }
  if (verbose) {
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    llvm::errs() << "ran " << planned.instance.symbol << " on the "
                 << (device == "gpu" ? "GPU (JIT compile included)" : "CPU")
                 << ", grid (" << runOptions.grid[0] << ", "
                 << runOptions.grid[1] << ", " << runOptions.grid[2]
                 << "), in " << llvm::format("%.1f", ms) << " ms\n";
  }

  for (const std::string &d : dumps) {
    auto [name, path] = llvm::StringRef(d).split('=');
    std::string file = path.empty() ? (name + ".npy").str() : path.str();
    auto it = llvm::find_if(buffers,
                            [&](const HostBuffer &b) { return b.name == name; });
    if (it == buffers.end())
      return error("--dump " + name + ": no buffer argument of that name");
    const Buffer &info = bufferInfo[it - buffers.begin()];
    if (llvm::Error e = writeNpy(file, npyDescr(info.dtype), info.shape,
                                 it->bytes))
      return error(llvm::toString(std::move(e)));
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "tile-run: run a .tile kernel\n",
                                   &llvm::errs()))
    return 1;
  return run();
}
