//===- InlineAsm.cpp - tl.inline_asm_elementwise per pack of registers ----===//
//
// Each run of the asm takes `pack` registers of every operand, packed into
// one 32-bit word when narrower (4 x i8, 2 x f16), and gives `pack` of every
// result, unpacked the same way; a thread whose register count is not a
// multiple of `pack` pads its last run with zeros. Elementwise, so any
// grouping of a thread's registers is as good as another, as long as all
// operands and results use the same.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

struct InlineAsmLowering : public OpConversionPattern<InlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(InlineAsmOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    unsigned pack = op.getPack();
    SmallVector<Type> resultElems;
    for (Type t : op.getResults().getTypes())
      resultElems.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(t)));
    // The register operands of one run: `pack` elements as one word.
    auto wordType = [&](Type elem) -> Type {
      if (pack == 1)
        return elem;
      return b.getIntegerType(elem.getIntOrFloatBitWidth() * pack);
    };
    auto packWord = [&](ArrayRef<Value> values) -> Value {
      if (pack == 1)
        return values[0];
      Value v = packVector(b, loc, values);
      return LLVM::BitcastOp::create(b, loc, wordType(values[0].getType()), v);
    };
    auto unpackWord = [&](Value word, Type elem) -> SmallVector<Value> {
      if (pack == 1)
        return {word};
      auto vec = VectorType::get({(int64_t)pack}, elem);
      return unpackVector(b, loc, LLVM::BitcastOp::create(b, loc, vec, word),
                          pack);
    };
    SmallVector<Type> words;
    for (Type e : resultElems)
      words.push_back(wordType(e));
    Type resultType =
        words.size() == 1
            ? words[0]
            : LLVM::LLVMStructType::getLiteral(b.getContext(), words);

    // Registers per thread: the operands', or (none) the result layout's.
    Type firstResult = op.getResults()[0].getType();
    size_t numRegs = !adaptor.getArgs().empty() ? adaptor.getArgs()[0].size()
                     : isa<RankedTensorType>(firstResult)
                         ? layoutOf(firstResult).getNumRegs()
                         : 1;
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t first = 0; first < numRegs; first += pack) {
      SmallVector<Value> operands;
      for (ValueRange arg : adaptor.getArgs()) {
        SmallVector<Value> values;
        for (size_t r = first; r < first + pack; ++r)
          values.push_back(r < numRegs
                               ? arg[r]
                               : (Value)arith::ConstantOp::create(
                                     b, loc, b.getZeroAttr(arg[0].getType())));
        operands.push_back(packWord(values));
      }
      auto asmOp = createInlineAsm(b, loc, resultType, operands,
                                   op.getAsmString(), op.getConstraints(),
                                   /*hasSideEffects=*/!op.getPure());
      for (auto [k, elem] : llvm::enumerate(resultElems)) {
        Value word = words.size() == 1
                         ? asmOp.getResult(0)
                         : (Value)LLVM::ExtractValueOp::create(
                               b, loc, asmOp.getResult(0), k);
        SmallVector<Value> values = unpackWord(word, elem);
        for (size_t i = 0; i < pack && first + i < numRegs; ++i)
          results[k].push_back(values[i]);
      }
    }
    b.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateInlineAsmPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<InlineAsmLowering>(converter, patterns.getContext());
}
