//===- LinearLayout.cpp - Layouts as linear maps over GF(2) ---------------===//

#include "tile/Dialect/TileGPU/LinearLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace mlir::tilegpu;

static void xorInto(LinearLayout::Coord &acc, const LinearLayout::Coord &b) {
  for (auto [a, v] : llvm::zip(acc, b))
    a ^= v;
}

static bool isZero(const LinearLayout::Coord &c) {
  return llvm::all_of(c, [](int32_t v) { return v == 0; });
}

LinearLayout::Coord LinearLayout::apply(uint32_t reg, uint32_t lane,
                                        uint32_t warp) const {
  Coord result(getRank(), 0);
  auto accumulate = [&](uint32_t bits, llvm::ArrayRef<Coord> bases) {
    for (auto [i, b] : llvm::enumerate(bases))
      if (bits & (1u << i))
        xorInto(result, b);
  };
  accumulate(reg, regBases);
  accumulate(lane, laneBases);
  accumulate(warp, warpBases);
  return result;
}

static uint32_t freeMask(llvm::ArrayRef<LinearLayout::Coord> bases) {
  uint32_t mask = 0;
  for (auto [i, b] : llvm::enumerate(bases))
    if (isZero(b))
      mask |= 1u << i;
  return mask;
}

uint32_t LinearLayout::getFreeLaneMask() const { return freeMask(laneBases); }
uint32_t LinearLayout::getFreeWarpMask() const { return freeMask(warpBases); }

unsigned LinearLayout::getContiguousRegisters(unsigned dim,
                                              unsigned maxWidth) const {
  unsigned bits = 0;
  while (bits < regBases.size() && (2u << bits) <= maxWidth) {
    const Coord &c = regBases[bits];
    bool unit = true;
    for (unsigned d = 0; d < c.size(); ++d)
      unit &= c[d] == (d == dim ? (1 << bits) : 0);
    if (!unit)
      break;
    ++bits;
  }
  auto aligned = [&](unsigned w) {
    auto check = [&](llvm::ArrayRef<Coord> bases, unsigned from) {
      for (unsigned i = from; i < bases.size(); ++i)
        if (bases[i][dim] % w)
          return false;
      return true;
    };
    return check(regBases, llvm::Log2_32(w)) && check(laneBases, 0) &&
           check(warpBases, 0);
  };
  unsigned w = 1u << bits;
  while (w > 1 && !aligned(w))
    w /= 2;
  return w;
}

void LinearLayout::wrapToShape() {
  auto wrap = [&](Coord &c) {
    for (auto [v, size] : llvm::zip(c, shape))
      if (v >= size)
        v = 0;
  };
  for (Coord &c : laneBases)
    wrap(c);
  for (Coord &c : warpBases)
    wrap(c);
  llvm::SmallVector<Coord> kept;
  for (Coord &c : regBases) {
    wrap(c);
    if (!isZero(c))
      kept.push_back(c);
  }
  regBases = std::move(kept);
}

LinearLayout LinearLayout::dropDim(unsigned dim) const {
  llvm::SmallVector<int64_t> newShape(shape.begin(), shape.end());
  newShape.erase(newShape.begin() + dim);
  LinearLayout result(newShape);
  auto drop = [&](const Coord &c) {
    Coord r(c);
    r.erase(r.begin() + dim);
    return r;
  };
  for (const Coord &c : regBases) {
    Coord r = drop(c);
    // Registers that only walked along `dim` now hold copies.
    if (!isZero(r))
      result.regBases.push_back(r);
  }
  for (const Coord &c : laneBases)
    result.laneBases.push_back(drop(c));
  for (const Coord &c : warpBases)
    result.warpBases.push_back(drop(c));
  return result;
}

LinearLayout LinearLayout::permuteDims(llvm::ArrayRef<int32_t> order) const {
  llvm::SmallVector<int64_t> newShape;
  for (int32_t d : order)
    newShape.push_back(shape[d]);
  LinearLayout result(newShape);
  auto permute = [&](const Coord &c) {
    Coord r;
    for (int32_t d : order)
      r.push_back(c[d]);
    return r;
  };
  for (const Coord &c : regBases)
    result.regBases.push_back(permute(c));
  for (const Coord &c : laneBases)
    result.laneBases.push_back(permute(c));
  for (const Coord &c : warpBases)
    result.warpBases.push_back(permute(c));
  return result;
}

LinearLayout LinearLayout::reshape(llvm::ArrayRef<int64_t> newShape) const {
  LinearLayout result(newShape);
  // Power-of-two dimensions: a coordinate's bits are fields of its
  // row-major position, so the map stays linear.
  auto relabel = [&](const Coord &c) {
    int64_t flat = 0;
    for (auto [v, size] : llvm::zip(c, shape))
      flat = flat * size + v;
    Coord r(newShape.size(), 0);
    for (int d = newShape.size() - 1; d >= 0; --d) {
      r[d] = flat % newShape[d];
      flat /= newShape[d];
    }
    return r;
  };
  for (const Coord &c : regBases)
    result.regBases.push_back(relabel(c));
  for (const Coord &c : laneBases)
    result.laneBases.push_back(relabel(c));
  for (const Coord &c : warpBases)
    result.warpBases.push_back(relabel(c));
  return result;
}

LinearLayout LinearLayout::insertDim(unsigned dim) const {
  llvm::SmallVector<int64_t> newShape(shape.begin(), shape.end());
  newShape.insert(newShape.begin() + dim, 1);
  LinearLayout result(newShape);
  auto insert = [&](const Coord &c) {
    Coord r(c);
    r.insert(r.begin() + dim, 0);
    return r;
  };
  for (const Coord &c : regBases)
    result.regBases.push_back(insert(c));
  for (const Coord &c : laneBases)
    result.laneBases.push_back(insert(c));
  for (const Coord &c : warpBases)
    result.warpBases.push_back(insert(c));
  return result;
}

LinearLayout LinearLayout::zeroDims(llvm::ArrayRef<unsigned> dims) const {
  LinearLayout result(*this);
  auto zero = [&](Coord &c) {
    for (unsigned d : dims)
      c[d] = 0;
  };
  for (unsigned d : dims)
    result.shape[d] = 1;
  for (Coord &c : result.regBases)
    zero(c);
  for (Coord &c : result.laneBases)
    zero(c);
  for (Coord &c : result.warpBases)
    zero(c);
  return result;
}

std::optional<llvm::SmallVector<unsigned>>
LinearLayout::registerMapTo(const LinearLayout &dst) const {
  if (dst.shape != shape)
    return std::nullopt;
  return registerMapToWindow(dst, llvm::SmallVector<int64_t>(shape.size(), 0));
}

std::optional<llvm::SmallVector<unsigned>>
LinearLayout::registerMapToWindow(const LinearLayout &dst,
                                  llvm::ArrayRef<int64_t> offsets) const {
  // With equal lane and warp bases, a thread's element of `dst` register r
  // sits at dst.regCoord(r) + offsets XOR the thread's part, which is this
  // layout's register holding dst.regCoord(r) + offsets in the same thread
  // (the offsets are multiples of the window, so + and XOR agree).
  if (dst.getRank() != getRank() || offsets.size() != getRank() ||
      dst.laneBases != laneBases || dst.warpBases != warpBases)
    return std::nullopt;
  for (unsigned d = 0; d < getRank(); ++d)
    if (offsets[d] < 0 || offsets[d] % dst.shape[d] != 0 ||
        offsets[d] + dst.shape[d] > shape[d])
      return std::nullopt;
  std::map<Coord, unsigned> regOf;
  for (unsigned r = 0, e = getNumRegs(); r < e; ++r)
    regOf.emplace(regCoord(r), r);
  llvm::SmallVector<unsigned> map;
  for (unsigned r = 0, e = dst.getNumRegs(); r < e; ++r) {
    Coord c = dst.regCoord(r);
    for (unsigned d = 0; d < getRank(); ++d)
      c[d] += offsets[d];
    auto it = regOf.find(c);
    if (it == regOf.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

std::string LinearLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto print = [&](llvm::StringRef name, llvm::ArrayRef<Coord> bases) {
    os << name << "=[";
    llvm::interleaveComma(bases, os, [&](const Coord &c) {
      os << "(";
      llvm::interleaveComma(c, os);
      os << ")";
    });
    os << "]";
  };
  os << "shape=[";
  llvm::interleaveComma(shape, os);
  os << "] ";
  print("reg", regBases);
  os << " ";
  print("lane", laneBases);
  os << " ";
  print("warp", warpBases);
  return s;
}
