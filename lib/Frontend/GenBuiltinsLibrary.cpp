//===- GenBuiltinsLibrary.cpp - Built-ins written in the tile language ---===//
//
// Some of Triton's built-ins are a library in its own language, and so are
// ours: the random numbers, softmax, swizzle2d. The random numbers are the
// Philox4x32-10 counter-based generator keyed by the seed and counting
// through the offsets, then conversions to floats. So is ours: the source
// below is parsed once per kernel compilation and its functions are
// inlined like a user's helpers, so every backend (the GPU lowering, the
// CPU mode) runs the same integer arithmetic and the streams are those of
// Triton bit for bit (the normal numbers up to the approximate log, cos
// and sin). Offsets are 32-bit integers, as in Triton's common use.
// softmax and swizzle2d are Triton's definitions.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tile/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tilec;

static const char kRandomLibrary[] = R"tile(
import triton.language as tl

def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = 10):
    for _ in tl.static_range(n_rounds):
        _c0, _c2 = c0, c2
        c0 = tl.umulhi(0xCD9E8D57, _c2) ^ c1 ^ k0
        c2 = tl.umulhi(0xD2511F53, _c0) ^ c3 ^ k1
        c1 = _c2 * 0xCD9E8D57
        c3 = _c0 * 0xD2511F53
        k0 = k0 + 0x9E3779B9
        k1 = k1 + 0xBB67AE85
    return c0, c1, c2, c3

def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    seed = seed.to(tl.uint64)
    seed_hi = ((seed >> 32) & 0xffffffff).to(tl.uint32)
    seed_lo = (seed & 0xffffffff).to(tl.uint32)
    c0 = c0.to(tl.uint32, bitcast=True)
    c1 = c1.to(tl.uint32, bitcast=True)
    c2 = c2.to(tl.uint32, bitcast=True)
    c3 = c3.to(tl.uint32, bitcast=True)
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)

def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    _0 = offset * 0
    return philox(seed, offset, _0, _0, _0, n_rounds)

def randint(seed, offset, n_rounds: tl.constexpr = 10):
    ret, _, _, _ = randint4x(seed, offset, n_rounds)
    return ret

def uint_to_uniform_float(x):
    x = x.to(tl.int32, bitcast=True)
    x = tl.where(x < 0, -x - 1, x)
    return x * 4.6566127342e-10

def rand(seed, offset, n_rounds: tl.constexpr = 10):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))

def rand4x(seed, offsets, n_rounds: tl.constexpr = 10):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return (uint_to_uniform_float(i1), uint_to_uniform_float(i2),
            uint_to_uniform_float(i3), uint_to_uniform_float(i4))

def pair_uniform_to_normal(u1, u2):
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)

def randn(seed, offset, n_rounds: tl.constexpr = 10):
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    n1, _ = pair_uniform_to_normal(uint_to_uniform_float(i1),
                                   uint_to_uniform_float(i2))
    return n1

def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4

def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    z = x - tl.max(x, 0 if dim is None else dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, 0 if dim is None else dim, keep_dims=keep_dims)
    return tl.fdiv(num, den, ieee_rounding=ieee_rounding)

def swizzle2d(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j
)tile";

bool tilec::isLibraryBuiltin(llvm::StringRef name) {
  return llvm::is_contained(
      {"rand", "randn", "randint", "randint4x", "rand4x", "randn4x", "philox",
       "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal",
       "softmax", "swizzle2d"},
      name);
}

const FunctionDef *Generator::libraryFunction(llvm::StringRef name) {
  if (!library) {
    llvm::SourceMgr &sm = diags.getSourceMgr();
    unsigned id = sm.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(kRandomLibrary, "<triton.language library>"),
        llvm::SMLoc());
    library = parseSource(sm.getMemoryBuffer(id)->getBuffer(), diags);
    if (!library)
      return nullptr;
  }
  return library->findFunction(name);
}

bool Generator::inLibrary() const {
  return library && !frames.empty() && frames.back().fn &&
         llvm::any_of(library->functions, [&](const auto &fn) {
           return fn.get() == frames.back().fn;
         });
}

FailureOr<Val> Generator::builtinLibrary(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  // The generators take (seed, offset): an integer seed, as Triton
  // asserts, and 32-bit offsets (the counters of the 32-bit Philox).
  bool generator = name.starts_with("rand") || name == "philox";
  if (generator && !inLibrary()) {
    auto argument = [&](size_t index, llvm::StringRef keyword)
        -> std::pair<const Val *, llvm::SMLoc> {
      if (index < args.positional.size())
        return {&args.positional[index], args.positionalLocs[index]};
      for (size_t i = 0; i < args.keywords.size(); ++i)
        if (args.keywords[i].first == keyword)
          return {&args.keywords[i].second, args.keywordLocs[i]};
      return {nullptr, at};
    };
    auto [seed, seedAt] = argument(0, "seed");
    if (seed && !(seed->isRuntime() ? isInteger(seed->getType().element) &&
                                          !seed->getType().isPointer &&
                                          !seed->getType().isBlockPointer
                                    : seed->getKind() == Val::Kind::Int))
      return error(seedAt, name + ": the seed must be an integer, got " +
                               seed->describe());
    auto [offset, offsetAt] =
        argument(1, name == "philox" ? "c0" : "offset");
    if (offset && offset->isRuntime() &&
        (!isInteger(offset->getType().element) ||
         getBitWidth(offset->getType().element) != 32 ||
         offset->getType().isPointer))
      return error(offsetAt, name + ": offsets must be 32-bit integers, got " +
                                 offset->describe());
  }
  const FunctionDef *fn = libraryFunction(name);
  if (!fn)
    return error(at, "internal error: the built-in library has no '" + name +
                         "'");
  return callHelper(*fn, args, at);
}
