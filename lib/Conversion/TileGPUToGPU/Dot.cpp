//===- Dot.cpp - dot as a register-tiled outer product --------------------===//
//
// The portable lowering of tile.dot: A and B go to shared memory, and each
// thread accumulates its own elements of C over K with scalar FMAs, loading
// each row of A and column of B it needs once per k. (Tensor cores replace
// this for fp16/bf16/tf32, fp8 and int8 in the matmul pipeline.)
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/TileGPU/Scratch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// Store all elements of a tensor to the scratch at `byteBase`.
static void spill(OpBuilder &b, Location loc, ValueRange values,
                  RankedTensorType type, Type elem, unsigned byteBase) {
  auto coords = emitCoordinates(b, loc, layoutOf(type));
  for (auto [value, c] : llvm::zip(values, coords)) {
    Value off = linearOffset(b, loc, c, type.getShape());
    storeScratch(b, loc, scratchAddress(b, loc, off, elem, byteBase), value);
  }
}

/// Two 16-bit values as one mma.sync operand register: vector<2xf16> for
/// f16, an i32 for bf16 (as the NVVM op takes them).
static Value pack16(OpBuilder &b, Location loc, Value lo, Value hi) {
  Value v = packVector(b, loc, {lo, hi});
  if (lo.getType().isF16())
    return v;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

/// Four 8-bit values (fp8 or int8 registers, i8) as one mma.sync operand
/// register, the first in the low byte.
static Value pack8(OpBuilder &b, Location loc, ArrayRef<Value> bytes) {
  Value v = packVector(b, loc, bytes);
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

/// The PTX type of an 8-bit mma.sync operand.
static StringRef eightBitPtxType(Type elem) {
  if (isa<Float8E4M3FNType>(elem))
    return "e4m3";
  if (isa<Float8E5M2Type>(elem))
    return "e5m2";
  return "s8";
}

/// An fp32 value rounded to tf32 (round to nearest, ties away), as the
/// 32-bit register mma.sync reads.
static Value toTF32(OpBuilder &b, Location loc, Value f) {
  return NVVM::ConvertFloatToTF32Op::create(b, loc, b.getI32Type(), f,
                                            NVVM::FPRoundingMode::RNA,
                                            NVVM::SaturationMode::NONE,
                                            /*relu=*/false);
}

/// What rounding x to tf32 left over, itself rounded to tf32: x is close
/// to toTF32(x) + tf32Residual(x) with 21 bits of mantissa between them.
/// (cvt leaves the 13 low bits of its result unspecified, so they are
/// cleared before the subtraction.)
static Value tf32Residual(OpBuilder &b, Location loc, Value x) {
  Value bits = arith::AndIOp::create(b, loc, toTF32(b, loc, x),
                                     i32Constant(b, loc, 0xFFFFE000));
  Value big = LLVM::BitcastOp::create(b, loc, b.getF32Type(), bits);
  return toTF32(b, loc, arith::SubFOp::create(b, loc, x, big));
}

/// d = a @ b + c with mma.sync: one instruction per 16 x 8 tile of C per
/// k-step, with the operand registers taken from the dot-operand layouts.
static LogicalResult lowerWithMma(DotOp op, ValueRange a, ValueRange bRegs,
                                  ValueRange c,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto aType = op.getA().getType(), bType = op.getB().getType();
  auto mma = cast<tilegpu::MmaEncodingAttr>(op.getType().getEncoding());
  Type inElem = aType.getElementType();
  bool tf32 = inElem.isF32();
  bool tf32x3 = tf32 && op.getInputPrecision() == InputPrecision::tf32x3;
  int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
          N = bType.getDimSize(1);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  bool eightBit = inElem.getIntOrFloatBitWidth() == 8;
  int64_t kStep = tf32 ? 8 : eightBit ? 32 : 16;
  auto aRegs = registersByCoordinate(layoutOf(aType));
  auto bRegsAt = registersByCoordinate(layoutOf(bType));
  auto cRegs = registersByCoordinate(layoutOf(op.getType()));
  auto find = [&](auto &regs, int64_t r,
                  int64_t col) -> std::optional<unsigned> {
    auto it = regs.find({static_cast<int32_t>(r), static_cast<int32_t>(col)});
    if (it == regs.end())
      return std::nullopt;
    return it->second;
  };
  NVVM::MMATypes ptxType = inElem.isBF16() ? NVVM::MMATypes::bf16
                           : tf32          ? NVVM::MMATypes::tf32
                                           : NVVM::MMATypes::f16;
  auto structType = LLVM::LLVMStructType::getLiteral(
      rewriter.getContext(), SmallVector<Type>(4, rewriter.getF32Type()));

  // Each operand register pair feeds every mma of its row (A) or column
  // (B) of tiles: pack it once.
  DenseMap<unsigned, Value> packedA, packedB;
  auto packPair = [&](DenseMap<unsigned, Value> &packed, ValueRange regs,
                      unsigned lo, unsigned hi) {
    Value &v = packed[lo];
    if (!v)
      v = pack16(rewriter, loc, regs[lo], regs[hi]);
    return v;
  };

  SmallVector<Value> acc(c.begin(), c.end());
  int64_t mTiles = std::max<int64_t>(1, M / (16 * wm));
  int64_t nTiles = std::max<int64_t>(1, N / (8 * wn));
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      int64_t m0 = 16 * wm * mt, n0 = 8 * wn * nt;
      unsigned cIdx[4];
      int64_t cOff[4][2] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}};
      for (int i = 0; i < 4; ++i) {
        auto r = find(cRegs, m0 + cOff[i][0], n0 + cOff[i][1]);
        if (!r)
          return op.emitOpError("internal error: accumulator register missing");
        cIdx[i] = *r;
      }
      auto issue = [&](SmallVector<Value> operands) {
        // Four A registers then two B registers (both for every type).
        SmallVector<Value> cOps;
        for (unsigned i : cIdx)
          cOps.push_back(acc[i]);
        auto mmaOp = NVVM::MmaOp::create(
            rewriter, loc, structType, ArrayRef<Value>(operands).take_front(4),
            ArrayRef<Value>(operands).drop_front(4), cOps,
            ArrayRef<int64_t>{16, 8, kStep}, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int i = 0; i < 4; ++i)
          acc[cIdx[i]] = LLVM::ExtractValueOp::create(
              rewriter, loc, mmaOp.getResult(), ArrayRef<int64_t>{i});
      };
      // m16n8k32 for 8-bit operands, which the NVVM op does not take for
      // fp8: inline PTX (fp8 from sm_89; int8 into int32 wraps, as
      // Triton's).
      auto issueEightBit = [&](ArrayRef<Value> operands) {
        Type accType = acc[cIdx[0]].getType();
        bool intAcc = accType.isInteger(32);
        std::string text =
            ("mma.sync.aligned.m16n8k32.row.col." +
             Twine(intAcc ? "s32" : "f32") + "." + eightBitPtxType(inElem) +
             "." + eightBitPtxType(bType.getElementType()) + "." +
             (intAcc ? "s32" : "f32") +
             " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
             "{$10, $11, $12, $13};")
                .str();
        std::string c = intAcc ? "r" : "f";
        std::string constraints = "=" + c + ",=" + c + ",=" + c + ",=" + c +
                                  ",r,r,r,r,r,r," + c + "," + c + "," + c +
                                  "," + c;
        SmallVector<Value> all(operands);
        for (unsigned i : cIdx)
          all.push_back(acc[i]);
        auto accStruct = LLVM::LLVMStructType::getLiteral(
            rewriter.getContext(), SmallVector<Type>(4, accType));
        Value result = createInlineAsm(rewriter, loc, accStruct, all, text,
                                       constraints, /*hasSideEffects=*/false)
                           .getResult(0);
        for (int i = 0; i < 4; ++i)
          acc[cIdx[i]] = LLVM::ExtractValueOp::create(rewriter, loc, result,
                                                      ArrayRef<int64_t>{i});
      };
      for (int64_t k0 = 0; k0 < K; k0 += kStep) {
        if (eightBit) {
          // a0..a3 hold (g, 4t..4t+3), (g+8, ...), (g, 16+4t..), (g+8, ..);
          // b0, b1 hold (4t..4t+3, g), (16+4t.., g): four bytes along K.
          SmallVector<Value> operands;
          auto packAlongK = [&](auto &regs, ValueRange values, int64_t row,
                                int64_t col, bool kIsCol) {
            SmallVector<Value> bytes;
            for (int64_t e = 0; e < 4; ++e) {
              auto r =
                  kIsCol ? find(regs, row, col + e) : find(regs, row + e, col);
              if (!r)
                return false;
              bytes.push_back(values[*r]);
            }
            operands.push_back(pack8(rewriter, loc, bytes));
            return true;
          };
          int64_t aOff[4][2] = {{0, 0}, {8, 0}, {0, 16}, {8, 16}};
          bool found = true;
          for (auto &o : aOff)
            found &= packAlongK(aRegs, a, m0 + o[0], k0 + o[1], true);
          for (int64_t o : {0, 16})
            found &= packAlongK(bRegsAt, bRegs, k0 + o, n0, false);
          if (!found)
            return op.emitOpError("internal error: operand register missing");
          issueEightBit(operands);
        } else if (tf32) {
          SmallVector<Value> aVals, bVals;
          int64_t aOff[4][2] = {{0, 0}, {8, 0}, {0, 4}, {8, 4}};
          for (auto &o : aOff) {
            auto r = find(aRegs, m0 + o[0], k0 + o[1]);
            if (!r)
              return op.emitOpError("internal error: operand register missing");
            aVals.push_back(a[*r]);
          }
          int64_t bOff[2][2] = {{0, 0}, {4, 0}};
          for (auto &o : bOff) {
            auto r = find(bRegsAt, k0 + o[0], n0 + o[1]);
            if (!r)
              return op.emitOpError("internal error: operand register missing");
            bVals.push_back(bRegs[*r]);
          }
          auto split = [&](ArrayRef<Value> values, bool residual) {
            SmallVector<Value> out;
            for (Value v : values)
              out.push_back(residual ? tf32Residual(rewriter, loc, v)
                                     : toTF32(rewriter, loc, v));
            return out;
          };
          auto concat = [](SmallVector<Value> x, ArrayRef<Value> y) {
            x.append(y.begin(), y.end());
            return x;
          };
          SmallVector<Value> aBig = split(aVals, false),
                             bBig = split(bVals, false);
          if (tf32x3) {
            // The two cross terms of (aBig + aSmall)(bBig + bSmall) first,
            // small before large, then the main term.
            issue(concat(split(aVals, true), bBig));
            issue(concat(aBig, split(bVals, true)));
          }
          issue(concat(aBig, bBig));
        } else {
          SmallVector<Value> operands;
          int64_t aOff[4][2] = {{0, 0}, {8, 0}, {0, 8}, {8, 8}};
          for (auto &o : aOff) {
            auto lo = find(aRegs, m0 + o[0], k0 + o[1]);
            auto hi = find(aRegs, m0 + o[0], k0 + o[1] + 1);
            if (!lo || !hi)
              return op.emitOpError("internal error: operand register missing");
            operands.push_back(packPair(packedA, a, *lo, *hi));
          }
          int64_t bOff[2] = {0, 8};
          for (int64_t o : bOff) {
            auto lo = find(bRegsAt, k0 + o, n0);
            auto hi = find(bRegsAt, k0 + o + 1, n0);
            if (!lo || !hi)
              return op.emitOpError("internal error: operand register missing");
            operands.push_back(packPair(packedB, bRegs, *lo, *hi));
          }
          issue(std::move(operands));
        }
      }
    }
  rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{acc});
  return success();
}

struct DotLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto mma =
            dyn_cast<tilegpu::MmaEncodingAttr>(op.getType().getEncoding())) {
      if (mma.getVersion() == 3)
        return op.emitOpError("has a wgmma layout but was not rewritten to "
                              "tilegpu.warpgroup_dot (run "
                              "tilegpu-shared-dot-operands)");
      return lowerWithMma(op, adaptor.getA(), adaptor.getB(), adaptor.getC(),
                          rewriter);
    }
    Location loc = op.getLoc();
    auto aType = op.getA().getType(), bType = op.getB().getType();
    auto cType = op.getType();
    int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
            N = bType.getDimSize(1);
    Type inElem = aType.getElementType();
    Type outElem = cType.getElementType();
    bool isFloat = isa<FloatType>(outElem);
    // Accumulate in fp32 for 16-bit float outputs.
    Type accElem = isFloat && outElem.getIntOrFloatBitWidth() < 32
                       ? rewriter.getF32Type()
                       : outElem;
    unsigned aBase = tilegpu::getScratchOffset(op);
    unsigned bBase =
        aBase +
        tilegpu::alignScratch(M * K * tilegpu::getScratchElementBytes(inElem));

    barrier(rewriter, loc);
    spill(rewriter, loc, adaptor.getA(), aType, inElem, aBase);
    spill(rewriter, loc, adaptor.getB(), bType, inElem, bBase);
    barrier(rewriter, loc);

    // Group the result registers by row and by column: each distinct row of
    // A and column of B is loaded once per k.
    tilegpu::LinearLayout cLayout = layoutOf(cType);
    auto cCoords = emitCoordinates(rewriter, loc, cLayout);
    std::map<int32_t, unsigned> rowIndex, colIndex;
    SmallVector<Value> rowStarts, cols;
    SmallVector<unsigned> rowOf, colOf;
    for (unsigned r = 0; r < cLayout.getNumRegs(); ++r) {
      auto offset = cLayout.regCoord(r);
      auto [ri, newRow] = rowIndex.emplace(offset[0], rowStarts.size());
      if (newRow)
        rowStarts.push_back(arith::MulIOp::create(
            rewriter, loc, cCoords[r][0], i32Constant(rewriter, loc, K)));
      auto [ci, newCol] = colIndex.emplace(offset[1], cols.size());
      if (newCol)
        cols.push_back(cCoords[r][1]);
      rowOf.push_back(ri->second);
      colOf.push_back(ci->second);
    }

    auto widen = [&](OpBuilder &b, Value v) -> Value {
      if (v.getType() == accElem)
        return v;
      if (isFloat)
        return arith::ExtFOp::create(b, loc, accElem, v);
      return arith::ExtSIOp::create(b, loc, accElem, v);
    };
    SmallVector<Value> inits;
    for (Value c : adaptor.getC())
      inits.push_back(widen(rewriter, c));
    scf::ForOp loop = createEmptyLoop(rewriter, loc, 0, K, inits);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(loop.getBody());
      Value k = loop.getInductionVar();
      SmallVector<Value> aVals, bVals;
      for (Value start : rowStarts) {
        Value off = arith::AddIOp::create(rewriter, loc, start, k);
        aVals.push_back(
            widen(rewriter,
                  loadScratch(rewriter, loc,
                              scratchAddress(rewriter, loc, off, inElem, aBase),
                              inElem)));
      }
      Value kRow = arith::MulIOp::create(rewriter, loc, k,
                                         i32Constant(rewriter, loc, N));
      for (Value col : cols) {
        Value off = arith::AddIOp::create(rewriter, loc, kRow, col);
        bVals.push_back(
            widen(rewriter,
                  loadScratch(rewriter, loc,
                              scratchAddress(rewriter, loc, off, inElem, bBase),
                              inElem)));
      }
      SmallVector<Value> next;
      for (unsigned r = 0; r < rowOf.size(); ++r) {
        Value acc = loop.getRegionIterArg(r);
        Value a = aVals[rowOf[r]], b = bVals[colOf[r]];
        if (isFloat)
          next.push_back(math::FmaOp::create(rewriter, loc, a, b, acc));
        else
          next.push_back(arith::AddIOp::create(
              rewriter, loc, acc, arith::MulIOp::create(rewriter, loc, a, b)));
      }
      scf::YieldOp::create(rewriter, loc, next);
    }
    SmallVector<Value> results;
    for (Value v : loop.getResults())
      results.push_back(
          v.getType() == outElem
              ? v
              : (Value)arith::TruncFOp::create(rewriter, loc, outElem, v));
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateDotPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}
