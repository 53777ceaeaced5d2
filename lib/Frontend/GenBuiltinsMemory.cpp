//===- GenBuiltinsMemory.cpp - load, store, atomics, block pointers -------===//
//
// Also Triton's tensor descriptors, which are block pointers here.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace tilec;
using namespace mlir;

static std::optional<tile::CacheModifier> parseCache(llvm::StringRef s) {
  s.consume_front(".");
  return llvm::StringSwitch<std::optional<tile::CacheModifier>>(s)
      .Case("", tile::CacheModifier::none)
      .Case("ca", tile::CacheModifier::ca)
      .Case("cg", tile::CacheModifier::cg)
      .Case("cs", tile::CacheModifier::cs)
      .Case("cv", tile::CacheModifier::cv)
      .Case("wb", tile::CacheModifier::wb)
      .Case("wt", tile::CacheModifier::wt)
      .Default(std::nullopt);
}

static std::optional<tile::EvictionPolicy> parseEvict(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<tile::EvictionPolicy>>(s)
      .Cases({"", "evict_normal", "normal"}, tile::EvictionPolicy::normal)
      .Case("evict_first", tile::EvictionPolicy::evict_first)
      .Case("evict_last", tile::EvictionPolicy::evict_last)
      .Default(std::nullopt);
}

namespace {
/// Cache and eviction options shared by load and store.
struct MemoryOptions {
  tile::CacheModifier cache = tile::CacheModifier::none;
  tile::EvictionPolicy evict = tile::EvictionPolicy::normal;
};
} // namespace

static FailureOr<MemoryOptions> parseMemoryOptions(Generator &gen,
                                                   const BoundArgs &b,
                                                   size_t cacheIndex,
                                                   size_t evictIndex,
                                                   llvm::SMLoc at) {
  MemoryOptions options;
  FailureOr<std::string> cache =
      gen.requireString(b[cacheIndex], b.loc(cacheIndex, at), "cache_modifier");
  FailureOr<std::string> evict = gen.requireString(
      b[evictIndex], b.loc(evictIndex, at), "eviction_policy");
  if (failed(cache) || failed(evict))
    return failure();
  auto c = parseCache(*cache);
  if (!c) {
    return gen.error(b.loc(cacheIndex, at),
              "unknown cache_modifier '" + *cache +
                  "'; expected one of '', '.ca', '.cg', '.cs', '.cv', '.wb', "
                  "'.wt'");
  }
  auto e = parseEvict(*evict);
  if (!e) {
    return gen.error(b.loc(evictIndex, at),
              "unknown eviction_policy '" + *evict +
                  "'; expected '', 'evict_first' or 'evict_last'");
  }
  options.cache = *c;
  options.evict = *e;
  return options;
}

static FailureOr<SmallVector<int32_t>>
parseBoundaryCheck(Generator &gen, const std::optional<Val> &v, int64_t rank,
                   llvm::SMLoc at) {
  SmallVector<int32_t> dims;
  if (!v || v->isNone())
    return dims;
  if (v->isTuple() && v->getElements().empty())
    return dims;
  FailureOr<SmallVector<int64_t, 4>> list =
      gen.requireIntList(v, at, "boundary_check");
  if (failed(list))
    return failure();
  for (int64_t d : *list) {
    if (d < 0 || d >= rank) {
      return gen.error(at, "boundary_check dimension " + std::to_string(d) +
                        " out of range for a rank-" + std::to_string(rank) +
                        " block");
    }
    if (llvm::is_contained(dims, d)) {
      return gen.error(at, "boundary_check repeats dimension " + std::to_string(d));
    }
    dims.push_back(d);
  }
  return dims;
}

static bool isPointer(const Val &v) {
  return v.isRuntime() && v.getType().isPointer;
}
/// A make_block_ptr value (not a tensor descriptor, which loads and stores
/// through its own methods).
static bool isBlockPointer(const Val &v) {
  return v.isRuntime() && v.getType().isBlockPointer &&
         !v.getType().isDescriptor;
}
static bool isDescriptor(const Val &v) {
  return v.isRuntime() && v.getType().isDescriptor;
}
/// The end of a message about a descriptor where a pointer was expected.
static std::string descriptorAdvice(const Val &v) {
  return isDescriptor(v) ? "; a tensor descriptor is read and written by "
                           "desc.load(offsets) and desc.store(offsets, value)"
                         : "";
}

/// A mask operand: a boolean scalar or block (constexpr bools allowed).
static FailureOr<Val> requireMask(Generator &gen, const Val &v,
                                  llvm::SMLoc at) {
  if (v.getKind() == Val::Kind::Bool)
    return gen.materialize(v, at, ScalarType::I1);
  if (!v.isRuntime() || v.getType().isPointer ||
      v.getType().element != ScalarType::I1) {
    return gen.error(at, "mask must be a boolean (e.g. a comparison), got " +
                      v.describe());
  }
  return v;
}

/// Convert a stored or loaded value to the pointee element type.
static FailureOr<Val> toElement(Generator &gen, const Val &v, ScalarType elem,
                                llvm::SMLoc at, llvm::StringRef what) {
  if (v.isNumber())
    return gen.materialize(v, at, elem);
  if (!v.isRuntime() || v.getType().isPointer || v.getType().isBlockPointer) {
    return gen.error(at, what + " must be a number or a block of numbers, got " +
                      v.describe());
  }
  return gen.cast(v, elem, at);
}

FailureOr<Val> Generator::builtinLoad(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind(
      "load",
      {"pointer", "mask", "other", "boundary_check", "padding_option",
       "cache_modifier", "eviction_policy", "volatile"},
      1, args, at);
  if (failed(b))
    return failure();
  const Val &ptr = *(*b)[0];
  FailureOr<MemoryOptions> options = parseMemoryOptions(*this, *b, 5, 6, at);
  if (failed(options))
    return failure();
  FailureOr<std::string> padding =
      requireString((*b)[4], b->loc(4, at), "padding_option");
  if (failed(padding))
    return failure();
  if (isBlockPointer(ptr)) {
    if (b->has(1) || b->has(2))
      return error(b->loc(b->has(1) ? 1 : 2, at),
                   "mask and other are not allowed with a block pointer; use "
                   "boundary_check");
    const TileType &t = ptr.getType();
    FailureOr<SmallVector<int32_t>> check =
        parseBoundaryCheck(*this, (*b)[3], t.shape.size(), b->loc(3, at));
    if (failed(check))
      return failure();
    tile::PaddingOption pad = tile::PaddingOption::zero;
    if (*padding == "nan") {
      if (!isFloat(t.element))
        return error(b->loc(4, at), "padding_option 'nan' needs a "
                                            "floating-point block");
      pad = tile::PaddingOption::nan;
    } else if (!padding->empty() && *padding != "zero") {
      return error(b->loc(4, at), "unknown padding_option '" +
                                              *padding +
                                              "'; expected 'zero' or 'nan'");
    }
    TileType result = t;
    result.isBlockPointer = false;
    auto op = tile::BlockLoadOp::create(
        builder, loc(at), mlirType(result), ptr.getValue(),
        builder.getDenseI32ArrayAttr(*check), pad, options->cache,
        options->evict);
    return Val::runtime(op.getResult(), result);
  }
  if (!isPointer(ptr))
    return error(b->loc(0, at), "load() needs a pointer or a block of "
                                "pointers, got " +
                                    ptr.describe() + descriptorAdvice(ptr));
  if (b->has(3) && !(*b)[3]->isTuple())
    return error(b->loc(3, at),
                         "boundary_check needs a block pointer (make_block_ptr)");
  if (b->has(3) && !(*b)[3]->getElements().empty())
    return error(b->loc(3, at),
                         "boundary_check needs a block pointer (make_block_ptr)");
  if (!padding->empty())
    return error(b->loc(4, at),
                         "padding_option needs a block pointer (make_block_ptr)");
  ScalarType elem = ptr.getType().element;
  SmallVector<int64_t, 4> shape(ptr.getType().shape);
  std::optional<Val> mask, other;
  if (b->has(1)) {
    FailureOr<Val> m = requireMask(*this, *(*b)[1], b->loc(1, at));
    if (failed(m))
      return failure();
    mask = *m;
    auto s = broadcastShapes(shape, m->getType().shape);
    if (!s)
      return error(b->loc(1, at),
                           "mask shape " + formatShape(m->getType().shape) +
                               " does not broadcast with pointer shape " +
                               formatShape(shape));
    shape = *s;
  }
  if (b->has(2)) {
    if (!mask)
      return error(b->loc(2, at), "'other' needs a mask");
    FailureOr<Val> o = toElement(*this, *(*b)[2], elem, b->loc(2, at), "other");
    if (failed(o))
      return failure();
    other = *o;
    auto s = broadcastShapes(shape, o->getType().shape);
    if (!s)
      return error(b->loc(2, at),
                           "'other' shape " + formatShape(o->getType().shape) +
                               " does not broadcast with pointer shape " +
                               formatShape(shape));
    shape = *s;
  }
  FailureOr<Val> p = broadcastTo(ptr, shape, at);
  if (failed(p))
    return failure();
  mlir::Value maskValue, otherValue;
  if (mask) {
    FailureOr<Val> m = broadcastTo(*mask, shape, at);
    if (failed(m))
      return failure();
    maskValue = m->getValue();
  }
  if (other) {
    FailureOr<Val> o = broadcastTo(*other, shape, at);
    if (failed(o))
      return failure();
    otherValue = o->getValue();
  }
  bool isVolatile = b->has(7) && (*b)[7]->truthy();
  TileType result = p->getType().withElement(elem);
  auto op = tile::LoadOp::create(builder, loc(at), mlirType(result),
                                 p->getValue(), maskValue, otherValue,
                                 options->cache, options->evict, isVolatile);
  return Val::runtime(op.getResult(), result);
}

FailureOr<Val> Generator::builtinStore(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("store",
                                {"pointer", "value", "mask", "boundary_check",
                                 "cache_modifier", "eviction_policy"},
                                2, args, at);
  if (failed(b))
    return failure();
  const Val &ptr = *(*b)[0];
  FailureOr<MemoryOptions> options = parseMemoryOptions(*this, *b, 4, 5, at);
  if (failed(options))
    return failure();
  if (isBlockPointer(ptr)) {
    if (b->has(2))
      return error(b->loc(2, at), "mask is not allowed with a block pointer; "
                                  "use boundary_check");
    const TileType &t = ptr.getType();
    FailureOr<SmallVector<int32_t>> check =
        parseBoundaryCheck(*this, (*b)[3], t.shape.size(), b->loc(3, at));
    if (failed(check))
      return failure();
    FailureOr<Val> v =
        toElement(*this, *(*b)[1], t.element, b->loc(1, at), "value");
    if (failed(v))
      return failure();
    FailureOr<Val> shaped = broadcastTo(*v, t.shape, b->loc(1, at));
    if (failed(shaped))
      return failure();
    tile::BlockStoreOp::create(builder, loc(at), ptr.getValue(),
                               shaped->getValue(),
                               builder.getDenseI32ArrayAttr(*check),
                               options->cache, options->evict);
    return Val::none();
  }
  if (!isPointer(ptr))
    return error(b->loc(0, at), "store() needs a pointer or a block of "
                                "pointers, got " +
                                    ptr.describe() + descriptorAdvice(ptr));
  if (b->has(3))
    return error(b->loc(3, at),
                         "boundary_check needs a block pointer (make_block_ptr)");
  ScalarType elem = ptr.getType().element;
  FailureOr<Val> value =
      toElement(*this, *(*b)[1], elem, b->loc(1, at), "value");
  if (failed(value))
    return failure();
  if (ptr.getType().isScalar() && !value->getType().isScalar())
    return error(b->loc(1, at), "cannot store " + value->describe() +
                                            " through a scalar pointer");
  SmallVector<int64_t, 4> shape(ptr.getType().shape);
  auto s = broadcastShapes(shape, value->getType().shape);
  if (!s)
    return error(b->loc(1, at), "value shape " +
                                            formatShape(value->getType().shape) +
                                            " does not broadcast with pointer "
                                            "shape " +
                                            formatShape(shape));
  shape = *s;
  std::optional<Val> mask;
  if (b->has(2)) {
    FailureOr<Val> m = requireMask(*this, *(*b)[2], b->loc(2, at));
    if (failed(m))
      return failure();
    mask = *m;
    auto s2 = broadcastShapes(shape, m->getType().shape);
    if (!s2)
      return error(b->loc(2, at),
                           "mask shape " + formatShape(m->getType().shape) +
                               " does not broadcast with pointer shape " +
                               formatShape(shape));
    shape = *s2;
  }
  FailureOr<Val> p = broadcastTo(ptr, shape, at);
  FailureOr<Val> v = broadcastTo(*value, shape, at);
  if (failed(p) || failed(v))
    return failure();
  mlir::Value maskValue;
  if (mask) {
    FailureOr<Val> m = broadcastTo(*mask, shape, at);
    if (failed(m))
      return failure();
    maskValue = m->getValue();
  }
  tile::StoreOp::create(builder, loc(at), p->getValue(), v->getValue(),
                        maskValue, options->cache, options->evict);
  return Val::none();
}

FailureOr<Val> Generator::builtinAtomic(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  auto kind = llvm::StringSwitch<std::optional<tile::AtomicKind>>(name)
                  .Case("atomic_add", tile::AtomicKind::add)
                  .Case("atomic_max", tile::AtomicKind::max)
                  .Case("atomic_min", tile::AtomicKind::min)
                  .Case("atomic_xchg", tile::AtomicKind::xchg)
                  .Case("atomic_and", tile::AtomicKind::band)
                  .Case("atomic_or", tile::AtomicKind::bor)
                  .Case("atomic_xor", tile::AtomicKind::bxor)
                  .Case("atomic_cas", tile::AtomicKind::cas)
                  .Default(std::nullopt);
  if (!kind)
    return error(at, "built-in '" + name + "' is not supported yet");
  // atomic_cas(pointer, cmp, val, sem, scope): the compare value takes the
  // mask's place among the bound arguments below, in front of val.
  bool cas = *kind == tile::AtomicKind::cas;
  FailureOr<BoundArgs> b =
      cas ? bind(name, {"pointer", "cmp", "val", "sem", "scope"}, 3, args, at)
          : bind(name, {"pointer", "val", "mask", "sem", "scope"}, 2, args, at);
  if (failed(b))
    return failure();
  if (cas) { // now pointer, val, cmp
    std::swap(b->values[1], b->values[2]);
    std::swap(b->locs[1], b->locs[2]);
  }
  const Val &ptr = *(*b)[0];
  if (!isPointer(ptr))
    return error(b->loc(0, at), name + " needs a pointer or a block of "
                                               "pointers, got " +
                                               ptr.describe());
  for (size_t i : {3, 4}) {
    FailureOr<std::string> s =
        requireString((*b)[i], b->loc(i, at), i == 3 ? "sem" : "scope");
    if (failed(s))
      return failure();
    bool ok = i == 3 ? (s->empty() || *s == "acq_rel" || *s == "relaxed" ||
                        *s == "acquire" || *s == "release")
                     : (s->empty() || *s == "gpu" || *s == "cta" || *s == "sys");
    if (!ok)
      return error(b->loc(i, at), "unknown " +
                                              std::string(i == 3 ? "sem"
                                                                 : "scope") +
                                              " '" + *s + "'");
  }
  ScalarType elem = ptr.getType().element;
  bool fp = isFloat(elem);
  bool supported =
      cas ? getBitWidth(elem) == 32 || getBitWidth(elem) == 64
      : getBitWidth(elem) >= 32
          ? (!fp || *kind == tile::AtomicKind::add ||
             *kind == tile::AtomicKind::xchg ||
             *kind == tile::AtomicKind::max || *kind == tile::AtomicKind::min)
          : (*kind == tile::AtomicKind::add &&
             (elem == ScalarType::F16 || elem == ScalarType::BF16));
  if (!supported)
    return error(at, name + " on " + getName(elem).str() +
                                 " is not supported");
  FailureOr<Val> value = toElement(*this, *(*b)[1], elem, b->loc(1, at), "val");
  if (failed(value))
    return failure();
  SmallVector<int64_t, 4> shape(ptr.getType().shape);
  auto s = broadcastShapes(shape, value->getType().shape);
  if (!s || (ptr.getType().isScalar() && !value->getType().isScalar()))
    return error(b->loc(1, at), "value shape does not match the "
                                        "pointer shape");
  shape = *s;
  std::optional<Val> compare;
  if (cas) {
    FailureOr<Val> c =
        toElement(*this, *(*b)[2], elem, b->loc(2, at), "cmp");
    if (failed(c))
      return failure();
    auto s2 = broadcastShapes(shape, c->getType().shape);
    if (!s2 || (ptr.getType().isScalar() && !c->getType().isScalar()))
      return error(b->loc(2, at), "compare value shape does not match the "
                                  "pointer shape");
    shape = *s2;
    compare = *c;
  }
  mlir::Value maskValue;
  if (!cas && b->has(2)) {
    FailureOr<Val> m = requireMask(*this, *(*b)[2], b->loc(2, at));
    if (failed(m))
      return failure();
    auto s2 = broadcastShapes(shape, m->getType().shape);
    if (!s2)
      return error(b->loc(2, at), "mask shape does not broadcast with "
                                          "the pointer shape");
    shape = *s2;
    FailureOr<Val> mb = broadcastTo(*m, shape, at);
    if (failed(mb))
      return failure();
    maskValue = mb->getValue();
  }
  FailureOr<Val> p = broadcastTo(ptr, shape, at);
  FailureOr<Val> v = broadcastTo(*value, shape, at);
  if (failed(p) || failed(v))
    return failure();
  mlir::Value cmpValue;
  if (compare) {
    FailureOr<Val> c = broadcastTo(*compare, shape, at);
    if (failed(c))
      return failure();
    cmpValue = c->getValue();
  }
  // Unsigned integers compare as such (Triton's umax and umin).
  if (isUnsigned(elem) && *kind == tile::AtomicKind::max)
    kind = tile::AtomicKind::umax;
  if (isUnsigned(elem) && *kind == tile::AtomicKind::min)
    kind = tile::AtomicKind::umin;
  TileType result = p->getType().withElement(elem);
  auto op = tile::AtomicRMWOp::create(builder, loc(at), mlirType(result),
                                      *kind, p->getValue(), v->getValue(),
                                      maskValue, cmpValue);
  return Val::runtime(op.getResult(), result);
}

/// A tuple of scalar integers (run-time or constexpr) converted to `t`.
static FailureOr<SmallVector<mlir::Value>>
intTuple(Generator &gen, const std::optional<Val> &v, ScalarType t,
         llvm::SMLoc at, llvm::StringRef what) {
  SmallVector<mlir::Value> values;
  if (!v || !v->isTuple()) {
    return gen.error(at, what + " must be a tuple of integers, got " +
                      (v ? v->describe() : std::string("nothing")));
  }
  for (const Val &e : v->getElements()) {
    FailureOr<mlir::Value> x = gen.scalarIndex(e, t, at, what);
    if (failed(x))
      return failure();
    values.push_back(*x);
  }
  return values;
}

FailureOr<Val> Generator::builtinMakeBlockPtr(const CallArgs &args,
                                              llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind(
      "make_block_ptr",
      {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6, args,
      at);
  if (failed(b))
    return failure();
  const Val &base = *(*b)[0];
  if (!isPointer(base) || !base.getType().isScalar())
    return error(b->loc(0, at), "make_block_ptr needs a scalar pointer "
                                        "base, got " +
                                            base.describe());
  FailureOr<SmallVector<mlir::Value>> shape =
      intTuple(*this, (*b)[1], ScalarType::I64, b->loc(1, at), "shape");
  FailureOr<SmallVector<mlir::Value>> strides =
      intTuple(*this, (*b)[2], ScalarType::I64, b->loc(2, at), "strides");
  FailureOr<SmallVector<mlir::Value>> offsets =
      intTuple(*this, (*b)[3], ScalarType::I32, b->loc(3, at), "offsets");
  if (failed(shape) || failed(strides) || failed(offsets))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> blockShape =
      requireIntList((*b)[4], b->loc(4, at), "block_shape");
  FailureOr<SmallVector<int64_t, 4>> order =
      requireIntList((*b)[5], b->loc(5, at), "order");
  if (failed(blockShape) || failed(order))
    return failure();
  size_t rank = blockShape->size();
  if (shape->size() != rank || strides->size() != rank ||
      offsets->size() != rank || order->size() != rank)
    return error(at, "make_block_ptr: shape, strides, offsets, "
                             "block_shape and order must have the same "
                             "length");
  if (failed(checkBlockShape(*blockShape, b->loc(4, at))))
    return failure();
  SmallVector<int32_t> order32;
  SmallVector<bool> seen(rank, false);
  for (int64_t d : *order) {
    if (d < 0 || d >= static_cast<int64_t>(rank) || seen[d])
      return error(b->loc(5, at), "order must be a permutation of the "
                                          "dimensions");
    seen[d] = true;
    order32.push_back(d);
  }
  TileType t;
  t.element = base.getType().element;
  t.isBlockPointer = true;
  t.shape = *blockShape;
  auto op = tile::MakeBlockPtrOp::create(
      builder, loc(at), mlirType(t), base.getValue(), *shape, *strides,
      *offsets, builder.getDenseI32ArrayAttr(order32));
  return Val::runtime(op.getResult(), t);
}

FailureOr<Val> Generator::builtinAdvance(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("advance", {"base", "offsets"}, 2, args, at);
  if (failed(b))
    return failure();
  const Val &ptr = *(*b)[0];
  if (!isBlockPointer(ptr))
    return error(b->loc(0, at), "advance() needs a block pointer, got " +
                                            ptr.describe());
  FailureOr<SmallVector<mlir::Value>> offsets =
      intTuple(*this, (*b)[1], ScalarType::I32, b->loc(1, at), "offsets");
  if (failed(offsets))
    return failure();
  if (offsets->size() != ptr.getType().shape.size())
    return error(b->loc(1, at), "advance() needs " +
                                            std::to_string(
                                                ptr.getType().shape.size()) +
                                            " offsets");
  auto op = tile::AdvanceOp::create(builder, loc(at), ptr.getValue(), *offsets);
  return Val::runtime(op.getResult(), ptr.getType());
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::builtinMakeTensorDescriptor(const CallArgs &args,
                                                      llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("make_tensor_descriptor",
           {"base", "shape", "strides", "block_shape", "padding_option"}, 4,
           args, at);
  if (failed(b))
    return failure();
  const Val &base = *(*b)[0];
  if (!isPointer(base) || !base.getType().isScalar())
    return error(b->loc(0, at), "make_tensor_descriptor needs a scalar "
                                "pointer base, got " +
                                    base.describe());
  if (!(*b)[1]->isTuple() || !(*b)[2]->isTuple())
    return error(at, "make_tensor_descriptor: shape and strides must be "
                     "lists of integers");
  size_t rank = (*b)[1]->getElements().size();
  if (rank < 1 || rank > 5)
    return error(b->loc(1, at), "a tensor descriptor has 1 to 5 dimensions, "
                                "got " +
                                    std::to_string(rank));
  FailureOr<SmallVector<int64_t, 4>> blockShape =
      requireIntList((*b)[3], b->loc(3, at), "block_shape");
  if (failed(blockShape))
    return failure();
  if ((*b)[2]->getElements().size() != rank || blockShape->size() != rank)
    return error(at, "make_tensor_descriptor: shape, strides and block_shape "
                     "must have the same length");
  if (failed(checkBlockShape(*blockShape, b->loc(3, at))))
    return failure();
  ScalarType elem = base.getType().element;
  int64_t elemBytes = std::max<int64_t>(1, getBitWidth(elem) / 8);
  if (blockShape->back() * elemBytes < 16)
    return error(b->loc(3, at),
                 "a tensor descriptor's block needs at least 16 bytes in its "
                 "last dimension, got " +
                     std::to_string(blockShape->back()) + " x " +
                     std::to_string(elemBytes) + " bytes");
  const Val &lastStride = (*b)[2]->getElements().back();
  if (lastStride.getKind() != Val::Kind::Int || lastStride.getInt() != 1)
    return error(b->loc(2, at),
                 "a tensor descriptor's last stride must be "
                 "the constant 1, got " +
                     (lastStride.isConstexpr() ? lastStride.repr()
                                               : lastStride.describe()));
  bool padWithNan = false;
  if (b->has(4)) {
    FailureOr<std::string> padding =
        requireString((*b)[4], b->loc(4, at), "padding_option");
    if (failed(padding))
      return failure();
    if (*padding == "nan") {
      if (!isFloat(elem))
        return error(b->loc(4, at), "padding_option 'nan' needs a "
                                    "floating-point descriptor");
      padWithNan = true;
    } else if (*padding != "zero") {
      return error(b->loc(4, at), "unknown padding_option '" + *padding +
                                      "'; expected 'zero' or 'nan'");
    }
  }
  FailureOr<SmallVector<mlir::Value>> shape =
      intTuple(*this, (*b)[1], ScalarType::I64, b->loc(1, at), "shape");
  FailureOr<SmallVector<mlir::Value>> strides =
      intTuple(*this, (*b)[2], ScalarType::I64, b->loc(2, at), "strides");
  if (failed(shape) || failed(strides))
    return failure();
  // Triton hands descriptors to the TMA unit, which needs a 16-byte aligned
  // base and strides of whole 16-byte units; stating the same facts lets
  // every row move in 16-byte accesses here too.
  auto base16 = tile::HintOp::create(builder, loc(at), base.getValue());
  base16.setMultipleOfAttr(builder.getDenseI32ArrayAttr({16}));
  int32_t strideUnit = std::max<int64_t>(1, 16 / elemBytes);
  for (size_t d = 0; d + 1 < rank; ++d) {
    if ((*b)[2]->getElements()[d].isConstexpr())
      continue;
    auto hint = tile::HintOp::create(builder, loc(at), (*strides)[d]);
    hint.setMultipleOfAttr(builder.getDenseI32ArrayAttr({strideUnit}));
    (*strides)[d] = hint.getResult();
  }
  SmallVector<mlir::Value> offsets(rank,
                                   intConstant(0, builder.getI32Type(), at));
  SmallVector<int32_t> order;
  for (size_t d = rank; d-- > 0;)
    order.push_back(d);
  TileType t;
  t.element = elem;
  t.isBlockPointer = true;
  t.isDescriptor = true;
  t.padWithNan = padWithNan;
  t.shape = *blockShape;
  auto op = tile::MakeBlockPtrOp::create(
      builder, loc(at), mlirType(t), base16.getResult(), *shape, *strides,
      offsets, builder.getDenseI32ArrayAttr(order));
  return Val::runtime(op.getResult(), t);
}

/// The block pointer of `desc`'s block at `offsets`, and a boundary check of
/// every dimension.
static FailureOr<mlir::Value>
descriptorBlock(Generator &gen, mlir::OpBuilder &builder, llvm::StringRef fn,
                const BoundArgs &b, llvm::SMLoc at) {
  const Val &desc = *b[0];
  if (!isDescriptor(desc))
    return gen.error(b.loc(0, at), fn +
                                       " needs a tensor descriptor "
                                       "(make_tensor_descriptor), got " +
                                       desc.describe());
  FailureOr<SmallVector<mlir::Value>> offsets =
      intTuple(gen, b[1], ScalarType::I32, b.loc(1, at), "offsets");
  if (failed(offsets))
    return failure();
  size_t rank = desc.getType().shape.size();
  if (offsets->size() != rank)
    return gen.error(b.loc(1, at), fn + " needs " + std::to_string(rank) +
                                       " offsets, got " +
                                       std::to_string(offsets->size()));
  return tile::AdvanceOp::create(builder, gen.loc(at), desc.getValue(),
                                 *offsets)
      .getResult();
}

static DenseI32ArrayAttr everyDimension(mlir::OpBuilder &builder, size_t rank) {
  SmallVector<int32_t> dims;
  for (size_t d = 0; d < rank; ++d)
    dims.push_back(d);
  return builder.getDenseI32ArrayAttr(dims);
}

FailureOr<Val> Generator::builtinDescriptorLoad(const CallArgs &args,
                                                llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("load_tensor_descriptor", {"desc", "offsets"}, 2, args, at);
  if (failed(b))
    return failure();
  FailureOr<mlir::Value> block =
      descriptorBlock(*this, builder, "desc.load()", *b, at);
  if (failed(block))
    return failure();
  TileType result = (*b)[0]->getType();
  tile::PaddingOption pad =
      result.padWithNan ? tile::PaddingOption::nan : tile::PaddingOption::zero;
  result.isBlockPointer = result.isDescriptor = result.padWithNan = false;
  auto op = tile::BlockLoadOp::create(
      builder, loc(at), mlirType(result), *block,
      everyDimension(builder, result.shape.size()), pad,
      tile::CacheModifier::none, tile::EvictionPolicy::normal);
  op.setDescriptor(true);
  return Val::runtime(op.getResult(), result);
}

FailureOr<Val> Generator::builtinDescriptorStore(const CallArgs &args,
                                                 llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("store_tensor_descriptor",
                                {"desc", "offsets", "value"}, 3, args, at);
  if (failed(b))
    return failure();
  FailureOr<mlir::Value> block =
      descriptorBlock(*this, builder, "desc.store()", *b, at);
  if (failed(block))
    return failure();
  const TileType &t = (*b)[0]->getType();
  const Val &value = *(*b)[2];
  if (!value.isRuntime() || value.getType().shape != t.shape)
    return error(b->loc(2, at), "desc.store() needs a value of the "
                                "descriptor's block shape " +
                                    formatShape(t.shape) + ", got " +
                                    value.describe());
  FailureOr<Val> v = toElement(*this, value, t.element, b->loc(2, at), "value");
  if (failed(v))
    return failure();
  auto store = tile::BlockStoreOp::create(
      builder, loc(at), *block, v->getValue(),
      everyDimension(builder, t.shape.size()), tile::CacheModifier::none,
      tile::EvictionPolicy::normal);
  store.setDescriptor(true);
  return Val::none();
}
