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
// softmax, swizzle2d, sort and topk are Triton's definitions (sort: a
// bitonic network on the block reshaped to a hypercube of 2s, each
// compare-and-swap finding its partner by an xor_sum along one dimension;
// topk: the same, halving each row by max once k elements are sorted).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tile/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tilec;

static const char kLibrary[] = R"tile(
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

def _log2(n: tl.constexpr):
    r = 0
    for j in tl.static_range(1, 31):
        if (1 << j) <= n:
            r = j
    return r

def _int_dtype(bits: tl.constexpr):
    return (tl.int8 if bits == 8 else tl.int16 if bits == 16
            else tl.int32 if bits == 32 else tl.int64)

def get_int_dtype(bitwidth: tl.constexpr, signed: tl.constexpr):
    if signed:
        return _int_dtype(bitwidth)
    return (tl.uint8 if bitwidth == 8 else tl.uint16 if bitwidth == 16
            else tl.uint32 if bitwidth == 32 else tl.uint64)

def _indicator(n_dims: tl.constexpr, j: tl.constexpr):
    ar = tl.arange(0, 2)
    return tl.reshape(ar, [1] * (n_dims - j - 1) + [2] + [1] * j)

def _compare_and_swap(x, flip, i: tl.constexpr):
    # Along the i-th innermost dimension of the hypercube, each element's
    # partner is the xor of the pair with itself.
    n_dims: tl.constexpr = _log2(x.numel)
    idtype: tl.constexpr = _int_dtype(x.dtype.primitive_bitwidth)
    ix = x.to(idtype, bitcast=True)
    iy = ix ^ tl.xor_sum(ix, n_dims - 1 - i, True)
    y = iy.to(x.dtype, bitcast=True)
    is_right = _indicator(n_dims, i)
    return tl.where((x > y) != (flip ^ is_right), y, x)

def _bitonic_merge_hypercube(x, stage: tl.constexpr, order: tl.constexpr):
    # order 0: ascending, 1: descending, 2: alternating by `stage`.
    if order == 2:
        flip = _indicator(_log2(x.numel), stage)
    else:
        flip = order
    for i in tl.static_range(stage):
        x = _compare_and_swap(x, flip, stage - 1 - i)
    return x

def _sort_impl(x, k: tl.constexpr = None, dim: tl.constexpr = None,
               descending: tl.constexpr = 0):
    _dim: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(_dim == len(x.shape) - 1,
                     "only minor dimension is currently supported")
    log_n: tl.constexpr = _log2(x.shape[_dim])
    log_k: tl.constexpr = log_n if k is None else _log2(k)
    n_dims: tl.constexpr = _log2(x.numel)
    h = tl.reshape(x, [2] * n_dims if n_dims else [1])
    for i in tl.static_range(1, log_k + 1):
        h = _bitonic_merge_hypercube(h, i, 2 if i < log_n else descending)
    # The top k of each row: bitonic top-k, halving the row each step.
    for i in tl.static_range(log_k + 1, log_n + 1):
        if descending:
            h = tl.max(h, axis=_log2(h.numel) - 1 - log_k)
        else:
            h = tl.min(h, axis=_log2(h.numel) - 1 - log_k)
        h = _bitonic_merge_hypercube(h, log_k, 2 if i < log_n else descending)
    return tl.reshape(h, x.shape[:-1] + [2 ** log_k])

def _e2m1_values(n):
    # One e2m1 code (sign, 2 exponent bits with bias 1, 1 mantissa bit) per
    # element of `n` (0..15) as fp32: 0, 0.5, 1, 1.5, 2, 3, 4, 6, signed.
    e = ((n >> 1) & 3).to(tl.uint32)
    m = (n & 1).to(tl.uint32)
    normal = (((e + 126) << 23) | (m << 22)).to(tl.float32, bitcast=True)
    v = tl.where(e == 0, m.to(tl.float32) * 0.5, normal)
    return tl.where((n & 8) != 0, -v, v)

def _unpack_e2m1(x, axis: tl.constexpr):
    # Two e2m1 values per byte, the first in the low bits, packed along
    # `axis`: twice as many bf16 values (exact) along it.
    x = x.to(tl.uint8, bitcast=True)
    pairs = tl.join(_e2m1_values(x & 15).to(tl.bfloat16),
                    _e2m1_values(x >> 4).to(tl.bfloat16))
    if axis == 1:
        return tl.reshape(pairs, (x.shape[0], 2 * x.shape[1]))
    return tl.reshape(tl.permute(pairs, (0, 2, 1)), (2 * x.shape[0], x.shape[1]))

def _e8m0_values(s):
    # 2^(s - 127) as fp32 (s = 0 is 2^-127, a subnormal; 255 is NaN).
    s = s.to(tl.uint8, bitcast=True).to(tl.uint32)
    bits = tl.where(s == 0, 0x400000, tl.where(s == 255, 0x7FC00000, s << 23))
    return bits.to(tl.float32, bitcast=True)

def _scaled_operand(x, scale, format: tl.constexpr, k_pack: tl.constexpr,
                    k_axis: tl.constexpr):
    # An operand of dot_scaled (k_axis: 1 for lhs, 0 for rhs), each group
    # along K multiplied by its scale: the fp4 and fp8 formats in bf16
    # (their values and products with powers of two are exact there), the
    # 16-bit ones in fp32.
    tl.static_assert(format == "e2m1" or format == "e4m3" or format == "e5m2" or
                     format == "bf16" or format == "fp16",
                     "dot_scaled formats are e2m1, e4m3, e5m2, bf16 and fp16")
    if format == "e2m1":
        v = _unpack_e2m1(x, k_axis if k_pack else 1 - k_axis)
    elif format == "e4m3":
        v = x.to(tl.float8e4nv, bitcast=True).to(tl.bfloat16)
    elif format == "e5m2":
        v = x.to(tl.float8e5, bitcast=True).to(tl.bfloat16)
    else:
        v = x.to(tl.float32)
    if scale is None:
        return v
    K: tl.constexpr = v.shape[k_axis]
    rows: tl.constexpr = v.shape[1 - k_axis]
    # e8m0 scales per 32 elements (mx formats), or e4m3 ones per 16 (nvfp4).
    group: tl.constexpr = 16 if scale.dtype == tl.float8e4nv else 32
    tl.static_assert(scale.shape[0] == rows and scale.shape[1] * group == K,
                     "dot_scaled: a scale must be [M, K // group] for lhs and "
                     "[N, K // group] for rhs")
    if scale.dtype == tl.float8e4nv:
        f = scale.to(v.dtype)
    else:
        f = _e8m0_values(scale).to(v.dtype)
    f = tl.reshape(tl.broadcast_to(f[:, :, None], (rows, K // group, group)),
                   (rows, K))
    if k_axis == 0:
        f = tl.trans(f)
    return v * f

def dot_scaled(lhs, lhs_scale, lhs_format: tl.constexpr, rhs, rhs_scale,
               rhs_format: tl.constexpr, acc=None, fast_math: tl.constexpr = False,
               lhs_k_pack: tl.constexpr = True, rhs_k_pack: tl.constexpr = True,
               out_dtype: tl.constexpr = tl.float32):
    # Up-conversion, as Triton computes it where the tensor cores have no
    # block-scaled form (Hopper): both operands scaled in fp32 and rounded
    # to bf16 (exact for the fp4 and fp8 formats within bf16's range), or
    # kept fp16 when both are unscaled fp16; then tl.dot. fast_math allows
    # less care with NaN and infinite scales; this is exact either way.
    a = _scaled_operand(lhs, lhs_scale, lhs_format, lhs_k_pack, 1)
    b = _scaled_operand(rhs, rhs_scale, rhs_format, rhs_k_pack, 0)
    tl.static_assert(a.shape[1] == b.shape[0],
                     "dot_scaled: lhs and rhs differ in K once unpacked")
    both_fp16: tl.constexpr = (lhs_format == "fp16" and rhs_format == "fp16" and
                               lhs_scale is None and rhs_scale is None)
    compute: tl.constexpr = tl.float16 if both_fp16 else tl.bfloat16
    return tl.dot(a.to(compute), b.to(compute), acc, out_dtype=out_dtype)

def bitonic_merge(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    # A bitonic sequence along the last dimension (rising then falling, or
    # the reverse) merged into sorted order: the last stage of the sort.
    _dim: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(_dim == len(x.shape) - 1,
                     "only minor dimension is currently supported")
    n_dims: tl.constexpr = _log2(x.numel)
    h = tl.reshape(x, [2] * n_dims if n_dims else [1])
    h = _bitonic_merge_hypercube(h, _log2(x.shape[_dim]), descending)
    return tl.reshape(h, x.shape)

def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    return _sort_impl(x, None, dim, descending)

def topk(x, k: tl.constexpr, dim: tl.constexpr = None):
    return _sort_impl(x, k, dim, True)
)tile";

bool tilec::isLibraryBuiltin(llvm::StringRef name) {
  return llvm::is_contained(
      {"rand", "randn", "randint", "randint4x", "rand4x", "randn4x", "philox",
       "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal",
       "softmax", "swizzle2d", "sort", "topk", "dot_scaled", "bitonic_merge"},
      name);
}

const FunctionDef *Generator::libraryFunction(llvm::StringRef name) {
  if (!library) {
    llvm::SourceMgr &sm = diags.getSourceMgr();
    unsigned id = sm.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(kLibrary, "<triton.language library>"),
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

/// tl.dot_scaled's operands checked at the call (the library function
/// would report a misuse inside itself): the formats, 2-D operands whose K
/// agree once fp4 is unpacked, and uint8 scales of [rows, K / 32].
LogicalResult Generator::checkDotScaled(const ArgumentLookup &argument,
                                        llvm::SMLoc at) {
  struct Side {
    const Val *x, *scale, *format, *kPack;
    llvm::SMLoc xAt, scaleAt, formatAt;
    int64_t rows = 0, k = 0;
  };
  Side sides[2];
  const char *names[2][4] = {{"lhs", "lhs_scale", "lhs_format", "lhs_k_pack"},
                             {"rhs", "rhs_scale", "rhs_format", "rhs_k_pack"}};
  for (int i = 0; i < 2; ++i) {
    Side &side = sides[i];
    std::tie(side.x, side.xAt) = argument(3 * i, names[i][0]);
    std::tie(side.scale, side.scaleAt) = argument(3 * i + 1, names[i][1]);
    std::tie(side.format, side.formatAt) = argument(3 * i + 2, names[i][2]);
    side.kPack = argument(8 + i, names[i][3]).first;
    if (!side.x || !side.format)
      return success(); // the call's own binding reports what is missing
    static const char *kFormats[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};
    if (side.format->getKind() != Val::Kind::Str ||
        !llvm::is_contained(kFormats, side.format->getString()))
      return error(side.formatAt,
                   std::string("dot_scaled: ") + names[i][2] +
                       " must be one of 'e2m1', 'e4m3', 'e5m2', 'bf16', "
                       "'fp16', got " +
                       (side.format->isConstexpr() ? side.format->repr()
                                                   : side.format->describe()));
    if (!side.x->isRuntime() || side.x->getType().shape.size() != 2 ||
        side.x->getType().isPointer)
      return error(side.xAt, std::string("dot_scaled: ") + names[i][0] +
                                 " must be a 2-D block, got " +
                                 side.x->describe());
    bool fp4 = side.format->getString() == "e2m1";
    bool kPack = !side.kPack || side.kPack->truthy();
    auto shape = side.x->getType().shape;
    // lhs is [M, K], rhs [K, N]; fp4 holds two values per byte along K
    // (k_pack) or along M / N.
    int64_t k = i == 0 ? shape[1] : shape[0],
            rows = i == 0 ? shape[0] : shape[1];
    side.k = k * (fp4 && kPack ? 2 : 1);
    side.rows = rows * (fp4 && !kPack ? 2 : 1);
  }
  if (sides[0].k != sides[1].k)
    return error(at, "dot_scaled: lhs and rhs differ in K (" +
                         std::to_string(sides[0].k) + " and " +
                         std::to_string(sides[1].k) + " once fp4 is unpacked)");
  for (int i = 0; i < 2; ++i) {
    const Side &side = sides[i];
    if (!side.scale || side.scale->isNone())
      continue;
    const TileType *t =
        side.scale->isRuntime() ? &side.scale->getType() : nullptr;
    // uint8 e8m0 scales per 32 elements along K (mx), or fp8e4nv ones per
    // 16 (nvfp4).
    bool e4m3 = t && t->element == ScalarType::FP8E4M3;
    SmallVector<int64_t, 4> want = {side.rows, side.k / (e4m3 ? 16 : 32)};
    if (!t || t->isPointer || getBitWidth(t->element) != 8 ||
        (isFloat(t->element) && !e4m3) || t->shape != want)
      return error(side.scaleAt,
                   std::string("dot_scaled: ") + names[i][1] +
                       " must be None, a uint8 block of e8m0 scales of "
                       "shape " +
                       formatShape({side.rows, side.k / 32}) +
                       " or an fp8e4nv block of shape " +
                       formatShape({side.rows, side.k / 16}) + ", got " +
                       side.scale->describe());
  }
  return success();
}

FailureOr<Val> Generator::builtinLibrary(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  // An argument by position or keyword (null when not given).
  ArgumentLookup argument =
      [&](size_t index,
          llvm::StringRef keyword) -> std::pair<const Val *, llvm::SMLoc> {
    if (index < args.positional.size())
      return {&args.positional[index], args.positionalLocs[index]};
    for (size_t i = 0; i < args.keywords.size(); ++i)
      if (args.keywords[i].first == keyword)
        return {&args.keywords[i].second, args.keywordLocs[i]};
    return {nullptr, at};
  };
  // The generators take (seed, offset): an integer seed, as Triton
  // asserts, and 32-bit offsets (the counters of the 32-bit Philox).
  bool generator = name.starts_with("rand") || name == "philox";
  if (generator && !inLibrary()) {
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
  if ((name == "sort" || name == "topk") && !inLibrary() &&
      !args.positional.empty()) {
    const Val &x = args.positional[0];
    llvm::SMLoc xAt = args.positionalLocs[0];
    if (!x.isRuntime() || !x.getType().isBlock() || x.getType().isPointer ||
        x.getType().isBlockPointer || x.getType().element == ScalarType::I1)
      return error(xAt, name + " needs a block of numbers, got " +
                            x.describe());
    int64_t rank = x.getType().shape.size();
    int64_t last = x.getType().shape.back();
    auto [dim, dimAt] = argument(name == "sort" ? 1 : 2, "dim");
    if (dim && !dim->isNone() &&
        (dim->getKind() != Val::Kind::Int ||
         (dim->getInt() < 0 ? dim->getInt() + rank : dim->getInt()) !=
             rank - 1))
      return error(dimAt, name + " sorts along the last dimension only "
                                 "(dim=None or " +
                              std::to_string(rank - 1) + "), got " +
                              (dim->isConstexpr() ? dim->repr()
                                                  : dim->describe()));
    auto [k, kAt] = argument(1, "k");
    if (name == "topk" && k &&
        (k->getKind() != Val::Kind::Int || k->getInt() < 1 ||
         k->getInt() > last || !llvm::isPowerOf2_64(k->getInt())))
      return error(kAt, "topk's k must be a power of two from 1 to " +
                            std::to_string(last) + ", got " +
                            (k->isConstexpr() ? k->repr() : k->describe()));
  }
  if (name == "dot_scaled" && !inLibrary() &&
      failed(checkDotScaled(argument, at)))
    return failure();
  const FunctionDef *fn = libraryFunction(name);
  if (!fn)
    return error(at, "internal error: the built-in library has no '" + name +
                         "'");
  recordBuiltinSignature(name, [&] {
    std::vector<std::string> params;
    unsigned numRequired = 0;
    for (const Param &p : fn->params) {
      params.push_back(p.name);
      numRequired += !p.defaultValue;
    }
    return formatBuiltinParams(params, numRequired);
  });
  return callHelper(*fn, args, at);
}
