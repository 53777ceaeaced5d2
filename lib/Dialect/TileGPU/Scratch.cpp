//===- Scratch.cpp - Shared-memory scratch of ops that move data ----------===//

#include "tile/Dialect/TileGPU/Scratch.h"

#include "tile/Dialect/TileGPU/ReductionPlan.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tilegpu;

unsigned mlir::tilegpu::getScratchElementBytes(Type elementType) {
  if (isa<tile::PointerType>(elementType))
    return 8;
  unsigned bits = elementType.getIntOrFloatBitWidth();
  return std::max(1u, bits / 8);
}

static unsigned tensorBytes(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return alignScratch(type.getNumElements() *
                      getScratchElementBytes(type.getElementType()));
}

unsigned mlir::tilegpu::getScratchRounds(Operation *op) {
  if (!isa<ConvertLayoutOp, tile::ExpandDimsOp, tile::BroadcastOp,
           tile::TransOp, tile::ReshapeOp>(op))
    return 1;
  uint64_t bytes = tensorBytes(op->getOperand(0));
  if (bytes <= kMaxExchangeScratchBytes)
    return 1;
  return llvm::PowerOf2Ceil(llvm::divideCeil(bytes, kMaxExchangeScratchBytes));
}

int64_t mlir::tilegpu::getRowScratchPitch(Operation *op) {
  // Rounds exchange a part of the elements, row pitch or not.
  if (!isa<ConvertLayoutOp>(op) || getScratchRounds(op) > 1)
    return 0;
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  if (type.getRank() != 2 || type.getElementType().isInteger(1))
    return 0;
  unsigned bytes = getScratchElementBytes(type.getElementType());
  int64_t cols = type.getDimSize(1);
  if ((cols * bytes) % 128)
    return cols;
  return cols + 16 / bytes;
}

std::optional<SmallVector<unsigned>>
mlir::tilegpu::getRegisterRemap(Operation *op) {
  if (op->getNumOperands() < 1 || op->getNumResults() != 1)
    return std::nullopt;
  auto srcType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!srcType || !dstType || !getLayout(srcType) || !getLayout(dstType))
    return std::nullopt;
  LinearLayout src = getLinearLayout(srcType);
  LinearLayout dst = getLinearLayout(dstType);
  return llvm::TypeSwitch<Operation *, std::optional<SmallVector<unsigned>>>(op)
      .Case<ConvertLayoutOp>([&](auto) { return src.registerMapTo(dst); })
      .Case<tile::ExpandDimsOp>([&](tile::ExpandDimsOp e) {
        return src.insertDim(e.getAxis()).registerMapTo(dst);
      })
      .Case<tile::BroadcastOp>([&](auto) {
        SmallVector<unsigned> dims;
        for (int64_t d = 0; d < srcType.getRank(); ++d)
          if (srcType.getDimSize(d) != dstType.getDimSize(d))
            dims.push_back(d);
        return src.registerMapTo(dst.zeroDims(dims));
      })
      .Case<tile::TransOp>([&](tile::TransOp t) {
        return src.permuteDims(t.getOrder()).registerMapTo(dst);
      })
      .Case<tile::ReshapeOp>([&](tile::ReshapeOp r) {
        return src.reshape(dstType.getShape()).registerMapTo(dst);
      })
      .Case<ExtractSliceOp>([&](ExtractSliceOp e) {
        return src.registerMapToWindow(dst, e.getOffsets());
      })
      .Default([](Operation *) { return std::nullopt; });
}

unsigned mlir::tilegpu::getScratchOffset(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr))
    return attr.getInt();
  return 0;
}

unsigned mlir::tilegpu::getScratchBytes(Operation *op) {
  return llvm::TypeSwitch<Operation *, unsigned>(op)
      .Case<ConvertLayoutOp, tile::ExpandDimsOp, tile::BroadcastOp,
            tile::TransOp>([&](Operation *o) -> unsigned {
        if (!getLayout(o->getResult(0).getType()) || getRegisterRemap(o))
          return 0;
        if (int64_t pitch = getRowScratchPitch(o)) {
          auto type = cast<RankedTensorType>(o->getOperand(0).getType());
          return alignScratch(type.getDimSize(0) * pitch *
                              getScratchElementBytes(type.getElementType()));
        }
        return tensorBytes(o->getOperand(0)) / getScratchRounds(o);
      })
      .Case<tile::ReshapeOp>([&](tile::ReshapeOp r) -> unsigned {
        if (!getLayout(r.getType()) || getRegisterRemap(r))
          return 0;
        return tensorBytes(r.getSrc()) / getScratchRounds(r);
      })
      .Case<tile::ReduceOp>([&](tile::ReduceOp r) -> unsigned {
        auto srcType = cast<RankedTensorType>(r.getSrcs()[0].getType());
        if (!getLayout(srcType))
          return 0;
        unsigned total = 0;
        if (std::optional<ReductionPlan> plan =
                planReduction(getLinearLayout(srcType),
                              getReductionResultLayout(r), r.getAxis())) {
          // One partial per combining warp and result element.
          if (plan->warpBits.empty())
            return 0;
          int64_t resultElements = srcType.getNumElements() /
                                   srcType.getDimSize(r.getAxis());
          for (Value v : r.getSrcs())
            total += alignScratch(
                resultElements * plan->getNumWarpSlots() *
                getScratchElementBytes(
                    cast<RankedTensorType>(v.getType()).getElementType()));
          return total;
        }
        for (Value v : r.getSrcs())
          total += tensorBytes(v);
        return total;
      })
      .Case<tile::MakeTensorMapOp>([&](auto) -> unsigned {
        // The map is built in shared memory, then copied out; its address
        // follows it.
        return kTensorMapAddressOffset + 16;
      })
      .Case<tile::GatherOp>([&](tile::GatherOp g) -> unsigned {
        // The whole source, row-major.
        if (!getLayout(g.getSrc().getType()))
          return 0;
        return tensorBytes(g.getSrc());
      })
      .Case<tile::HistogramOp>([&](tile::HistogramOp h) -> unsigned {
        // One i32 counter per bin.
        if (!getLayout(h.getResult().getType()))
          return 0;
        return alignScratch(
            cast<RankedTensorType>(h.getResult().getType()).getNumElements() *
            4);
      })
      .Case<tile::ScanOp>([&](tile::ScanOp s) -> unsigned {
        // Two copies of every operand: a step reads one, writes the other.
        if (!getLayout(s.getSrcs()[0].getType()))
          return 0;
        unsigned total = 0;
        for (Value v : s.getSrcs())
          total += 2 * tensorBytes(v);
        return total;
      })
      .Case<tile::DotOp>([&](tile::DotOp d) -> unsigned {
        // mma.sync reads its operands from registers.
        if (!getLayout(d.getType()) || isa<MmaEncodingAttr>(d.getType().getEncoding()))
          return 0;
        return tensorBytes(d.getA()) + tensorBytes(d.getB());
      })
      .Case<tile::AtomicRMWOp>([&](tile::AtomicRMWOp a) -> unsigned {
        // The owner of each element shares the old value with its copies.
        if (a.getResult().use_empty())
          return 0;
        Type t = a.getResult().getType();
        if (!isa<RankedTensorType>(t))
          return alignScratch(getScratchElementBytes(t));
        LinearLayout ll = getLinearLayout(cast<RankedTensorType>(t));
        if (!ll.getFreeLaneMask() && !ll.getFreeWarpMask())
          return 0;
        return tensorBytes(a.getResult());
      })
      .Default([](Operation *) -> unsigned { return 0; });
}
