//===- JIT.h - Compile and launch .tile kernels from C++ --------*- C++ -*-===//
//
// The tilec JIT: compile `.tile` source at run time, specialize on the
// arguments of each call, autotune, cache (in memory and on disk), and
// launch on a CUDA stream. The common case:
//
//   tile::JIT jit;
//   tile::Expected<tile::Kernel> k = jit.loadFile("matmul.tile", "matmul");
//   if (!k) { std::cerr << k.error(); return 1; }
//   tile::Status s = k->launch(stream, tile::ptr(a), tile::ptr(b),
//                              tile::ptr(c), M, N, K, K, 1, N, 1, N, 1);
//
// Arguments are typed by their C++ types (int32_t -> i32, float -> fp32,
// tile::ptr(half *) -> *fp16, ...): no string signatures. Pointers aligned
// to 16 bytes and integers that are multiples of 16 (or equal to 1) are
// specialized on, as Triton does. Errors come back as values carrying the
// compiler's diagnostics; nothing here throws or aborts.
//
// The header has no dependency on LLVM, MLIR or CUDA headers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_JIT_H
#define TILE_RUNTIME_JIT_H

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tile {

/// Element types of pointers (the language's scalar types).
enum class DType {
  i1,
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  fp16,
  bf16,
  fp32,
  fp64,
  fp8e4nv,
  fp8e5, // the last: dtypeFromName walks up to it
};

/// The language's name of a type ("fp16", "i32", ...).
const char *dtypeName(DType t);
/// The type with that name; none for a name that is not one.
std::optional<DType> dtypeFromName(const std::string &name);

/// 16-bit float storage types for typed pointers.
struct half {
  uint16_t bits;
};
struct bfloat16 {
  uint16_t bits;
};
/// fp8 storage types (e4m3 and e5m2) for typed pointers.
struct float8e4nv {
  uint8_t bits;
};
struct float8e5 {
  uint8_t bits;
};

template <typename T> struct DTypeOf;
#define TILE_DTYPE(T, D)                                                       \
  template <> struct DTypeOf<T> {                                              \
    static constexpr DType value = DType::D;                                   \
  };
TILE_DTYPE(bool, i1)
TILE_DTYPE(int8_t, i8)
TILE_DTYPE(int16_t, i16)
TILE_DTYPE(int32_t, i32)
TILE_DTYPE(int64_t, i64)
TILE_DTYPE(uint8_t, u8)
TILE_DTYPE(uint16_t, u16)
TILE_DTYPE(uint32_t, u32)
TILE_DTYPE(uint64_t, u64)
TILE_DTYPE(half, fp16)
TILE_DTYPE(bfloat16, bf16)
TILE_DTYPE(float, fp32)
TILE_DTYPE(double, fp64)
TILE_DTYPE(float8e4nv, fp8e4nv)
TILE_DTYPE(float8e5, fp8e5)
#undef TILE_DTYPE

/// A device address with its element type, and optionally the size of the
/// buffer it starts (0: unknown), which a kernel whose config zeroes the
/// buffer before each launch (Triton's `pre_hook=init_to_zero(...)`) needs.
struct Pointer {
  uint64_t address = 0;
  DType elementType = DType::fp32;
  uint64_t bytes = 0;
};
template <typename T> Pointer ptr(T *devicePointer) {
  return {reinterpret_cast<uint64_t>(devicePointer), DTypeOf<T>::value};
}
/// A buffer of `count` elements.
template <typename T> Pointer ptr(T *devicePointer, size_t count) {
  return {reinterpret_cast<uint64_t>(devicePointer), DTypeOf<T>::value,
          count * sizeof(T)};
}
inline Pointer ptr(uint64_t address, DType elementType, uint64_t bytes = 0) {
  return {address, elementType, bytes};
}

/// One kernel argument: a pointer or a scalar of a fixed type.
class Arg {
public:
  Arg(Pointer p) : value(p) {}
  Arg(int32_t v) : value(v) {}
  Arg(int64_t v) : value(v) {}
  Arg(float v) : value(v) {}
  Arg(double v) : value(v) {}
  Arg(bool v) : value(v) {}
  using Value = std::variant<Pointer, int32_t, int64_t, float, double, bool>;
  const Value &get() const { return value; }

private:
  Value value;
};

/// Success, or an error with its message (the compiler's diagnostics for
/// compile errors).
class Status {
public:
  Status() = default;
  static Status error(std::string message) {
    Status s;
    s.message = std::move(message);
    s.failed = true;
    return s;
  }
  explicit operator bool() const { return !failed; }
  bool ok() const { return !failed; }
  const std::string &error() const { return message; }

private:
  std::string message;
  bool failed = false;
};

/// A value or an error message.
template <typename T> class Expected {
public:
  Expected(T v) : value(std::move(v)) {}
  Expected(Status s) : status(std::move(s)) {}
  explicit operator bool() const { return value.has_value(); }
  T &operator*() { return *value; }
  T *operator->() { return &*value; }
  const std::string &error() const { return status.error(); }
  Status takeStatus() { return status; }

private:
  std::optional<T> value;
  Status status;
};

/// A launch grid (programs along x, y, z).
struct Grid {
  unsigned x = 1, y = 1, z = 1;
};

/// A CUDA stream (CUstream); null is the default stream.
using Stream = void *;

/// How a kernel is compiled.
struct CompileOptions {
  /// Constexpr bindings, as tilec's -D ("BLOCK=128", "ACTIVATION=relu").
  std::vector<std::string> defines;
  /// Override the kernel's (or the config's) num_warps / num_stages.
  std::optional<unsigned> numWarps, numStages;
  /// GROUP_M-grouped program order for 2-D grids (0: off).
  unsigned groupM = 8;
  /// Target; empty: the device's ("sm_90a" on an H100).
  std::string arch;
  /// Keep device_asserts (Triton's debug mode; also on with TRITON_DEBUG=1
  /// in the environment). Off, they are dropped, as Triton drops them.
  bool debug = false;
};

class JIT;
struct KernelState;

/// A kernel of a loaded source: specializations and autotuning choices are
/// made per call and cached. Cheap to copy (shared state); thread-safe.
class Kernel {
public:
  /// Launch with the grid from the kernel's @grid.
  template <typename... Args> Status launch(Stream stream, Args &&...args) {
    const Arg list[] = {Arg(args)...};
    return launchWith(stream, std::nullopt, list, sizeof...(Args));
  }
  /// Launch with an explicit grid.
  template <typename... Args>
  Status launchGrid(Stream stream, Grid grid, Args &&...args) {
    const Arg list[] = {Arg(args)...};
    return launchWith(stream, grid, list, sizeof...(Args));
  }
  Status launchWith(Stream stream, std::optional<Grid> grid, const Arg *args,
                    size_t count);
  Status launchWith(Stream stream, std::optional<Grid> grid,
                    const std::vector<Arg> &args) {
    return launchWith(stream, grid, args.data(), args.size());
  }

  /// Compile (or fetch from the caches) the PTX for these arguments without
  /// launching: needs no GPU. For an autotuned kernel, every config.
  Expected<std::string> ptxFor(const std::vector<Arg> &args);

  const std::string &name() const;
  /// The run-time parameters' names, in order.
  std::vector<std::string> parameterNames() const;

private:
  friend class JIT;
  explicit Kernel(std::shared_ptr<KernelState> state) : state(std::move(state)) {}
  std::shared_ptr<KernelState> state;
};

struct JITOptions {
  /// On-disk cache directory; empty: $TILE_CACHE_DIR, else ~/.cache/tile.
  std::string cacheDir;
  /// Keep compiled kernels on disk (off: in memory only).
  bool diskCache = true;
  /// Autotuning: warm-up launches and timed repetitions per config.
  unsigned tuneWarmup = 3, tuneRepetitions = 10;
};

/// The JIT: owns the caches. Create one per process (or per device user);
/// it is thread-safe.
class JIT {
public:
  explicit JIT(JITOptions options = {});
  ~JIT();
  JIT(const JIT &) = delete;
  JIT &operator=(const JIT &) = delete;

  Expected<Kernel> loadFile(const std::string &path, const std::string &kernel,
                            CompileOptions options = {});
  Expected<Kernel> loadSource(const std::string &source,
                              const std::string &kernel,
                              CompileOptions options = {},
                              const std::string &name = "<source>");

  /// Whether a GPU can be used (and why not).
  static bool gpuAvailable(std::string *whyNot = nullptr);

  /// Make the device's primary context current on the calling thread
  /// (unless one already is), as the first launch does: for programs that
  /// allocate memory through the driver API before launching.
  static Status useDevice();

  /// The compiler version that enters every cache key.
  static const char *compilerVersion();

  struct Impl;

private:
  std::shared_ptr<Impl> impl;
};

} // namespace tile

#endif // TILE_RUNTIME_JIT_H
