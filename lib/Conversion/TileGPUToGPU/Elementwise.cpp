//===- Elementwise.cpp - Per-element ops, constants, ranges, program ids --===//

#include "Utility.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// The NVVM intrinsic for an fp32 op where it is not LLVM's default:
/// allowed to approximate (`afn`), as Triton lowers them, `/` is div.full,
/// exp and exp2 ex2.approx.ftz (exp of x * log2(e); libdevice's exp2f is
/// the same), sqrt and rsqrt their .approx forms; an exact sqrt (sqrt_rn)
/// is sqrt.rn. Empty otherwise.
static StringRef fp32Intrinsic(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fm || op->getNumResults() != 1 ||
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return {};
  arith::FastMathFlagsAttr flags = fm.getFastMathFlagsAttr();
  bool afn = flags && bitEnumContainsAll(flags.getValue(),
                                         arith::FastMathFlags::afn);
  // libdevice's sqrtf is the approximate one: sqrt_rn asks for sqrt.rn.
  if (!afn)
    return isa<math::SqrtOp>(op) ? "llvm.nvvm.sqrt.rn.f" : StringRef();
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<arith::DivFOp>([](auto) { return "llvm.nvvm.div.full"; })
      .Case<math::ExpOp, math::Exp2Op>(
          [](auto) { return "llvm.nvvm.ex2.approx.ftz.f32"; })
      .Case<math::SqrtOp>([](auto) { return "llvm.nvvm.sqrt.approx.f"; })
      .Case<math::RsqrtOp>([](auto) { return "llvm.nvvm.rsqrt.approx.f"; })
      .Default([](Operation *) { return StringRef(); });
}

/// Any arith/math op on distributed tensors (or on pointers) applies to each
/// register separately. Scalar operands (arith.select's condition) are used
/// for every register.
struct ElementwiseOpLowering : public ConversionPattern {
  ElementwiseOpLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumRegions() != 0 || isa<arith::ConstantOp>(op))
      return failure();
    size_t n = 1;
    for (ValueRange r : operands)
      n = std::max(n, r.size());
    SmallVector<Type> resultElems;
    for (Type t : op->getResultTypes()) {
      SmallVector<Type> converted;
      if (failed(getTypeConverter()->convertType(t, converted)) ||
          converted.empty())
        return rewriter.notifyMatchFailure(op, "unconvertible result type");
      resultElems.push_back(converted.front());
    }
    // fp8 <-> i8 is the same register.
    if (isa<arith::BitcastOp>(op) &&
        resultElems[0] == operands[0][0].getType()) {
      rewriter.replaceOpWithMultiple(op, {llvm::to_vector(operands[0])});
      return success();
    }
    // fp32 to fp16 or bf16 rounded toward zero (fp_downcast_rounding="rtz").
    if (auto trunc = dyn_cast<arith::TruncFOp>(op);
        trunc && trunc.getRoundingmode() == arith::RoundingMode::toward_zero) {
      Type to = getElementTypeOrSelf(trunc.getType());
      std::string text = std::string("cvt.rz.") +
                         (to.isBF16() ? "bf16" : "f16") + ".f32 $0, $1;";
      SmallVector<Value> converted;
      for (Value v : operands[0]) {
        Value bits = createInlineAsm(rewriter, op->getLoc(),
                                     rewriter.getI16Type(), {v}, text, "=h,f")
                         .getResult(0);
        converted.push_back(
            LLVM::BitcastOp::create(rewriter, op->getLoc(), to, bits));
      }
      rewriter.replaceOpWithMultiple(op, {converted});
      return success();
    }
    if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
      Type from = getElementTypeOrSelf(op->getOperand(0).getType());
      Type to = getElementTypeOrSelf(op->getResult(0).getType());
      if (isFloat8Type(from) != isFloat8Type(to)) {
        rewriter.replaceOpWithMultiple(
            op, {convertFloat8(rewriter, op->getLoc(), operands[0], from, to)});
        return success();
      }
    }
    StringRef intrinsic = fp32Intrinsic(op);
    Value log2e;
    if (!intrinsic.empty() && isa<math::ExpOp>(op))
      log2e = arith::ConstantOp::create(
          rewriter, op->getLoc(), rewriter.getF32FloatAttr(1.4426950408889634f));
    // Runs of registers the axis analysis proved equal take the first's.
    unsigned run = 1;
    if (auto attr = op->getAttrOfType<IntegerAttr>(tilegpu::kConstancyAttrName))
      run = attr.getInt();
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : op->getAttrs())
      if (a.getName() != tilegpu::kConstancyAttrName)
        attrs.push_back(a);
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (size_t i = 0; i < n; ++i) {
      if (i % run != 0) {
        for (SmallVector<Value> &r : results)
          r.push_back(r[i - i % run]);
        continue;
      }
      SmallVector<Value> args;
      for (ValueRange r : operands)
        args.push_back(r.size() == 1 ? r[0] : r[i]);
      if (!intrinsic.empty()) {
        if (log2e)
          args[0] = arith::MulFOp::create(rewriter, op->getLoc(), args[0],
                                          log2e);
        results[0].push_back(
            LLVM::CallIntrinsicOp::create(rewriter, op->getLoc(),
                                          rewriter.getF32Type(),
                                          rewriter.getStringAttr(intrinsic),
                                          args)
                .getResult(0));
        continue;
      }
      OperationState state(op->getLoc(), op->getName(), args, resultElems,
                           attrs);
      Operation *scalar = rewriter.create(state);
      for (auto [k, v] : llvm::enumerate(scalar->getResults()))
        results[k].push_back(v);
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// A splat constant tensor: the same scalar in every register.
struct ConstantLowering : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!type && isFloat8Type(op.getType())) { // a scalar fp8: its bits
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, float8AsBits(cast<TypedAttr>(op.getValue())));
      return success();
    }
    if (!type)
      return rewriter.notifyMatchFailure(op, "not a tensor constant");
    if (!splat)
      return op.emitOpError("non-splat tensor constants are not supported on "
                            "the GPU");
    auto value =
        float8AsBits(cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(), value);
    unsigned n = layoutOf(type).getNumRegs();
    rewriter.replaceOpWithMultiple(
        op, SmallVector<SmallVector<Value>>{SmallVector<Value>(n, scalar)});
    return success();
  }
};

struct SplatLowering : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned n = layoutOf(op.getType()).getNumRegs();
    Value scalar = adaptor.getSrc()[0];
    rewriter.replaceOpWithMultiple(
        op, SmallVector<SmallVector<Value>>{SmallVector<Value>(n, scalar)});
    return success();
  }
};

/// make_range: each register holds start + its coordinate.
struct MakeRangeLowering : public OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> values;
    for (auto &coords : emitCoordinates(rewriter, loc, layoutOf(op.getType()))) {
      Value v = coords[0];
      if (op.getStartAttr().getInt() != 0)
        v = arith::AddIOp::create(rewriter, loc, v,
                                  i32Constant(rewriter, loc, op.getStartAttr().getInt()));
      values.push_back(v);
    }
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{values});
    return success();
  }
};

template <typename SourceOp, typename GpuOp>
struct GridQueryLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    gpu::Dimension dim = op.getAxis() == 0   ? gpu::Dimension::x
                         : op.getAxis() == 1 ? gpu::Dimension::y
                                             : gpu::Dimension::z;
    Value v = GpuOp::create(rewriter, op.getLoc(), dim);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getI32Type(),
                                                    v);
    return success();
  }
};

/// The recorded launch grid has served the passes; nothing runs.
struct LaunchGridLowering : public OpConversionPattern<LaunchGridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaunchGridOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// Hints only inform analyses; the value passes through.
struct HintLowering : public OpConversionPattern<HintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(HintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange src = adaptor.getSrc();
    if (op->hasAttr(kWarpUniformAttrName) && src.size() == 1 &&
        src.front().getType().isInteger(32)) {
      rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), src.front(), 0,
                                     gpu::ShuffleMode::IDX));
      return success();
    }
    rewriter.replaceOpWithMultiple(
        op, SmallVector<SmallVector<Value>>{
                llvm::to_vector(adaptor.getSrc())});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateElementwisePatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseOpLowering, ConstantLowering, SplatLowering,
               MakeRangeLowering, HintLowering, LaunchGridLowering,
               GridQueryLowering<ProgramIdOp, gpu::BlockIdOp>,
               GridQueryLowering<NumProgramsOp, gpu::GridDimOp>>(converter,
                                                                 ctx);
}
