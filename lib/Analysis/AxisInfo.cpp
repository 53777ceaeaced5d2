//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//

#include "tile/Analysis/AxisInfo.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tile;

static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

int64_t mlir::tile::powerOfTwoDivisor(int64_t v) {
  if (v == 0)
    return kMax;
  uint64_t u = static_cast<uint64_t>(v < 0 ? -v : v);
  return std::min<int64_t>(kMax, int64_t(1) << llvm::countr_zero(u));
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// Shape of a value: tensor shape, or [1] for scalars.
static SmallVector<int64_t, 4> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return SmallVector<int64_t, 4>(t.getShape());
  return {1};
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  AxisInfo info;
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, 1);
  info.constancy.assign(rank, 1);
  return info;
}

AxisInfo AxisInfo::uniform(ArrayRef<int64_t> shape, int64_t div,
                           std::optional<int64_t> value) {
  AxisInfo info = unknown(shape.size());
  info.divisibility.assign(shape.size(), div);
  info.constancy.assign(shape.begin(), shape.end());
  info.constant = value;
  return info;
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  if (a.constant && b.constant && *a.constant == *b.constant)
    r.constant = a.constant;
  return r;
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  root->walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    for (BlockArgument arg : func.getArguments()) {
      int64_t div = 1;
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         "tile.divisibility"))
        div = attr.getInt();
      std::optional<int64_t> value;
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         "tile.value")) {
        value = attr.getInt();
        div = powerOfTwoDivisor(*value);
      }
      // A tensor argument (only the IR of tests has them) may hold anything;
      // its info has the tensor's rank.
      if (auto type = dyn_cast<RankedTensorType>(arg.getType())) {
        set(arg, AxisInfo::unknown(type.getRank()));
        continue;
      }
      set(arg, AxisInfo::uniform({1}, div, value));
    }
    visitRegion(func.getBody());
  });
}

AxisInfo AxisInfoAnalysis::get(Value v) const {
  auto it = infos.find(v);
  if (it != infos.end())
    return it->second;
  return AxisInfo::unknown(shapeOf(v).size());
}

void AxisInfoAnalysis::visitRegion(Region &region) {
  for (Block &block : region)
    for (Operation &op : block)
      visitOp(&op);
}

/// Facts of an integer constant of `shape`.
static AxisInfo constantInfo(ArrayRef<int64_t> shape, int64_t v) {
  return AxisInfo::uniform(shape, powerOfTwoDivisor(v), v);
}

void AxisInfoAnalysis::visitOp(Operation *op) {
  // Loops: iterate the body until the carried facts are stable.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    AxisInfo lb = get(forOp.getLowerBound()), step = get(forOp.getStep());
    AxisInfo iv = AxisInfo::unknown(1);
    iv.divisibility[0] = gcd(lb.divisibility[0], step.divisibility[0]);
    set(forOp.getInductionVar(), iv);
    for (auto [init, arg] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs()))
      set(arg, get(init));
    for (int round = 0; round < 4; ++round) {
      visitRegion(forOp.getRegion());
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      bool changed = false;
      for (auto [arg, next] :
           llvm::zip(forOp.getRegionIterArgs(), yield.getOperands())) {
        AxisInfo joined = AxisInfo::join(get(arg), get(next));
        if (!(joined == get(arg))) {
          set(arg, joined);
          changed = true;
        }
      }
      if (!changed)
        break;
    }
    for (auto [arg, result] :
         llvm::zip(forOp.getRegionIterArgs(), forOp.getResults()))
      set(result, get(arg));
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    visitRegion(ifOp.getThenRegion());
    visitRegion(ifOp.getElseRegion());
    if (ifOp.getNumResults() == 0)
      return;
    for (auto [i, r] : llvm::enumerate(ifOp.getResults()))
      set(r, AxisInfo::join(get(ifOp.thenYield().getOperand(i)),
                            get(ifOp.elseYield().getOperand(i))));
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // Carried values: nothing is known across iterations.
    for (Region *region : {&whileOp.getBefore(), &whileOp.getAfter()})
      for (BlockArgument arg : region->getArguments())
        set(arg, AxisInfo::unknown(shapeOf(arg).size()));
    visitRegion(whileOp.getBefore());
    visitRegion(whileOp.getAfter());
    for (Value r : whileOp.getResults())
      set(r, AxisInfo::unknown(shapeOf(r).size()));
    return;
  }
  for (Region &region : op->getRegions())
    visitRegion(region);
  if (op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  SmallVector<int64_t, 4> shape = shapeOf(result);
  unsigned rank = shape.size();
  AxisInfo r = AxisInfo::unknown(rank);

  APInt cst;
  if (matchPattern(result, m_ConstantInt(&cst))) {
    set(result, constantInfo(shape, cst.getSExtValue()));
    return;
  }
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    r.contiguity[0] = shape[0];
    r.divisibility[0] = powerOfTwoDivisor(range.getStartAttr().getInt());
    set(result, r);
    return;
  }
  if (isa<SplatOp>(op)) {
    AxisInfo s = get(op->getOperand(0));
    set(result, AxisInfo::uniform(shape, s.divisibility[0], s.constant));
    return;
  }
  if (auto hint = dyn_cast<HintOp>(op)) {
    r = get(hint.getSrc());
    if (auto mul = hint.getMultipleOfAttr())
      for (unsigned d = 0; d < rank && d < mul.size(); ++d)
        r.divisibility[d] = std::max<int64_t>(r.divisibility[d], mul[d]);
    if (auto cont = hint.getMaxContiguousAttr())
      for (unsigned d = 0; d < rank && d < cont.size(); ++d)
        r.contiguity[d] = std::max<int64_t>(r.contiguity[d], cont[d]);
    if (auto equal = hint.getMaxConstancyAttr())
      for (unsigned d = 0; d < rank && d < equal.size(); ++d)
        r.constancy[d] = std::max<int64_t>(r.constancy[d], equal[d]);
    set(result, r);
    return;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    AxisInfo s = get(expand.getSrc());
    // Along the new dimension every element starts a run, so its divisor
    // must divide every element: a contiguous dimension's divisibility
    // only speaks of the first of each run (arange(0, 8) is 0, 1, 2, ...).
    int64_t all = s.constant ? powerOfTwoDivisor(*s.constant) : kMax;
    if (!s.constant)
      for (unsigned d = 0; d < s.getRank(); ++d)
        all = gcd(all, s.contiguity[d] > 1 ? 1 : s.divisibility[d]);
    unsigned axis = expand.getAxisAttr().getInt();
    r = s;
    r.contiguity.insert(r.contiguity.begin() + axis, 1);
    r.divisibility.insert(r.divisibility.begin() + axis, all);
    r.constancy.insert(r.constancy.begin() + axis, 1);
    set(result, r);
    return;
  }
  if (isa<BroadcastOp, tilegpu::ConvertLayoutOp>(op)) {
    AxisInfo s = get(op->getOperand(0));
    SmallVector<int64_t, 4> srcShape = shapeOf(op->getOperand(0));
    r = s;
    for (unsigned d = 0; d < rank; ++d)
      if (srcShape[d] == 1 && shape[d] != 1)
        r.constancy[d] = shape[d];
    set(result, r);
    return;
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    AxisInfo s = get(trans.getSrc());
    for (auto [i, d] : llvm::enumerate(trans.getOrder())) {
      r.contiguity[i] = s.contiguity[d];
      r.divisibility[i] = s.divisibility[d];
      r.constancy[i] = s.constancy[d];
    }
    r.constant = s.constant;
    set(result, r);
    return;
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
          arith::IndexCastOp>(op)) {
    set(result, get(op->getOperand(0)));
    return;
  }
  if (op->getNumOperands() == 2 &&
      isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
          arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CmpIOp,
          arith::AndIOp, arith::OrIOp, AddPtrOp, arith::ShLIOp>(op)) {
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1));
    if (a.getRank() != rank || b.getRank() != rank) {
      set(result, r);
      return;
    }
    int64_t scale = 1;
    if (isa<AddPtrOp>(op))
      scale = std::max<unsigned>(
          1, cast<PointerType>(getElementTypeOrSelf(result.getType()))
                     .getPointeeType()
                     .getIntOrFloatBitWidth() /
                 8);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t ca = a.contiguity[d], cb = b.contiguity[d];
      int64_t da = a.divisibility[d], db = b.divisibility[d];
      int64_t ka = a.constancy[d], kb = b.constancy[d];
      r.constancy[d] = gcd(ka, kb);
      if (isa<arith::AddIOp, AddPtrOp>(op)) {
        // A contiguous run plus a constant over that run stays contiguous.
        r.contiguity[d] = std::max(gcd(ca, kb), gcd(cb, ka));
        r.divisibility[d] = gcd(da, std::min(kMax, db * scale));
        if (a.constant && b.constant && !isa<AddPtrOp>(op))
          r.constant = *a.constant + *b.constant;
      } else if (isa<arith::SubIOp>(op)) {
        r.contiguity[d] = gcd(ca, kb);
        r.divisibility[d] = gcd(da, db);
        if (a.constant && b.constant)
          r.constant = *a.constant - *b.constant;
      } else if (isa<arith::MulIOp>(op)) {
        if (b.constant == 1)
          r.contiguity[d] = ca;
        else if (a.constant == 1)
          r.contiguity[d] = cb;
        r.divisibility[d] = std::min(kMax, da * db);
        if (a.constant && b.constant)
          r.constant = *a.constant * *b.constant;
      } else if (isa<arith::ShLIOp>(op)) {
        if (b.constant && *b.constant >= 0 && *b.constant < 30)
          r.divisibility[d] = std::min(kMax, da << *b.constant);
      } else if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
        // A run of c contiguous values aligned to c, divided by c, is
        // constant.
        if (b.constant && *b.constant > 0 &&
            llvm::isPowerOf2_64(*b.constant)) {
          int64_t c = *b.constant;
          r.constancy[d] = std::max(ka, gcd(ca, gcd(da, c)));
          r.divisibility[d] = std::max<int64_t>(1, da / c);
        }
        if (a.constant && b.constant && *b.constant != 0)
          r.constant = *a.constant / *b.constant;
      } else if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
        // Contiguous runs survive up to the divisor's alignment.
        r.contiguity[d] = gcd(ca, db);
        r.divisibility[d] = gcd(da, db);
        r.constancy[d] = ka;
      } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
        // x < N and x >= N, for x contiguous over runs aligned to N's
        // divisibility, hold for a whole run or for none of it. Not so
        // x == N, x <= N or x > N: of the run 2k, 2k + 1 against N = 2k
        // one element compares equal and the other does not.
        using P = arith::CmpIPredicate;
        P pred = cmp.getPredicate();
        bool lhsRuns =
            llvm::is_contained({P::slt, P::ult, P::sge, P::uge}, pred);
        bool rhsRuns =
            llvm::is_contained({P::sgt, P::ugt, P::sle, P::ule}, pred);
        if (lhsRuns && kb >= ca)
          r.constancy[d] = std::max(r.constancy[d], gcd(ca, gcd(da, db)));
        if (rhsRuns && ka >= cb)
          r.constancy[d] = std::max(r.constancy[d], gcd(cb, gcd(da, db)));
        r.divisibility[d] = 1;
      } else if (isa<arith::AndIOp, arith::OrIOp>(op)) {
        r.divisibility[d] = 1;
      }
    }
    set(result, r);
    return;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    AxisInfo c = get(select.getCondition());
    AxisInfo a = get(select.getTrueValue()), b = get(select.getFalseValue());
    if (c.getRank() == rank && a.getRank() == rank && b.getRank() == rank) {
      r = AxisInfo::join(a, b);
      for (unsigned d = 0; d < rank; ++d)
        r.constancy[d] = gcd(r.constancy[d], c.constancy[d]);
      r.constant.reset();
    }
    set(result, r);
    return;
  }
  set(result, r);
}

MemoryAccess mlir::tile::getMemoryAccess(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return {load.getPtr(), load.getMask()};
  if (auto store = dyn_cast<StoreOp>(op))
    return {store.getPtr(), store.getMask()};
  if (auto atomic = dyn_cast<AtomicRMWOp>(op))
    return {atomic.getPtr(), atomic.getMask()};
  return {};
}

bool AxisInfoAnalysis::isPrefixMask(Value mask, unsigned dim,
                                    unsigned width) const {
  if (get(mask).constancy[dim] >= width)
    return true;
  Operation *def = mask.getDefiningOp();
  if (!def)
    return false;
  if (auto andOp = dyn_cast<arith::AndIOp>(def))
    return isPrefixMask(andOp.getLhs(), dim, width) &&
           isPrefixMask(andOp.getRhs(), dim, width);
  // x < bound, x rising by one along `dim` through each group and the
  // bound the same across it: true up to some element, false after.
  auto below = matchBelowBound(def, /*unsignedToo=*/true);
  if (!below)
    return false;
  auto [x, bound] = *below;
  return get(x).contiguity[dim] >= width && get(bound).constancy[dim] >= width;
}

std::optional<std::pair<Value, Value>>
mlir::tile::matchBelowBound(Operation *op, bool unsignedToo) {
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(op);
  if (!cmp)
    return std::nullopt;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::ult:
    if (!unsignedToo)
      return std::nullopt;
    [[fallthrough]];
  case arith::CmpIPredicate::slt:
    return std::make_pair(cmp.getLhs(), cmp.getRhs());
  case arith::CmpIPredicate::ugt:
    if (!unsignedToo)
      return std::nullopt;
    [[fallthrough]];
  case arith::CmpIPredicate::sgt:
    return std::make_pair(cmp.getRhs(), cmp.getLhs());
  default:
    return std::nullopt;
  }
}

unsigned AxisInfoAnalysis::getPrefixCopyWidth(Value ptr, Value mask,
                                              unsigned dim) const {
  unsigned width = getVectorWidth(ptr, Value(), dim);
  while (mask && width > 1 && !isPrefixMask(mask, dim, width))
    width /= 2;
  return width;
}

unsigned AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask,
                                          unsigned dim) const {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return 1;
  auto ptrType = cast<PointerType>(type.getElementType());
  unsigned bytes =
      std::max(1u, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
  AxisInfo p = get(ptr);
  int64_t width = std::min<int64_t>(16 / bytes, p.contiguity[dim]);
  // The first address of each vector must be aligned to the vector.
  width = std::min<int64_t>(width, std::max<int64_t>(1, p.divisibility[dim] / bytes));
  if (mask)
    width = std::min<int64_t>(width, get(mask).constancy[dim]);
  width = std::max<int64_t>(1, width);
  return llvm::bit_floor(static_cast<uint64_t>(width));
}
