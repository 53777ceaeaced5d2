//===- SharedMemory.cpp - Shared tiles, cp.async and ldmatrix -------------===//
//
// A memdesc becomes the !llvm.ptr<3> of its first byte. Elements sit at the
// offsets of their #tilegpu.shared encoding: rows stay in place and the
// column is XORed with a per-row phase, so the 16-byte chunks of eight
// consecutive rows land in eight different bank groups. Threads move runs
// of registers that are contiguous in both the tensor and a chunk with one
// vector access; global-to-shared copies use cp.async with zero fill for
// masked-off elements; tensor-core operands are read with ldmatrix.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::LinearLayout;
using tilegpu::MemDescType;
using tilegpu::SharedEncodingAttr;

namespace {

static unsigned elementBytes(Type elem) {
  return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
}

/// The element offset (i32) of `coords` in a tile of `shape` stored with
/// `enc`; mirrors SharedEncodingAttr::getElementOffset.
static Value swizzledOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                            ArrayRef<int64_t> shape, SharedEncodingAttr enc) {
  ArrayRef<unsigned> order = enc.getOrder();
  Value row;
  int64_t rows = 1;
  for (unsigned i = 1; i < order.size(); ++i) {
    Value term = rows == 1 ? coords[order[i]]
                           : arith::MulIOp::create(b, loc, coords[order[i]],
                                                   i32Constant(b, loc, rows));
    row = row ? arith::AddIOp::create(b, loc, row, term) : term;
    rows *= shape[order[i]];
  }
  Value col = coords[order[0]];
  if (!row)
    return col;
  int64_t lineLength = enc.getLineLength(shape);
  Value lineStart;
  if (lineLength < shape[order[0]]) {
    // Whole lines of every row come before the next line.
    Value line = arith::DivUIOp::create(b, loc, col, i32Constant(b, loc, lineLength));
    lineStart = arith::MulIOp::create(b, loc, line,
                                      i32Constant(b, loc, rows * lineLength));
    col = arith::RemUIOp::create(b, loc, col, i32Constant(b, loc, lineLength));
  }
  Value offset = arith::MulIOp::create(b, loc, row, i32Constant(b, loc, lineLength));
  if (lineStart)
    offset = arith::AddIOp::create(b, loc, offset, lineStart);
  if (enc.getMaxPhase() > 1) {
    Value phase = arith::DivUIOp::create(b, loc, row,
                                         i32Constant(b, loc, enc.getPerPhase()));
    phase = arith::RemUIOp::create(b, loc, phase,
                                   i32Constant(b, loc, enc.getMaxPhase()));
    phase = arith::MulIOp::create(b, loc, phase, i32Constant(b, loc, enc.getVec()));
    col = arith::XOrIOp::create(b, loc, col, phase);
  }
  return arith::AddIOp::create(b, loc, offset, col);
}

/// Every thread stores its registers of a tensor into the tile at `base`.
static void storeTile(OpBuilder &b, Location loc, ValueRange values,
                      RankedTensorType srcType, Value base, MemDescType type,
                      bool inLoop) {
  LinearLayout layout = layoutOf(srcType);
  Type elem = srcType.getElementType();
  unsigned width = tilegpu::getSharedStoreWidth(srcType, type.getEncoding());
  // In a loop, few per-thread bases plus immediates, as
  // LocalLoadLowering's reads: a tile staged in every iteration would
  // otherwise keep one loop-invariant address per store in a register of
  // its own. Outside loops the addresses are used once, and sharing them
  // with the tile's readers measured fewer registers.
  std::optional<SplitSharedOffsets> offsets;
  SmallVector<Value> bases;
  SmallVector<SmallVector<Value>> coords;
  if (inLoop) {
    offsets = splitSharedOffsets(b, loc, layout, type);
    for (Value offset : offsets->bases)
      bases.push_back(sharedAddress(b, loc, base, offset));
  } else {
    coords = emitCoordinates(b, loc, layout);
  }
  for (unsigned r = 0; r < values.size(); r += width) {
    Value addr;
    if (offsets) {
      auto [which, constant] = offsets->registers[r];
      addr = sharedAddress(b, loc, bases[which], i32Constant(b, loc, constant));
    } else {
      addr = elementAddress(b, loc, base, coords[r], type);
    }
    Value v = width == 1 ? values[r]
                         : packVector(b, loc, values.slice(r, width));
    LLVM::StoreOp::create(b, loc, v, addr, width * elementBytes(elem));
  }
}

struct LocalAllocLowering : public OpConversionPattern<tilegpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalAllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getOffset())
      return op.emitOpError("has no shared-memory offset; run "
                            "tilegpu-allocate-shared first");
    Value base = sharedAddress(rewriter, loc, sharedMemoryBase(rewriter, loc),
                               i32Constant(rewriter, loc, *op.getOffset()));
    if (Value src = op.getSrc()) {
      // Earlier readers of this memory (the previous iteration of a loop,
      // or another buffer that shared these bytes) must be done.
      sharedOnlyBarrier(rewriter, loc);
      storeTile(rewriter, loc, adaptor.getSrc(),
                cast<RankedTensorType>(src.getType()), base, op.getType(),
                op->getParentOfType<LoopLikeOpInterface>() != nullptr);
      // Buffers in a wgmma layout are read by the tensor cores' proxy.
      if (op.getType().getEncoding().getLineElems())
        fenceAsyncProxy(rewriter, loc)
            ->setAttr(tilegpu::kSharedOnlyAttrName, rewriter.getUnitAttr());
      sharedOnlyBarrier(rewriter, loc);
    } else {
      // Its writers will be asynchronous copies (a pipeline's ring), which
      // wait for no earlier reader of these bytes: a conversion's scratch
      // just before the ring's first copies (tutorial 06 backward's
      // statistics, converted right before its dQ loop) shared them.
      sharedOnlyBarrier(rewriter, loc);
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{{base}});
    return success();
  }
};

struct MemDescIndexLowering
    : public OpConversionPattern<tilegpu::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MemDescIndexOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t bufferBytes = op.getResult().getType().getSizeInBytes();
    Value offset = arith::MulIOp::create(
        rewriter, loc, adaptor.getIndex().front(),
        i32Constant(rewriter, loc, bufferBytes));
    Value addr = sharedAddress(rewriter, loc, adaptor.getSrc().front(), offset);
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{{addr}});
    return success();
  }
};

/// A permuted view keeps every byte where it is: the same base address.
struct MemDescTransLowering
    : public OpConversionPattern<tilegpu::MemDescTransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MemDescTransOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, SmallVector<SmallVector<Value>>{{adaptor.getSrc().front()}});
    return success();
  }
};

/// Reads a 16-bit tensor-core operand with ldmatrix: per 16 x 16 (A) or
/// 16 x 16 over two n-tiles (B) block, each lane supplies the address of
/// one 8-element row of one 8 x 8 matrix; `.trans` when the tile is stored
/// with the other dimension contiguous. An 8-bit operand stored K-major
/// reads the same way, each 16-bit column two of its K elements: the
/// 16-byte rows of 16 x 32 (A) and 32 x 8 (B) blocks are m16n8k32's
/// fragments.
static FailureOr<SmallVector<Value>>
loadOperandWithLdmatrix(OpBuilder &b, Location loc, tilegpu::LocalLoadOp op,
                        Value base, Type registerType) {
  RankedTensorType type = op.getResult().getType();
  auto dotOp = cast<tilegpu::DotOperandEncodingAttr>(type.getEncoding());
  MemDescType memType = op.getSrc().getType();
  SharedEncodingAttr enc = memType.getEncoding();
  // Elements per 16-bit column of an 8 x 8 matrix.
  int32_t w = 16 / type.getElementType().getIntOrFloatBitWidth();
  unsigned opIdx = dotOp.getOpIdx();
  unsigned kDim = opIdx == 0 ? 1 : 0;
  bool trans = enc.getOrder()[0] != kDim;
  unsigned wm = dotOp.getParent().getWarpsPerCTA()[0];
  unsigned wn = dotOp.getParent().getWarpsPerCTA()[1];
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  LinearLayout layout = layoutOf(type);
  auto regs = registersByCoordinate(layout);
  SmallVector<int64_t> window = op.getWindowOffsets();

  Value lane = getLaneId(b, loc);
  Value warp = getWarpId(b, loc);
  // This warp's offset in the non-K dimension (the operand's warp bases).
  unsigned outerDim = opIdx == 0 ? 0 : 1;
  Value warpOffset = emitBitsToCoordinate(b, loc, warp, layout.getWarpBases(),
                                          outerDim);
  if (!warpOffset)
    warpOffset = i32Constant(b, loc, 0);
  Value laneMod8 = arith::AndIOp::create(b, loc, lane, i32Constant(b, loc, 7));
  Value group = arith::ShRUIOp::create(b, loc, lane, i32Constant(b, loc, 3));
  Value groupLow = arith::AndIOp::create(b, loc, group, i32Constant(b, loc, 1));
  Value groupHigh = arith::ShRUIOp::create(b, loc, group, i32Constant(b, loc, 1));
  Value eight = i32Constant(b, loc, 8);
  // The second matrix along K starts 16 bytes on.
  Value eightAlongK = i32Constant(b, loc, 8 * w);
  Value lowOff = arith::MulIOp::create(b, loc, groupLow, eight);
  Value highOff = arith::MulIOp::create(b, loc, groupHigh, eight);
  Value lowOffK = arith::MulIOp::create(b, loc, groupLow, eightAlongK);
  Value highOffK = arith::MulIOp::create(b, loc, groupHigh, eightAlongK);

  SmallVector<Value> result(layout.getNumRegs());
  auto i32Type = b.getI32Type();
  auto issue = [&](Value row, Value col, unsigned num) {
    Value coords[2] = {
        arith::AddIOp::create(b, loc, row, i32Constant(b, loc, window[0])),
        arith::AddIOp::create(b, loc, col, i32Constant(b, loc, window[1]))};
    Value addr = elementAddress(b, loc, base, coords, memType);
    Type resType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(num, i32Type));
    Value res = NVVM::LdMatrixOp::create(
        b, loc, resType, addr, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> words;
    for (unsigned i = 0; i < num; ++i)
      words.push_back(LLVM::ExtractValueOp::create(b, loc, res,
                                                   ArrayRef<int64_t>{i}));
    return words;
  };
  // A word's 2 * w elements, consecutive along (dr, dc) from (r, c).
  auto assign = [&](Value word, int32_t r, int32_t c, int32_t dr,
                    int32_t dc) -> LogicalResult {
    Value packed = LLVM::BitcastOp::create(
        b, loc, VectorType::get({2 * w}, registerType), word);
    auto parts = unpackVector(b, loc, packed, 2 * w);
    for (int32_t e = 0; e < 2 * w; ++e) {
      auto it = regs.find({r + e * dr, c + e * dc});
      if (it == regs.end())
        return failure();
      result[it->second] = parts[e];
    }
    return success();
  };

  if (opIdx == 0) {
    // A: matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15),
    // (m 8-15, k 8-15) are a0..a3 of m16n8k16 (k in 16-bit columns).
    int64_t mTiles = std::max<int64_t>(1, rows / (16 * wm));
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t k0 = 0; k0 < cols; k0 += 16 * w) {
        int64_t m0 = 16 * wm * mt;
        Value mBase = arith::AddIOp::create(b, loc, warpOffset,
                                            i32Constant(b, loc, m0));
        Value row, col;
        if (!trans) {
          row = arith::AddIOp::create(
              b, loc, mBase, arith::AddIOp::create(b, loc, laneMod8, lowOff));
          col =
              arith::AddIOp::create(b, loc, i32Constant(b, loc, k0), highOffK);
        } else {
          row = arith::AddIOp::create(b, loc, mBase, lowOff);
          col = arith::AddIOp::create(
              b, loc, i32Constant(b, loc, k0),
              arith::AddIOp::create(b, loc, laneMod8, highOff));
        }
        auto words = issue(row, col, 4);
        for (unsigned j = 0; j < 4; ++j)
          if (failed(assign(words[j], m0 + (j % 2) * 8, k0 + (j / 2) * 8 * w, 0,
                            1)))
            return op.emitOpError("internal error: operand register missing");
      }
    return result;
  }
  // B: per k-step and pair of n-tiles (8 * wn apart), matrices
  // (k 0-7, n), (k 8-15, n), (k 0-7, n'), (k 8-15, n'): b0, b1 of each.
  int64_t nTiles = std::max<int64_t>(1, cols / (8 * wn));
  for (int64_t k0 = 0; k0 < rows; k0 += 16 * w)
    for (int64_t nt = 0; nt < nTiles; nt += 2) {
      unsigned num = nt + 1 < nTiles ? 4 : 2;
      int64_t n0 = 8 * wn * nt;
      Value nBase = arith::AddIOp::create(b, loc, warpOffset,
                                          i32Constant(b, loc, n0));
      Value nSecond = arith::MulIOp::create(b, loc, groupHigh,
                                            i32Constant(b, loc, 8 * wn));
      Value k, n;
      if (trans) {
        // Stored K-major rows (N contiguous): lane rows run along K.
        k = arith::AddIOp::create(
            b, loc, i32Constant(b, loc, k0),
            arith::AddIOp::create(b, loc, laneMod8, lowOff));
        n = arith::AddIOp::create(b, loc, nBase, nSecond);
      } else {
        k = arith::AddIOp::create(b, loc, i32Constant(b, loc, k0), lowOffK);
        n = arith::AddIOp::create(
            b, loc, nBase, arith::AddIOp::create(b, loc, nSecond, laneMod8));
      }
      auto words = issue(k, n, num);
      for (unsigned j = 0; j < num; ++j)
        if (failed(assign(words[j], k0 + (j % 2) * 8 * w, n0 + (j / 2) * 8 * wn,
                          1, 0)))
          return op.emitOpError("internal error: operand register missing");
    }
  return result;
}

/// ldmatrix applies to 16-bit operands of mma.sync, and 8-bit ones stored
/// K-major (its transpose moves 16-bit elements), whose window covers
/// whole instruction tiles.
static bool canUseLdmatrix(tilegpu::LocalLoadOp op) {
  RankedTensorType type = op.getResult().getType();
  auto dotOp = dyn_cast<tilegpu::DotOperandEncodingAttr>(type.getEncoding());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (!dotOp || !((dotOp.getKWidth() == 2 && bits == 16) ||
                  (dotOp.getKWidth() == 4 && bits == 8)))
    return false;
  unsigned kDim = dotOp.getOpIdx() == 0 ? 1 : 0;
  SharedEncodingAttr enc = op.getSrc().getType().getEncoding();
  if (bits == 8 && (enc.getOrder()[0] != kDim || enc.getVec() < 16))
    return false;
  int64_t kStep = 256 / bits;
  unsigned wm = dotOp.getParent().getWarpsPerCTA()[0];
  unsigned wn = dotOp.getParent().getWarpsPerCTA()[1];
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  if (dotOp.getOpIdx() == 0)
    return rows % 16 == 0 && cols % kStep == 0 && (rows / 16) % wm == 0;
  return rows % kStep == 0 && cols % 8 == 0 && (cols / 8) % wn == 0;
}

struct LocalLoadLowering : public OpConversionPattern<tilegpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getSrc().front();
    if (canUseLdmatrix(op)) {
      auto values = loadOperandWithLdmatrix(
          rewriter, loc, op, base,
          getTypeConverter()->convertType(
              op.getResult().getType().getElementType()));
      if (failed(values))
        return failure();
      rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{*values});
      return success();
    }
    RankedTensorType type = op.getResult().getType();
    MemDescType memType = op.getSrc().getType();
    LinearLayout layout = layoutOf(type);
    Type elem = getTypeConverter()->convertType(type.getElementType());
    SmallVector<int64_t> window = op.getWindowOffsets();
    unsigned inner = memType.getEncoding().getOrder()[0];
    unsigned width = layout.getContiguousRegisters(
        inner,
        std::min<unsigned>(memType.getEncoding().getVec(),
                           16 / elementBytes(elem)));
    if (window[inner] % width)
      width = 1;
    // Few per-thread bases plus immediates: per-register offsets would be
    // loop-invariant values LLVM keeps in registers through a loop.
    SplitSharedOffsets offsets =
        splitSharedOffsets(rewriter, loc, layout, memType, window);
    SmallVector<Value> bases;
    for (Value offset : offsets.bases)
      bases.push_back(sharedAddress(rewriter, loc, base, offset));
    SmallVector<Value> values;
    for (auto [r, split] : llvm::enumerate(offsets.registers)) {
      if (r % width)
        continue;
      Value addr = sharedAddress(rewriter, loc, bases[split.first],
                                 i32Constant(rewriter, loc, split.second));
      if (width == 1) {
        values.push_back(LLVM::LoadOp::create(rewriter, loc, elem, addr));
        continue;
      }
      Value v = LLVM::LoadOp::create(rewriter, loc,
                                     VectorType::get({width}, elem), addr,
                                     width * elementBytes(elem));
      values.append(unpackVector(rewriter, loc, v, width));
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{values});
    return success();
  }
};

struct AsyncCopyLowering : public OpConversionPattern<tilegpu::AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    MemDescType memType = op.getDst().getType();
    Type elem = memType.getElementType();
    unsigned bytes = elementBytes(elem);
    LinearLayout layout = layoutOf(ptrType);
    unsigned maxWidth = 1;
    if (auto vec = op->getAttrOfType<IntegerAttr>("tilegpu.vec"))
      maxWidth = vec.getInt();
    maxWidth = std::min<unsigned>(
        {maxWidth, memType.getEncoding().getVec(), 16 / bytes});
    unsigned width = layout.getContiguousRegisters(
        memType.getEncoding().getOrder()[0], maxWidth);
    unsigned copyBytes = width * bytes;
    if (copyBytes != 4 && copyBytes != 8 && copyBytes != 16)
      return op.emitOpError("copies ")
             << copyBytes << "-byte pieces; cp.async needs 4, 8 or 16";
    Value base = adaptor.getDst().front();
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = adaptor.getMask();
    ValueRange runLengths = adaptor.getRunLength();
    bool prefixMask = op->hasAttr(tilegpu::kPrefixMaskAttrName);
    auto coords = emitCoordinates(rewriter, loc, layout);
    auto globalPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
    auto cache = copyBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                 : NVVM::LoadCacheModifierKind::CA;
    for (unsigned r = 0; r < ptrs.size(); r += width) {
      Value dst = elementAddress(rewriter, loc, base, coords[r], memType);
      Value src = LLVM::IntToPtrOp::create(rewriter, loc, globalPtr, ptrs[r]);
      Value size;
      if (!runLengths.empty()) {
        // The run's in-bounds elements: clamp(length, 0, width) of them.
        Value n = runLengths[r];
        Type t = n.getType();
        n = arith::MaxSIOp::create(
            rewriter, loc, n,
            arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(t)));
        n = arith::MinSIOp::create(
            rewriter, loc, n,
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getIntegerAttr(t, width)));
        if (!t.isInteger(32))
          n = arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), n);
        size = arith::MulIOp::create(rewriter, loc, n,
                                     i32Constant(rewriter, loc, bytes));
        if (!masks.empty())
          size = arith::SelectOp::create(rewriter, loc, masks[r], size,
                                         i32Constant(rewriter, loc, 0));
      } else if (!masks.empty() && prefixMask) {
        // The true elements come first: the source size counts them.
        for (unsigned i = 0; i < width; ++i) {
          Value part = arith::SelectOp::create(
              rewriter, loc, masks[r + i], i32Constant(rewriter, loc, bytes),
              i32Constant(rewriter, loc, 0));
          size = size ? arith::AddIOp::create(rewriter, loc, size, part) : part;
        }
      } else if (!masks.empty()) {
        size = arith::SelectOp::create(rewriter, loc, masks[r],
                                       i32Constant(rewriter, loc, copyBytes),
                                       i32Constant(rewriter, loc, 0));
      }
      NVVM::CpAsyncOp::create(
          rewriter, loc, dst, src, rewriter.getI32IntegerAttr(copyBytes),
          NVVM::LoadCacheModifierKindAttr::get(rewriter.getContext(), cache),
          size);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupLowering
    : public OpConversionPattern<tilegpu::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : public OpConversionPattern<tilegpu::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    if (op.getFenceAsyncProxy())
      fenceAsyncProxy(rewriter, op.getLoc());
    // Each thread waited for its own copies; the barrier publishes them.
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A PTX instruction on an mbarrier: `text` names the barrier's 32-bit
/// shared address $0 and the predicate $1 (when `pred` is given).
static void mbarrierAsm(OpBuilder &b, Location loc, Value barrier,
                        StringRef text, Value pred = {}) {
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), barrier);
  SmallVector<Value> operands{addr};
  std::string constraints = "r";
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
  }
  createInlineAsm(b, loc, Type(), operands, text, constraints);
}

/// Thread 0 applies `text` to every barrier of the buffer at `base`.
static void eachBarrierInThreadZero(OpBuilder &b, Location loc, Value base,
                                    MemDescType type, StringRef text) {
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      getThreadId(b, loc), i32Constant(b, loc, 0));
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    mbarrierAsm(b, loc, sharedAddress(b, loc, base, i32Constant(b, loc, 8 * i)),
                text, first);
}

struct MBarrierInitLowering
    : public OpConversionPattern<tilegpu::MBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MBarrierInitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string text = "@$1 mbarrier.init.shared::cta.b64 [$0], " +
                       std::to_string(op.getCount()) + ";";
    eachBarrierInThreadZero(rewriter, op.getLoc(),
                            adaptor.getBarriers().front(),
                            op.getBarriers().getType(), text);
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierInvalLowering
    : public OpConversionPattern<tilegpu::MBarrierInvalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MBarrierInvalOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // No thread may still wait on them, nor reuse their memory before.
    barrier(rewriter, op.getLoc());
    eachBarrierInThreadZero(rewriter, op.getLoc(),
                            adaptor.getBarriers().front(),
                            op.getBarriers().getType(),
                            "@$1 mbarrier.inval.shared::cta.b64 [$0];");
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitLowering
    : public OpConversionPattern<tilegpu::MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MBarrierWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getBarrier().front());
    Value parity = arith::AndIOp::create(rewriter, loc, adaptor.getPhase().front(),
                                         i32Constant(rewriter, loc, 1));
    // try_wait suspends the thread for a while before it says no.
    StringRef text = "{\n\t.reg .pred done;\n"
                     "mbarrier_wait_${:uid}:\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n\t"
                     "@!done bra mbarrier_wait_${:uid};\n\t}";
    createInlineAsm(rewriter, loc, Type(), ValueRange{addr, parity}, text,
                    "r,r");
    if (op.getFenceAsyncProxy())
      fenceAsyncProxy(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveLowering
    : public OpConversionPattern<tilegpu::MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MBarrierArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = op.getPred() ? adaptor.getPred().front() : Value();
    if (op.getPerWarp()) {
      Value lane0 = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                          getLaneId(rewriter, loc),
                                          i32Constant(rewriter, loc, 0));
      pred = pred ? arith::AndIOp::create(rewriter, loc, pred, lane0) : lane0;
    }
    std::string text = "{\n\t.reg .b64 state;\n\t";
    if (pred)
      text += "@$1 ";
    text += "mbarrier.arrive.shared::cta.b64 state, [$0];\n\t}";
    mbarrierAsm(rewriter, loc, adaptor.getBarrier().front(), text, pred);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCopyArriveLowering
    : public OpConversionPattern<tilegpu::AsyncCopyArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AsyncCopyArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    mbarrierAsm(rewriter, op.getLoc(), adaptor.getBarrier().front(),
                "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateSharedMemoryPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, MemDescIndexLowering, MemDescTransLowering,
               LocalLoadLowering, AsyncCopyLowering, AsyncCommitGroupLowering,
               AsyncWaitLowering, MBarrierInitLowering, MBarrierInvalLowering,
               MBarrierWaitLowering, MBarrierArriveLowering,
               AsyncCopyArriveLowering>(converter, patterns.getContext());
}

Value mlir::tile::lowering::elementByteOffset(OpBuilder &b, Location loc,
                                              ArrayRef<Value> coords,
                                              MemDescType type) {
  Value offset =
      swizzledOffset(b, loc, coords, type.getShape(), type.getEncoding());
  return arith::MulIOp::create(
      b, loc, offset, i32Constant(b, loc, elementBytes(type.getElementType())));
}

Value mlir::tile::lowering::elementAddress(OpBuilder &b, Location loc,
                                           Value base, ArrayRef<Value> coords,
                                           MemDescType type) {
  return sharedAddress(b, loc, base, elementByteOffset(b, loc, coords, type));
}

SplitSharedOffsets mlir::tile::lowering::splitSharedOffsets(
    OpBuilder &b, Location loc, const LinearLayout &layout, MemDescType type,
    ArrayRef<int64_t> window) {
  tilegpu::SharedEncodingAttr enc = type.getEncoding();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> origin(window);
  origin.resize(shape.size(), 0);
  auto offsetOf = [&](const LinearLayout::Coord &c) {
    SmallVector<int64_t> at(origin);
    for (auto [d, x] : llvm::enumerate(c))
      at[d] += x;
    return enc.getElementOffset(at, shape);
  };
  unsigned numRegs = layout.getNumRegs();
  unsigned lanes = 1u << layout.getLaneBases().size();
  unsigned warps = 1u << layout.getWarpBases().size();
  // Register bits whose offset adds, whatever the thread and the others,
  // and what each adds.
  int64_t origin0 = offsetOf(LinearLayout::Coord(shape.size(), 0));
  SmallVector<int64_t> delta;
  uint32_t additive = 0;
  for (unsigned bit = 0; (1u << bit) < numRegs; ++bit) {
    delta.push_back(offsetOf(layout.regCoord(1u << bit)) - origin0);
    bool adds = true;
    for (unsigned r = 0; adds && r < numRegs; ++r) {
      if (r & (1u << bit))
        continue;
      for (unsigned w = 0; adds && w < warps; ++w)
        for (unsigned l = 0; adds && l < lanes; ++l)
          adds = offsetOf(layout.apply(r | (1u << bit), l, w)) ==
                 offsetOf(layout.apply(r, l, w)) + delta[bit];
    }
    if (adds)
      additive |= 1u << bit;
  }
  int64_t elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  SmallVector<SmallVector<Value>> coords = emitCoordinates(b, loc, layout);
  SplitSharedOffsets split;
  llvm::DenseMap<uint32_t, unsigned> baseOf;
  for (unsigned r = 0; r < numRegs; ++r) {
    uint32_t kind = r & ~additive;
    auto [it, inserted] = baseOf.try_emplace(kind, split.bases.size());
    if (inserted) {
      SmallVector<Value> at;
      for (auto [d, c] : llvm::enumerate(coords[kind]))
        at.push_back(origin[d] ? arith::AddIOp::create(
                                     b, loc, c, i32Constant(b, loc, origin[d]))
                               : c);
      split.bases.push_back(elementByteOffset(b, loc, at, type));
    }
    int64_t constant = 0;
    for (auto [bit, d] : llvm::enumerate(delta))
      if (r & additive & (1u << bit))
        constant += d;
    split.registers.push_back({it->second, constant * elemBytes});
  }
  return split;
}
