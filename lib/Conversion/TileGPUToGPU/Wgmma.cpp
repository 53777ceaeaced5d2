//===- Wgmma.cpp - warpgroup_dot as Hopper wgmma.mma_async ----------------===//
//
// Each warpgroup owns a 64 x n block of the result per instruction (its
// warps' 16-row bands, as the version-3 #mma layout places them) and walks
// K in steps of 16, reading A and B from shared memory through matrix
// descriptors:
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4: from one line of the tile to the
//               next (rows * line bytes)
//   bits 32-45  stride byte offset >> 4: from one group of 8 rows to the
//               next (8 * line bytes)
//   bits 62-63  swizzle: 1 = 128 B, 2 = 64 B, 3 = 32 B lines
// An operand whose contiguous dimension is K is "K-major"; one contiguous
// along M (A) or N (B) is read transposed, which wgmma supports for 16-bit
// types. The accumulator registers of one instruction are the layout's
// registers of that block in the PTX order (4 per 8 columns).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::MemDescType;
using tilegpu::SharedEncodingAttr;

namespace {

/// How wgmma reads one operand buffer.
struct OperandDescriptor {
  Value base;       // !llvm.ptr<3> of the buffer
  MemDescType type; // its 2-D type
  uint64_t fixedBits;

  OperandDescriptor(Value base, MemDescType type) : base(base), type(type) {
    SharedEncodingAttr enc = type.getEncoding();
    unsigned elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    uint64_t lineBytes = enc.getLineElems() * elemBytes;
    uint64_t rows = type.getShape()[enc.getOrder()[1]];
    uint64_t mode = lineBytes == 128 ? 1 : lineBytes == 64 ? 2 : 3;
    fixedBits = (((rows * lineBytes) >> 4) << 16) |
                (((8 * lineBytes) >> 4) << 32) | (mode << 62);
  }

  /// Whether the operand's contiguous dimension is `dim`.
  bool contiguousAlong(unsigned dim) const {
    return type.getEncoding().getOrder()[0] == dim;
  }

  /// The descriptor of the sub-tile whose first element is `coords`
  /// (a multiple of 8 rows, so the swizzle phase there is zero).
  Value at(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
    SharedEncodingAttr enc = type.getEncoding();
    unsigned colDim = enc.getOrder()[0], rowDim = enc.getOrder()[1];
    int64_t lineLength = enc.getLineElems();
    int64_t rows = type.getShape()[rowDim];
    Value col = coords[colDim], row = coords[rowDim];
    Value line = arith::DivUIOp::create(b, loc, col, i32Constant(b, loc, lineLength));
    Value inLine = arith::RemUIOp::create(b, loc, col, i32Constant(b, loc, lineLength));
    Value elems = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, line, i32Constant(b, loc, rows * lineLength)),
        arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, row, i32Constant(b, loc, lineLength)),
            inLine));
    unsigned elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    Value bytes = arith::MulIOp::create(b, loc, elems, i32Constant(b, loc, elemBytes));
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(),
                                          sharedAddress(b, loc, base, bytes));
    Value field = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, addr, i32Constant(b, loc, 4)),
        i32Constant(b, loc, 0x3FFF));
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), field);
    return arith::OrIOp::create(b, loc, wide,
                                i64Constant(b, loc, static_cast<int64_t>(fixedBits)));
  }
};

/// `values` tied through `wgmma.wait_group pending`, so that no reader of
/// an accumulator moves above the wait.
static SmallVector<Value> waitGroup(OpBuilder &b, Location loc,
                                   ValueRange values, unsigned pending) {
  SmallVector<Type> types(values.getTypes());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  std::string constraints;
  for (Type t : types)
    constraints += t.isF32() ? "=f," : t.isF64() ? "=d," : t.isInteger(64) ? "=l," : "=r,";
  for (unsigned i = 0; i < values.size(); ++i)
    constraints += std::to_string(i) + (i + 1 < values.size() ? "," : "");
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, structType, values,
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> out;
  for (unsigned i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                               ArrayRef<int64_t>{i}));
  return out;
}

struct WarpGroupDotLowering
    : public OpConversionPattern<tilegpu::WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<tilegpu::MmaEncodingAttr>(cType.getEncoding());
    tilegpu::LinearLayout layout = layoutOf(cType);
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = op.getA().getType().getShape()[1];
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t instrN = mma.getInstrShape()[1];
    OperandDescriptor a(adaptor.getA()[0], op.getA().getType());
    OperandDescriptor b(adaptor.getB()[0], op.getB().getType());

    // The first row and column of this warpgroup's block: the warp bits
    // above the two that pick a warp within the group.
    Value group = arith::AndIOp::create(rewriter, loc, getWarpId(rewriter, loc),
                                        i32Constant(rewriter, loc, ~3));
    auto origin = [&](unsigned dim) -> Value {
      Value v = emitBitsToCoordinate(rewriter, loc, group,
                                     layout.getWarpBases(), dim);
      return v ? v : i32Constant(rewriter, loc, 0);
    };
    Value row0 = origin(0), col0 = origin(1);

    auto regAt = registersByCoordinate(layout);

    Type elem = op.getA().getType().getElementType();
    auto wgmmaType = elem.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
    // K-major A is "row" and K-major B "col"; the others are transposed.
    auto layoutA = a.contiguousAlong(1) ? NVVM::MMALayout::row : NVVM::MMALayout::col;
    auto layoutB = b.contiguousAlong(0) ? NVVM::MMALayout::col : NVVM::MMALayout::row;
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, instrN, 16);
    auto structType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(instrN / 2, rewriter.getF32Type()));

    SmallVector<Value> acc(adaptor.getC().begin(), adaptor.getC().end());
    SmallVector<unsigned> issuedRegs;
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    for (int64_t m = 0; m < M; m += 16 * wm) {
      for (int64_t n = 0; n < N; n += instrN * wn) {
        // Registers of this block in the instruction's order: per 8
        // columns, (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1).
        SmallVector<unsigned> regs;
        for (int64_t j = 0; j < instrN / 8; ++j)
          for (auto [dr, dc] : {std::pair{0, 0}, {0, 1}, {8, 0}, {8, 1}}) {
            auto it = regAt.find({static_cast<int32_t>(m + dr),
                                  static_cast<int32_t>(n + 8 * j + dc)});
            if (it == regAt.end())
              return op.emitOpError("internal error: accumulator register missing");
            regs.push_back(it->second);
          }
        Value packed = LLVM::UndefOp::create(rewriter, loc, structType);
        for (auto [i, r] : llvm::enumerate(regs))
          packed = LLVM::InsertValueOp::create(rewriter, loc, packed, acc[r],
                                               ArrayRef<int64_t>{(int64_t)i});
        Value rowA = arith::AddIOp::create(rewriter, loc, row0,
                                           i32Constant(rewriter, loc, m));
        Value colB = arith::AddIOp::create(rewriter, loc, col0,
                                           i32Constant(rewriter, loc, n));
        for (int64_t k = 0; k < K; k += 16) {
          Value kv = i32Constant(rewriter, loc, k);
          Value descA = a.at(rewriter, loc, {rowA, kv});
          Value descB = b.at(rewriter, loc, {kv, colB});
          packed = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, loc, structType, packed, descA, descB, shape, wgmmaType,
              wgmmaType, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
              NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA,
              layoutB, /*satfinite=*/nullptr);
        }
        for (auto [i, r] : llvm::enumerate(regs)) {
          acc[r] = LLVM::ExtractValueOp::create(rewriter, loc, packed,
                                                ArrayRef<int64_t>{(int64_t)i});
          issuedRegs.push_back(r);
        }
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (!op.getIsAsync()) {
      SmallVector<Value> issued;
      for (unsigned r : issuedRegs)
        issued.push_back(acc[r]);
      for (auto [r, v] :
           llvm::zip(issuedRegs, waitGroup(rewriter, loc, issued, 0)))
        acc[r] = v;
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{acc});
    return success();
  }
};

struct WarpGroupDotWaitLowering
    : public OpConversionPattern<tilegpu::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> flat;
    for (ValueRange regs : adaptor.getInputs())
      flat.append(regs.begin(), regs.end());
    SmallVector<Value> waited =
        waitGroup(rewriter, op.getLoc(), flat, op.getPendings());
    SmallVector<SmallVector<Value>> results;
    unsigned next = 0;
    for (ValueRange regs : adaptor.getInputs()) {
      results.emplace_back(waited.begin() + next,
                           waited.begin() + next + regs.size());
      next += regs.size();
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateWgmmaPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotLowering, WarpGroupDotWaitLowering>(
      converter, patterns.getContext());
}
