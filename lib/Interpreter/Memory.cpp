//===- Memory.cpp - Loads, stores, atomics and block pointers on the CPU --===//

#include "Machine.h"
#include "Numerics.h"

#include <cstring>

#include "tile/Dialect/Tile/TileDialect.h"

using namespace mlir;
using namespace tilec::interp;

/// True where element `i` is enabled by an optional mask.
static bool enabled(const Tensor *mask, int64_t i) {
  return !mask || mask->ints[mask->ints.size() == 1 ? 0 : i] != 0;
}

/// Whether two values of a 32- or 64-bit float element type have the same
/// bits in memory.
static bool sameBits(Type elem, double a, double b) {
  if (elem.getIntOrFloatBitWidth() == 32)
    return floatBits(float(a)) == floatBits(float(b));
  uint64_t ba, bb;
  std::memcpy(&ba, &a, sizeof(double));
  std::memcpy(&bb, &b, sizeof(double));
  return ba == bb;
}

namespace {
/// The element addresses of a block pointer's block, and which are inside
/// the tensor on the checked dimensions.
struct BlockAddresses {
  std::vector<int64_t> offsets; // bytes
  std::vector<bool> inBounds;
};
} // namespace

static BlockAddresses blockAddresses(const BlockPointer &bp,
                                     ArrayRef<int64_t> blockShape,
                                     ArrayRef<int32_t> checked, Type elem) {
  BlockAddresses result;
  int64_t n = 1;
  for (int64_t d : blockShape)
    n *= d;
  int64_t bytes = elementBytes(elem);
  SmallVector<int64_t, 4> idx(blockShape.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, offset = bp.base;
    bool inside = true;
    for (int d = static_cast<int>(blockShape.size()) - 1; d >= 0; --d) {
      int64_t pos = bp.offsets[d] + rest % blockShape[d];
      rest /= blockShape[d];
      offset += pos * bp.strides[d] * bytes;
      if (llvm::is_contained(checked, d) && (pos < 0 || pos >= bp.shape[d]))
        inside = false;
    }
    result.offsets.push_back(offset);
    result.inBounds.push_back(inside);
  }
  return result;
}

LogicalResult Machine::executeMemory(Operation *op, bool &handled) {
  handled = true;
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    const Tensor &p = *get(load.getPtr());
    const Tensor *mask = load.getMask() ? get(load.getMask()).get() : nullptr;
    const Tensor *other = load.getOther() ? get(load.getOther()).get() : nullptr;
    TensorRef r = makeForType(load.getType());
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      if (!enabled(mask, i)) {
        if (other) {
          if (r->isFloat())
            r->floats[i] = other->floats[i];
          else
            r->ints[i] = other->ints[i];
        }
        continue;
      }
      if (!checkAccess(op, p.buffers[i], p.ints[i], r->elem, "load"))
        return failure();
      if (r->isFloat())
        r->floats[i] = loadFloat(p.buffers[i], p.ints[i], r->elem);
      else
        r->ints[i] = loadInt(p.buffers[i], p.ints[i], r->elem);
    }
    set(load.getResult(), r);
    return success();
  }
  if (auto store = dyn_cast<tile::StoreOp>(op)) {
    const Tensor &p = *get(store.getPtr()), &v = *get(store.getValue());
    const Tensor *mask = store.getMask() ? get(store.getMask()).get() : nullptr;
    for (int64_t i = 0, e = p.numel(); i < e; ++i) {
      if (!enabled(mask, i))
        continue;
      if (!checkAccess(op, p.buffers[i], p.ints[i], v.elem, "store"))
        return failure();
      if (v.isFloat())
        storeFloat(p.buffers[i], p.ints[i], v.elem, v.floats[i]);
      else
        storeInt(p.buffers[i], p.ints[i], v.elem, v.ints[i]);
    }
    return success();
  }
  if (auto atomic = dyn_cast<tile::AtomicRMWOp>(op)) {
    const Tensor &p = *get(atomic.getPtr()), &v = *get(atomic.getVal());
    const Tensor *mask = atomic.getMask() ? get(atomic.getMask()).get() : nullptr;
    const Tensor *cmp = atomic.getCmp() ? get(atomic.getCmp()).get() : nullptr;
    TensorRef old = makeForType(atomic.getType());
    for (int64_t i = 0, e = p.numel(); i < e; ++i) {
      if (!enabled(mask, i))
        continue;
      if (!checkAccess(op, p.buffers[i], p.ints[i], v.elem, "atomic"))
        return failure();
      int32_t b = p.buffers[i];
      int64_t off = p.ints[i];
      if (v.isFloat()) {
        double cur = loadFloat(b, off, v.elem), x = v.floats[i], next = x;
        switch (atomic.getKind()) {
        case tile::AtomicKind::cas:
          // Bit for bit, as the hardware compares (-0.0 is not 0.0).
          if (!sameBits(v.elem, cur, cmp->floats[i]))
            next = cur;
          break;
        case tile::AtomicKind::add:
          next = roundTo(v.elem, cur + x);
          break;
        case tile::AtomicKind::max:
          next = std::fmax(cur, x);
          break;
        case tile::AtomicKind::min:
          next = std::fmin(cur, x);
          break;
        default:
          break; // xchg
        }
        old->floats[i] = cur;
        storeFloat(b, off, v.elem, next);
      } else {
        unsigned bits = intBits(v.elem);
        int64_t cur = loadInt(b, off, v.elem), x = v.ints[i], next = x;
        switch (atomic.getKind()) {
        case tile::AtomicKind::add:
          next = wrapSigned(cur + x, bits);
          break;
        case tile::AtomicKind::max:
          next = std::max(cur, x);
          break;
        case tile::AtomicKind::min:
          next = std::min(cur, x);
          break;
        case tile::AtomicKind::umax:
        case tile::AtomicKind::umin: {
          uint64_t valueMask = bits == 64 ? ~0ull : (1ull << bits) - 1;
          uint64_t u = static_cast<uint64_t>(cur) & valueMask,
                   w = static_cast<uint64_t>(x) & valueMask;
          bool takeX =
              atomic.getKind() == tile::AtomicKind::umax ? w > u : w < u;
          next = takeX ? x : cur;
          break;
        }
        case tile::AtomicKind::band:
          next = cur & x;
          break;
        case tile::AtomicKind::bor:
          next = cur | x;
          break;
        case tile::AtomicKind::bxor:
          next = cur ^ x;
          break;
        case tile::AtomicKind::xchg:
          break;
        case tile::AtomicKind::cas:
          if (cur != cmp->ints[i])
            next = cur;
          break;
        }
        old->ints[i] = cur;
        storeInt(b, off, v.elem, next);
      }
    }
    set(atomic.getResult(), old);
    return success();
  }
  if (auto make = dyn_cast<tile::MakeBlockPtrOp>(op)) {
    auto bp = std::make_shared<BlockPointer>();
    const Tensor &base = *get(make.getBase());
    bp->buffer = base.buffers[0];
    bp->base = base.ints[0];
    for (Value v : make.getShape())
      bp->shape.push_back(get(v)->ints[0]);
    for (Value v : make.getStrides())
      bp->strides.push_back(get(v)->ints[0]);
    for (Value v : make.getOffsets())
      bp->offsets.push_back(get(v)->ints[0]);
    TensorRef r = makeTensor(Tensor::Kind::BlockPtr,
                             make.getType().getTensorType().getElementType(),
                             {});
    r->block = bp;
    set(make.getResult(), r);
    return success();
  }
  if (auto advance = dyn_cast<tile::AdvanceOp>(op)) {
    const Tensor &p = *get(advance.getPtr());
    auto bp = std::make_shared<BlockPointer>(*p.block);
    for (auto [d, v] : llvm::enumerate(advance.getOffsets()))
      bp->offsets[d] = wrapSigned(bp->offsets[d] + get(v)->ints[0], 32);
    TensorRef r = makeTensor(Tensor::Kind::BlockPtr, p.elem, {});
    r->block = bp;
    set(advance.getResult(), r);
    return success();
  }
  if (auto load = dyn_cast<tile::BlockLoadOp>(op)) {
    const Tensor &p = *get(load.getPtr());
    TensorRef r = makeForType(load.getType());
    BlockAddresses addrs = blockAddresses(*p.block, r->shape,
                                          load.getBoundaryCheck(), r->elem);
    double pad = load.getPadding() == tile::PaddingOption::nan ? NAN : 0.0;
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      if (!addrs.inBounds[i]) {
        if (r->isFloat())
          r->floats[i] = pad;
        continue;
      }
      if (!checkAccess(op, p.block->buffer, addrs.offsets[i], r->elem, "load"))
        return failure();
      if (r->isFloat())
        r->floats[i] = loadFloat(p.block->buffer, addrs.offsets[i], r->elem);
      else
        r->ints[i] = loadInt(p.block->buffer, addrs.offsets[i], r->elem);
    }
    set(load.getResult(), r);
    return success();
  }
  if (auto store = dyn_cast<tile::BlockStoreOp>(op)) {
    const Tensor &p = *get(store.getPtr()), &v = *get(store.getValue());
    BlockAddresses addrs =
        blockAddresses(*p.block, v.shape, store.getBoundaryCheck(), v.elem);
    for (int64_t i = 0, e = v.numel(); i < e; ++i) {
      if (!addrs.inBounds[i])
        continue;
      if (!checkAccess(op, p.block->buffer, addrs.offsets[i], v.elem, "store"))
        return failure();
      if (v.isFloat())
        storeFloat(p.block->buffer, addrs.offsets[i], v.elem, v.floats[i]);
      else
        storeInt(p.block->buffer, addrs.offsets[i], v.elem, v.ints[i]);
    }
    return success();
  }
  handled = false;
  return success();
}
