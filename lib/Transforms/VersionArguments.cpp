//===- VersionArguments.cpp - A guarded fast path for likely arguments ----===//
//
// A kernel ported from Triton as written has `*fp16` and `i32` parameters
// without the divisibility facts Triton's JIT adds at launch, so the axis
// analysis cannot prove its accesses aligned or contiguous. As loop
// versioning does in C compilers, this pass keeps the general body and puts
// a copy beside it that assumes what arguments usually are:
//  - pointers aligned to 16 bytes;
//  - of the integers multiplying contiguous indices in an address, the
//    one passed last is 1 (the innermost stride, as `*x.stride()` passes
//    it);
//  - other integers are multiples of the smallest power of two, at most
//    16, that keeps every access as wide.
// The copy runs when a test of the arguments at entry says so. Only
// assumptions that widen some access are kept (each is dropped in turn and
// kept only if the access widths then change); when none widens anything
// the kernel is left alone. Inside the general path a second copy assumes
// only the unit strides, for arguments whose rows are contiguous but whose
// sizes are odd.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "Versioning.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEVERSIONARGUMENTS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

enum class Assumption { Aligned16, Multiple16, Unit };

struct Candidate {
  unsigned argIndex;
  Assumption kind;
  /// The power of two assumed to divide the argument (bytes of alignment
  /// for a pointer). An integer's is lowered from 16 while no access gets
  /// narrower, so that a row stride of 1000 halves (16-byte aligned rows)
  /// still takes the fast path.
  unsigned divisor = 16;
};

/// The accesses in which `arg` (an integer, reached through splats,
/// broadcasts and integer casts) multiplies a block of indices that is
/// contiguous in some dimension: where it is a candidate unit stride.
DenseSet<Operation *> stridedAccesses(Value arg, const AxisInfoAnalysis &axis) {
  DenseSet<Operation *> result;
  if (!arg)
    return result;
  SmallVector<Value> work{arg};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<SplatOp, BroadcastOp, ExpandDimsOp, arith::ExtSIOp,
              arith::ExtUIOp, arith::TruncIOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (!isa<arith::MulIOp>(user))
        continue;
      Value other = user->getOperand(1 - use.getOperandNumber());
      AxisInfo info = axis.get(other);
      if (isa<RankedTensorType>(other.getType()) && info.getRank() &&
          llvm::any_of(info.contiguity, [](int64_t c) { return c > 1; }))
        for (Operation *access : accessesReached(user->getResult(0)))
          result.insert(access);
    }
  }
  return result;
}

scf::IfOp version(func::FuncOp func, ArrayRef<Candidate> assumptions);

/// Parameters without facts, pointers assumed aligned and integers
/// multiples of 16 or, for one stride per access, 1. An access's address
/// may multiply several contiguous index blocks by parameters (`offs_d[:,
/// None] * stride_kk + offs_n[None, :] * stride_kn`); the unit one is taken
/// to be the one passed last, as `*x.stride()` passes the innermost stride
/// last (which dimension of the block is then contiguous follows from it:
/// attention's K tile is contiguous along its first). Which index is
/// contiguous is read off the fast path of the other assumptions (a
/// wrapped index `(pid * B + arange(B)) % N` is contiguous only when N is a
/// multiple of 16). An access whose address multiplies two or more
/// contiguous blocks by parameters is ambiguous: Triton kernels do not
/// always pass the innermost stride last (vLLM's fused MoE passes
/// `B.stride(2)`, the unit one, before `B.stride(1)`). For each set of
/// such strides, an alternate takes the one passed before the last for the
/// unit instead (at most `kMaxAlternates`).
constexpr unsigned kMaxAlternates = 2;

struct CandidateSets {
  SmallVector<Candidate> primary;
  SmallVector<SmallVector<Candidate>> alternates;
};

CandidateSets findCandidates(func::FuncOp func) {
  CandidateSets sets;
  SmallVector<Candidate> &result = sets.primary;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    if (func.getArgAttr(i, "tile.divisibility") ||
        func.getArgAttr(i, "tile.value") || arg.use_empty())
      continue;
    Type t = arg.getType();
    if (isa<PointerType>(t))
      result.push_back({i, Assumption::Aligned16});
    else if (t.isInteger(32) || t.isInteger(64))
      result.push_back({i, Assumption::Multiple16});
  }
  if (result.empty())
    return sets;
  OwningOpRef<func::FuncOp> trial = func.clone();
  scf::IfOp ifOp = version(*trial, result);
  if (!ifOp)
    return {};
  AxisInfoAnalysis axis(trial->getOperation());
  // In the fast path, each assumed parameter is the result of its hint.
  DenseMap<Value, Value> assumed;
  for (HintOp hint : ifOp.getThenRegion().getOps<HintOp>())
    assumed[hint.getSrc()] = hint.getResult();
  // Per access, its candidate strides in the order they are passed; none
  // for an access already contiguous without one (SGLang's `... +
  // offs_d[None, :]` passes no innermost stride: its row stride is no unit
  // candidate).
  auto contiguous = [&](Operation *access) {
    AxisInfo info = axis.get(getMemoryAccess(access).ptr);
    return llvm::any_of(info.contiguity, [](int64_t c) { return c > 1; });
  };
  llvm::MapVector<Operation *, SmallVector<unsigned>> stridesOf;
  for (Candidate &c : result) {
    if (c.kind != Assumption::Multiple16)
      continue;
    for (Operation *access :
         stridedAccesses(assumed.lookup(trial->getArgument(c.argIndex)), axis))
      if (!contiguous(access))
        stridesOf[access].push_back(c.argIndex);
  }
  auto withUnits = [&](const DenseSet<unsigned> &units) {
    SmallVector<Candidate> set(result);
    for (Candidate &c : set)
      if (units.contains(c.argIndex))
        c.kind = Assumption::Unit;
    return set;
  };
  // The primary guess: the last-passed stride of every access; then per
  // set of two or more strides, the one passed before the last instead.
  DenseSet<unsigned> units;
  SmallVector<SmallVector<unsigned>> ambiguous;
  for (auto &[access, strides] : stridesOf) {
    units.insert(strides.back());
    if (strides.size() > 1 && !llvm::is_contained(ambiguous, strides))
      ambiguous.push_back(strides);
  }
  for (ArrayRef<unsigned> flipped : ambiguous) {
    if (sets.alternates.size() == kMaxAlternates)
      break;
    DenseSet<unsigned> alternate;
    for (auto &[access, strides] : stridesOf)
      alternate.insert(ArrayRef<unsigned>(strides) == flipped
                           ? strides[strides.size() - 2]
                           : strides.back());
    sets.alternates.push_back(withUnits(alternate));
  }
  result = withUnits(units);
  return sets;
}

/// The guard: every assumption holds for the arguments.
Value emitGuard(OpBuilder &b, Location loc, func::FuncOp func,
                ArrayRef<Candidate> assumptions) {
  Value guard;
  for (const Candidate &c : assumptions) {
    Value arg = func.getArgument(c.argIndex);
    Value holds;
    if (c.kind == Assumption::Unit) {
      Value one = arith::ConstantOp::create(
          b, loc, b.getIntegerAttr(arg.getType(), 1));
      holds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, arg, one);
    } else {
      holds = emitMultipleTest(b, loc, arg, c.divisor);
    }
    guard = guard ? arith::AndIOp::create(b, loc, guard, holds) : holds;
  }
  return guard;
}

/// Move `moved` into the else branch of an `scf.if` on the guard of
/// `assumptions`, built at `b`'s position, and put a copy that assumes them
/// in its then branch.
scf::IfOp versionOps(OpBuilder &b, func::FuncOp func,
                     ArrayRef<Operation *> moved,
                     ArrayRef<Candidate> assumptions) {
  Location loc = func.getLoc();
  Value guard = emitGuard(b, loc, func, assumptions);
  return versionUnder(b, loc, guard, moved,
                      [&](OpBuilder &tb, IRMapping &mapping) {
                        for (const Candidate &c : assumptions) {
                          Value arg = func.getArgument(c.argIndex);
                          Value assumed;
                          if (c.kind == Assumption::Unit)
                            assumed = arith::ConstantOp::create(
                                tb, loc, tb.getIntegerAttr(arg.getType(), 1));
                          else
                            assumed = hintMultiple(tb, loc, arg, c.divisor);
                          mapping.map(arg, assumed);
                        }
                      });
}

/// Put the body of `func` (but the launch grid and what it is computed
/// from) in the else branch of an `scf.if` on the guard, and a copy that
/// assumes `assumptions` in its then branch. Returns the `scf.if`, or null
/// when the body is not one block.
scf::IfOp version(func::FuncOp func, ArrayRef<Candidate> assumptions) {
  if (!func.getBody().hasOneBlock())
    return nullptr;
  Block &body = func.getBody().front();
  OpBuilder b(body.getTerminator());
  scf::IfOp ifOp = versionOps(b, func, bodyBesideGrid(func), assumptions);
  ifOp->setAttr(tilegpu::kVersionedAttrName, b.getUnitAttr());
  return ifOp;
}

/// In the general path of `ifOp`, a second guarded copy that assumes only
/// the unit strides: arguments with odd sizes or unaligned rows (a K of
/// 4097) still have contiguous rows, whose accesses then take one address
/// per run instead of one per element (1.5x on a 4096x4096x4097 matmul).
void versionUnitStrides(func::FuncOp func, scf::IfOp ifOp,
                        ArrayRef<Candidate> assumptions) {
  SmallVector<Candidate> units;
  for (const Candidate &c : assumptions)
    if (c.kind == Assumption::Unit)
      units.push_back(c);
  if (units.empty() || units.size() == assumptions.size())
    return;
  Block *general = ifOp.elseBlock();
  SmallVector<Operation *> moved;
  for (Operation &op : general->without_terminator())
    moved.push_back(&op);
  OpBuilder b(general->getTerminator());
  versionOps(b, func, moved, units);
}

/// The access widths of the fast path under `assumptions`, measured on a
/// copy of `func`; with `general`, those of the general path.
SmallVector<unsigned> widthsUnder(func::FuncOp func,
                                  ArrayRef<Candidate> assumptions,
                                  SmallVector<unsigned> *general = nullptr) {
  if (assumptions.empty()) {
    AxisInfoAnalysis axis(func);
    return accessWidths(func.getBody(), axis);
  }
  OwningOpRef<func::FuncOp> trial = func.clone();
  scf::IfOp ifOp = version(*trial, assumptions);
  if (!ifOp)
    return {};
  AxisInfoAnalysis axis(trial->getOperation());
  if (general)
    *general = accessWidths(ifOp.getElseRegion(), axis);
  return accessWidths(ifOp.getThenRegion(), axis);
}

/// Drops from `assumptions` those no access needs for the widths `best`,
/// then asks as little of each integer as keeps them.
void minimize(func::FuncOp func, SmallVector<Candidate> &assumptions,
              ArrayRef<unsigned> best) {
  for (size_t i = 0; i < assumptions.size();) {
    SmallVector<Candidate> fewer(assumptions);
    fewer.erase(fewer.begin() + i);
    if (widthsUnder(func, fewer) == best)
      assumptions = std::move(fewer);
    else
      ++i;
  }
  for (Candidate &c : assumptions) {
    if (c.kind != Assumption::Multiple16)
      continue;
    while (c.divisor > 1) {
      c.divisor /= 2;
      if (widthsUnder(func, assumptions) != best) {
        c.divisor *= 2;
        break;
      }
    }
  }
}

/// Limits of the operand copies below, from ptxas -v over the example and
/// benchmark builds: the operand a copy leaves to one-element loads holds
/// its elements in registers beside the accumulator, at most 64 bytes a
/// thread (tutorial 03's BLOCK_K = 128 tiles, 64 fp16 elements a thread,
/// spilled 0.1-1.6 KB more with copies); and where one warpgroup holds a
/// 128-register accumulator the copy spilled (the block-pointer example's
/// 128x128 tile on 4 warps, 20 bytes; on 8 warps it did not).
constexpr int64_t kMaxSlowOperandBytes = 64;
constexpr int64_t kMaxAccumulatorOneGroup = 64;

/// Copies for a matmul whose arguments suit one operand but not the other
/// (K = 4097: A's rows 2-byte aligned, B's 16): where the kernel's one dot
/// is in a loop (in no other loop) that loads both its fp16 or bf16
/// operands, each operand whose width needs assumptions no other access
/// needs (its pointer's alignment, its row stride, K for A's mask) gets a
/// copy assuming all the others, so that the other operand keeps its wide
/// copies when only this one's arguments fail. Unit strides stay assumed: the copy inside the
/// general path covers operands without them. (As written, tutorial 03 at
/// 4096x4096x4097 read both operands element by element, 0.57x Triton;
/// with the copies 1.26x. With fp32, int8 and fp8 operands the copies moved
/// some configs' registers, 72 -> 120 for a 16x64 int8 tile: not measured
/// further, so not made.)
SmallVector<SmallVector<Candidate>>
operandCopies(func::FuncOp func, ArrayRef<Candidate> assumptions,
              ArrayRef<unsigned> best) {
  SmallVector<DotOp> dots;
  func.walk([&](DotOp dot) { dots.push_back(dot); });
  auto loop =
      dots.size() == 1 ? dots[0]->getParentOfType<scf::ForOp>() : scf::ForOp();
  // One tile a program (measured), also where tile-persistent-programs
  // made it walk tiles; a user's persistent kernel's K loop, inside its
  // tile loop, is left as it was.
  if (loop && loop->getParentOfType<scf::ForOp>() &&
      !func->hasAttr(kPersistentProgramsAttrName))
    return {};
  auto warps = func->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
  auto acc =
      loop ? dyn_cast<RankedTensorType>(dots[0].getType()) : RankedTensorType();
  if (!warps || !acc ||
      (warps.getInt() < 8 &&
       acc.getNumElements() / (32 * warps.getInt()) > kMaxAccumulatorOneGroup))
    return {};
  // The accesses in accessWidths' order, and which of them load an operand.
  SmallVector<Operation *> accesses = memoryAccesses(func.getBody());
  SmallVector<unsigned> operands;
  for (auto [k, op] : llvm::enumerate(accesses)) {
    auto load = dyn_cast<LoadOp>(op);
    if (load && load->getParentOp() == loop.getOperation() &&
        usedOnlyAsDotOperand(load.getResult(), dots[0]))
      operands.push_back(k);
  }
  auto is16Bit = [&](unsigned k) {
    auto type = dyn_cast<RankedTensorType>(accesses[k]->getResult(0).getType());
    return type && type.getElementTypeBitWidth() == 16;
  };
  if (accesses.size() != best.size() || operands.size() != 2 ||
      !llvm::all_of(operands, is16Bit))
    return {};
  // Which accesses each assumption widens.
  SmallVector<DenseSet<unsigned>> needs(best.size());
  for (size_t j = 0; j < assumptions.size(); ++j) {
    if (assumptions[j].kind == Assumption::Unit)
      continue;
    SmallVector<Candidate> fewer(assumptions);
    fewer.erase(fewer.begin() + j);
    SmallVector<unsigned> widths = widthsUnder(func, fewer);
    if (widths.size() != best.size())
      return {};
    for (size_t k = 0; k < best.size(); ++k)
      if (widths[k] < best[k])
        needs[k].insert(j);
  }
  SmallVector<SmallVector<Candidate>> copies;
  for (unsigned k : operands) {
    auto type = cast<RankedTensorType>(accesses[k]->getResult(0).getType());
    if (type.getNumElements() * 2 / (32 * warps.getInt()) >
        kMaxSlowOperandBytes)
      continue;
    DenseSet<unsigned> own = needs[k];
    for (size_t l = 0; l < best.size(); ++l)
      if (l != k)
        for (unsigned j : needs[l])
          own.erase(j);
    if (own.empty())
      continue;
    SmallVector<Candidate> rest;
    for (size_t j = 0; j < assumptions.size(); ++j)
      if (!own.contains(j))
        rest.push_back(assumptions[j]);
    copies.push_back(std::move(rest));
  }
  return copies;
}

/// `argN:align16`, `argN:mulD`, `argN:one` per assumption.
ArrayAttr describe(MLIRContext *ctx, ArrayRef<Candidate> assumptions) {
  SmallVector<Attribute> names;
  for (const Candidate &c : assumptions) {
    std::string kind = c.kind == Assumption::Unit ? "one"
                       : c.kind == Assumption::Aligned16
                           ? "align16"
                           : "mul" + std::to_string(c.divisor);
    names.push_back(
        StringAttr::get(ctx, "arg" + std::to_string(c.argIndex) + ":" + kind));
  }
  return ArrayAttr::get(ctx, names);
}

bool sameAssumptions(ArrayRef<Candidate> a, ArrayRef<Candidate> b) {
  return llvm::equal(a, b, [](const Candidate &x, const Candidate &y) {
    return x.argIndex == y.argIndex && x.kind == y.kind &&
           x.divisor == y.divisor;
  });
}

struct TileVersionArguments
    : public tile::impl::TileVersionArgumentsBase<TileVersionArguments> {
  void runOnOperation() override {
    for (func::FuncOp func :
         llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      CandidateSets sets = findCandidates(func);
      SmallVector<Candidate> &assumptions = sets.primary;
      if (assumptions.empty())
        continue;
      SmallVector<unsigned> general;
      SmallVector<unsigned> best = widthsUnder(func, assumptions, &general);
      if (best.empty() || best == general)
        continue;
      minimize(func, assumptions, best);
      // Alternates that widen something the primary guess does not cover.
      SmallVector<SmallVector<Candidate>> alternates;
      for (SmallVector<Candidate> &alternate : sets.alternates) {
        SmallVector<unsigned> widths = widthsUnder(func, alternate);
        if (widths.empty() || widths == general)
          continue;
        minimize(func, alternate, widths);
        if (!sameAssumptions(alternate, assumptions))
          alternates.push_back(std::move(alternate));
      }
      SmallVector<SmallVector<Candidate>> partial =
          operandCopies(func, assumptions, best);
      // Each alternate, then each operand's copy, guards its own fast copy
      // in the previous one's else branch; the last else branch is the
      // general path (the `scf.if` marked versioned).
      scf::IfOp fast = version(func, assumptions);
      fast->setAttr(tilegpu::kFastPathGuardAttrName,
                    UnitAttr::get(&getContext()));
      SmallVector<SmallVector<Candidate>> chained(alternates);
      llvm::append_range(chained, partial);
      for (ArrayRef<Candidate> alternate : chained) {
        Block *rest = fast.elseBlock();
        SmallVector<Operation *> moved;
        for (Operation &op : rest->without_terminator())
          moved.push_back(&op);
        OpBuilder b(rest->getTerminator());
        scf::IfOp next = versionOps(b, func, moved, alternate);
        next->setAttr(tilegpu::kVersionedAttrName,
                      fast->getAttr(tilegpu::kVersionedAttrName));
        fast->removeAttr(tilegpu::kVersionedAttrName);
        fast = next;
      }
      versionUnitStrides(func, fast, assumptions);
      func->setAttr("tile.fast_path", describe(&getContext(), assumptions));
      for (auto [name, copies] :
           {std::pair(StringRef("tile.alternate_fast_paths"), &alternates),
            std::pair(StringRef("tile.operand_fast_paths"), &partial)}) {
        if (copies->empty())
          continue;
        SmallVector<Attribute> described;
        for (ArrayRef<Candidate> copy : *copies)
          described.push_back(describe(&getContext(), copy));
        func->setAttr(name, ArrayAttr::get(&getContext(), described));
      }
    }
  }
};

} // namespace
