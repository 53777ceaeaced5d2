//===- Debug.cpp - device_print, device_assert and special registers ------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// Each element is checked by the threads that hold it; the failure message
/// names the source location.
struct AssertLowering : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value cond : adaptor.getCondition())
      cf::AssertOp::create(rewriter, op.getLoc(), cond, op.getMessage());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A printf argument and its conversion: floats print as %f (promoted to
/// double by vprintf's lowering), integers as %d or %lld.
static std::pair<Value, StringRef> printable(OpBuilder &b, Location loc,
                                             Value v) {
  Type t = v.getType();
  if (isa<FloatType>(t)) {
    if (t.getIntOrFloatBitWidth() < 32)
      v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return {v, "%f"};
  }
  if (t.getIntOrFloatBitWidth() < 32)
    v = arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
  if (t.isInteger(1))
    v = arith::AndIOp::create(b, loc, v, i32Constant(b, loc, 1));
  return {v, t.getIntOrFloatBitWidth() == 64 ? "%lld" : "%d"};
}

/// One line per element, printed by the element's owner: the program id,
/// the element's index, the prefix and the value.
struct DebugBarrierLowering : public OpConversionPattern<DebugBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DebugBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct PrintLowering : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pid;
    for (auto dim : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      pid.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI32Type(),
          gpu::BlockIdOp::create(rewriter, loc, dim)));
    if (op.getArgs().empty()) {
      emitLine(rewriter, loc, threadZero(rewriter, loc), pid, {},
               op.getPrefix(), {});
      rewriter.eraseOp(op);
      return success();
    }
    for (auto [arg, values] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        emitLine(rewriter, loc, threadZero(rewriter, loc), pid, {},
                 op.getPrefix(), values[0]);
        continue;
      }
      tilegpu::LinearLayout layout = layoutOf(tensor);
      Value owner = emitOwnerPredicate(rewriter, loc, layout);
      auto coords = emitCoordinates(rewriter, loc, layout);
      for (auto [value, c] : llvm::zip(values, coords))
        emitLine(rewriter, loc, owner, pid, c, op.getPrefix(), value);
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  static Value threadZero(OpBuilder &b, Location loc) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 getThreadId(b, loc), i32Constant(b, loc, 0));
  }

  static void emitLine(OpBuilder &b, Location loc, Value guard,
                       ArrayRef<Value> pid, ArrayRef<Value> index,
                       StringRef prefix, Value value) {
    std::string format = "pid (%d, %d, %d)";
    SmallVector<Value> args(pid);
    if (!index.empty()) {
      format += " idx (";
      for (size_t i = 0; i < index.size(); ++i) {
        format += i ? ", %d" : "%d";
        args.push_back(index[i]);
      }
      format += ")";
    }
    // The prefix is user text, not a format: '%' prints as itself.
    format += " ";
    for (char c : prefix) {
      format += c;
      if (c == '%')
        format += '%';
    }
    auto emit = [&](OpBuilder &builder) {
      SmallVector<Value> all(args);
      std::string f = format;
      if (value) {
        auto [v, spec] = printable(builder, loc, value);
        f += " " + spec.str();
        all.push_back(v);
      }
      gpu::PrintfOp::create(builder, loc, builder.getStringAttr(f + "\n"), all);
    };
    if (!guard) {
      emit(b);
      return;
    }
    auto ifOp = scf::IfOp::create(b, loc, guard);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emit(b);
  }
};

} // namespace

/// %globaltimer or %smid, read where the op stands (side effects keep two
/// reads apart).
struct SpecialRegisterLowering : public OpConversionPattern<SpecialRegisterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SpecialRegisterOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool timer = op.getSreg() == "globaltimer";
    std::string text = (timer ? "mov.u64 $0, %" : "mov.u32 $0, %") +
                       op.getSreg().str() + ";";
    Value v = createInlineAsm(rewriter, op.getLoc(), op.getType(), {}, text,
                              timer ? "=l" : "=r")
                  .getResult(0);
    rewriter.replaceOpWithMultiple(op, {v});
    return success();
  }
};

void mlir::tile::lowering::populateDebugPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AssertLowering, PrintLowering, DebugBarrierLowering,
               SpecialRegisterLowering>(converter, patterns.getContext());
}
