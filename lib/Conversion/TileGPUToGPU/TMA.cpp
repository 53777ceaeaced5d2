//===- TMA.cpp - Tensor maps, TMA copies and their mbarrier
//-----------------===//
//
// A tensor map is built in the kernel, as Triton's device-side descriptors
// are, but without a scratch argument: each running program owns 128 bytes
// per map in a module-level buffer, indexed by its SM and the hardware warp
// slot of the warp that builds it (%smid, %warpid), which no two programs
// resident at once share. Warp 0's thread 0 writes the map there
// (tensormap.replace on a zeroed object), fences it for the tensor-map proxy
// and issues every TMA copy through it. Maps made one right after the other
// are built by warps 0, 1, ... at once; their addresses, and that of a map
// a warp-specialized producer's thread uses, pass through shared memory.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// Hardware warp slots per SM (sm_80 and sm_90 keep at most 64 warps).
constexpr int64_t kWarpSlots = 64;
constexpr int64_t kTensorMapBytes = 128;

/// The TMA box of a 2-D block: rows by one wgmma line (the swizzle span),
/// and the swizzle mode of that line (1: 32 bytes, 2: 64, 3: 128); none
/// when the rows are shorter than 32 bytes.
struct TMABox {
  int64_t rows, lineElems;
  int32_t swizzleMode;
};

static std::optional<TMABox> getBox(ArrayRef<int64_t> shape, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  auto enc =
      SharedEncodingAttr::getForWgmma(elem.getContext(), shape, bits, {1, 0});
  if (!enc)
    return std::nullopt;
  int64_t lineBytes = enc.getLineElems() * bits / 8;
  int32_t mode = lineBytes == 128 ? 3 : lineBytes == 64 ? 2 : 1;
  return TMABox{shape[0], enc.getLineElems(), mode};
}

/// The maps made one right after the other from `first` on (a run that
/// `tilegpu-group-tensor-maps` gathers): built at once, each by a warp of
/// its own, with one barrier for all.
static SmallVector<MakeTensorMapOp> mapsBuiltWith(MakeTensorMapOp first) {
  SmallVector<MakeTensorMapOp> run{first};
  llvm::SmallDenseSet<unsigned> scratches{getScratchOffset(first)};
  for (Operation *next = first->getNextNode();
       auto map = dyn_cast_or_null<MakeTensorMapOp>(next);
       next = next->getNextNode()) {
    // Only maps whose scratches `tilegpu-allocate-shared` kept apart.
    if (!scratches.insert(getScratchOffset(map)).second)
      break;
    run.push_back(map);
  }
  return run;
}

/// A map `emitMapBuild` wrote: its address as the builder's threads compute
/// it, the builder's first-thread predicate (i32) and the op's scratch.
struct BuiltMap {
  Value map, first, scratch;
};

/// Emits the build of `op`'s map by warp `builder`: the warp zeroes the
/// op's scratch, its first thread writes the fields (tensormap.replace on
/// shared memory; on global memory each field would be a dependent
/// read-modify-write of global memory), the warp copies it out with the
/// release fence for the tensor-map proxy, and the first thread acquires it
/// (and prefetches it, with `prefetch`).
static FailureOr<BuiltMap> emitMapBuild(ConversionPatternRewriter &rewriter,
                                        MakeTensorMapOp op, Value base,
                                        ValueRange shape, ValueRange strides,
                                        unsigned builder, bool prefetch) {
  Location loc = op.getLoc();
  Type elem = op.getBase().getType().getPointeeType();
  std::optional<TMABox> box = op.getBlockShape().size() == 2
                                  ? getBox(op.getBlockShape(), elem)
                                  : std::nullopt;
  auto slot = op->getAttrOfType<IntegerAttr>(kTensorMapSlotAttrName);
  auto slots = op->getAttrOfType<IntegerAttr>(kTensorMapSlotsAttrName);
  if (!box || !slot || !slots)
    return op.emitOpError("internal error: only 2-D tensor maps of blocks "
                          "with rows of 32 bytes or more are lowered");
  // The map's place: this program's (SM, builder's warp slot) entry.
  auto i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  Value sm = NVVM::SmIdOp::create(rewriter, loc, i32);
  Value warp = arith::AndIOp::create(
      rewriter, loc, NVVM::WarpIdOp::create(rewriter, loc, i32),
      i32Constant(rewriter, loc, kWarpSlots - 1));
  Value index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, sm,
                            i32Constant(rewriter, loc, kWarpSlots)),
      warp);
  index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, index,
                            i32Constant(rewriter, loc, slots.getInt())),
      i32Constant(rewriter, loc, slot.getInt()));
  Value offset = arith::MulIOp::create(
      rewriter, loc, arith::ExtUIOp::create(rewriter, loc, i64, index),
      i64Constant(rewriter, loc, kTensorMapBytes));
  Value pool = LLVM::PtrToIntOp::create(
      rewriter, loc, i64,
      LLVM::AddressOfOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 1),
          kTensorMapPoolName));
  Value map = arith::AddIOp::create(rewriter, loc, pool, offset);

  unsigned elemBytes = elem.getIntOrFloatBitWidth() / 8;
  // Unsigned integer element types of the width (0: u8, 1: u16, 2: u32)
  // copy the bits of any type of that width.
  int32_t elemType = elemBytes == 1 ? 0 : elemBytes == 2 ? 1 : 2;
  Value cols = arith::TruncIOp::create(rewriter, loc, i32, shape[1]);
  Value rows = arith::TruncIOp::create(rewriter, loc, i32, shape[0]);
  Value rowStride = arith::MulIOp::create(
      rewriter, loc, strides[0], i64Constant(rewriter, loc, elemBytes));
  Value tid = getThreadId(rewriter, loc);
  Value first = arith::ExtUIOp::create(
      rewriter, loc, i32,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                            i32Constant(rewriter, loc, 32 * builder)));
  Value builderWarp = arith::ExtUIOp::create(
      rewriter, loc, i32,
      arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::DivUIOp::create(rewriter, loc, tid,
                                 i32Constant(rewriter, loc, 32)),
          i32Constant(rewriter, loc, builder)));
  Value scratch = LLVM::PtrToIntOp::create(
      rewriter, loc, i32,
      sharedAddress(rewriter, loc, sharedMemoryBase(rewriter, loc),
                    i32Constant(rewriter, loc, getScratchOffset(op))));
  Value laneWord = arith::AddIOp::create(
      rewriter, loc, scratch,
      arith::MulIOp::create(rewriter, loc, getLaneId(rewriter, loc),
                            i32Constant(rewriter, loc, 4)));
  std::string replace = "@p tensormap.replace.tile.";
  std::string text =
      "{\n\t.reg .pred p, w, outside;\n\t"
      "setp.ne.b32 p, $5, 0;\n\t"
      "setp.ne.b32 w, $6, 0;\n\t"
      // More SMs than the buffer has entries for: stop rather than share.
      "setp.ge.and.u32 outside, $7, " +
      std::to_string(kMaxSMs) +
      ", p;\n\t"
      "@outside trap;\n\t"
      "@w st.shared.b32 [$9], 0;\n\t"
      "@w bar.warp.sync -1;\n\t";
  auto field = [&](StringRef name, StringRef type, StringRef rest) {
    text += replace + name.str() + ".shared::cta.b1024." + type.str() +
            " [$8], " + rest.str() + ";\n\t";
  };
  field("global_address", "b64", "$1");
  field("rank", "b32", "1");
  field("box_dim", "b32", "0, " + std::to_string(box->lineElems));
  field("box_dim", "b32", "1, " + std::to_string(box->rows));
  field("global_dim", "b32", "0, $2");
  field("global_dim", "b32", "1, $3");
  field("global_stride", "b64", "0, $4");
  field("element_stride", "b32", "0, 1");
  field("element_stride", "b32", "1, 1");
  field("elemtype", "b32", std::to_string(elemType));
  field("interleave_layout", "b32", "0");
  field("swizzle_mode", "b32", std::to_string(box->swizzleMode));
  field("fill_mode", "b32", "0");
  text += "@w bar.warp.sync -1;\n\t"
          "@w tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
          "generic.release.gpu.sync.aligned [$0], [$8], 128;\n\t"
          "@p fence.proxy.tensormap::generic.acquire.gpu [$0], 128;\n\t";
  if (prefetch)
    text += "@p prefetch.tensormap [$0];\n\t";
  text += "}";
  createInlineAsm(rewriter, loc, Type(),
                  {map, base, cols, rows, rowStride, first, builderWarp, sm,
                   scratch, laneWord},
                  text, "l,l,r,r,l,r,r,r,r,r");
  return BuiltMap{map, first, scratch};
}

struct MakeTensorMapLowering : public OpConversionPattern<MakeTensorMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  // Every map of the run, this one too, reads its operands remapped.
  matchAndRewrite(MakeTensorMapOp op, OpAdaptor /*adaptor*/,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    // Warp-specialized, a map built before the split may serve the
    // producer's thread, which issues the copies.
    bool servesProducer =
        kernel && getProducerWarps(kernel) && !enclosingSplit(op);
    unsigned numWarps = kernel ? std::max(1u, getNumWarps(kernel)) : 1;
    // The maps made right after this one are built at the same time, each
    // by a warp of its own (two maps one after the other kept a program's
    // set-up 0.6 us longer; bench/NOTES.md).
    SmallVector<MakeTensorMapOp> run = mapsBuiltWith(op);
    // The scratch may still be read by the op that used it before.
    barrier(rewriter, loc);
    auto remapped = [&](ValueRange values) {
      SmallVector<Value> out;
      for (Value v : values)
        out.push_back(rewriter.getRemappedValue(v));
      return out;
    };
    SmallVector<BuiltMap> built;
    for (auto [k, map] : llvm::enumerate(run)) {
      // The thread that issues the copies prefetches the new map, which the
      // first copy would otherwise fetch itself (1.04-1.14x for one-tile
      // programs on one warpgroup, bench/NOTES.md): thread 0 builds the
      // first map; the others it (or the producer) acquires below.
      FailureOr<BuiltMap> made = emitMapBuild(
          rewriter, map, rewriter.getRemappedValue(map.getBase()),
          remapped(map.getShape()), remapped(map.getStrides()), k % numWarps,
          /*prefetch=*/k == 0 && !servesProducer);
      if (failed(made))
        return failure();
      built.push_back(*made);
    }
    if (run.size() == 1 && !servesProducer) {
      rewriter.replaceOp(op, built.front().map);
      return success();
    }
    // The other maps' addresses (each that of the warp that built it) pass
    // through the scratch to every thread; the thread that issues the
    // copies (the producer's first, or thread 0) acquires them. A map the
    // consumers build serves them only.
    Value tid = getThreadId(rewriter, loc);
    SmallVector<Value> slots;
    for (auto [k, made] : llvm::enumerate(built)) {
      Value at = arith::AddIOp::create(
          rewriter, loc, made.scratch,
          i32Constant(rewriter, loc, kTensorMapAddressOffset));
      slots.push_back(at);
      if (k == 0 && !servesProducer)
        continue;
      createInlineAsm(rewriter, loc, Type(), {made.first, at, made.map},
                      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t"
                      "@p st.shared.b64 [$1], $2;\n\t}",
                      "r,r,l");
    }
    barrier(rewriter, loc);
    int64_t issuer = servesProducer ? 32 * numWarps : 0;
    Value acquirer = arith::ExtUIOp::create(
        rewriter, loc, i32,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                              i32Constant(rewriter, loc, issuer)));
    for (auto [k, map] : llvm::enumerate(run)) {
      if (k == 0 && !servesProducer) {
        rewriter.replaceOp(map, built[k].map);
        continue;
      }
      Value address = createInlineAsm(rewriter, loc, i64, {slots[k]},
                                      "ld.shared.b64 $0, [$1];", "=l,r")
                          .getResult(0);
      createInlineAsm(rewriter, loc, Type(), {acquirer, address},
                      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t"
                      "@p fence.proxy.tensormap::generic.acquire.gpu [$1], "
                      "128;\n\t@p prefetch.tensormap [$1];\n\t}",
                      "r,l");
      rewriter.replaceOp(map, address);
    }
    return success();
  }
};

/// Thread 0, where `pred` holds (and it exists); with `singleThread`, the
/// one thread that runs the op.
static Value issuingThread(OpBuilder &b, Location loc, Value pred,
                           bool singleThread = false) {
  if (singleThread)
    return pred ? pred : arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            getThreadId(b, loc), i32Constant(b, loc, 0));
  return pred ? arith::AndIOp::create(b, loc, first, pred) : first;
}

struct AsyncTMACopyLowering : public OpConversionPattern<AsyncTMACopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncTMACopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType dst = op.getDst().getType();
    std::optional<std::array<int64_t, 2>> boxShape = getTMABoxShape(dst);
    std::optional<TMABox> box =
        boxShape ? getBox(*boxShape, dst.getElementType()) : std::nullopt;
    if (!box)
      return op.emitOpError("internal error: no TMA box for this tile");
    Value pred = op.getPred() ? adaptor.getPred().front() : Value();
    Value issue = issuingThread(rewriter, loc, pred, op.getSingleThread());
    auto i32 = rewriter.getI32Type();
    Value base =
        LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getDst().front());
    Value barrier = LLVM::PtrToIntOp::create(rewriter, loc, i32,
                                             adaptor.getBarrier().front());
    Value map = adaptor.getTensorMap().front();
    Value row = adaptor.getCoords()[0].front();
    Value col = adaptor.getCoords()[1].front();
    unsigned elemBytes = dst.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t lineBytes = box->rows * box->lineElems * elemBytes;
    // One copy per line: wgmma's layout stores the tile line by line.
    for (int64_t l = 0; l * box->lineElems < (*boxShape)[1]; ++l) {
      Value to = arith::AddIOp::create(
          rewriter, loc, base, i32Constant(rewriter, loc, l * lineBytes));
      Value from = arith::AddIOp::create(
          rewriter, loc, col, i32Constant(rewriter, loc, l * box->lineElems));
      createInlineAsm(
          rewriter, loc, Type(), {to, map, from, row, barrier, issue},
          "@$5 cp.async.bulk.tensor.2d.shared::cluster.global.tile."
          "mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
          "r,l,r,r,r,b");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreLowering : public OpConversionPattern<AsyncTMAStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncTMAStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType src = op.getSrc().getType();
    std::optional<std::array<int64_t, 2>> boxShape = getTMABoxShape(src);
    std::optional<TMABox> box =
        boxShape ? getBox(*boxShape, src.getElementType()) : std::nullopt;
    if (!box)
      return op.emitOpError("internal error: no TMA box for this tile");
    Value issue = issuingThread(rewriter, loc, Value());
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getSrc().front());
    Value map = adaptor.getTensorMap().front();
    Value row = adaptor.getCoords()[0].front();
    Value col = adaptor.getCoords()[1].front();
    unsigned elemBytes = src.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t lineBytes = box->rows * box->lineElems * elemBytes;
    for (int64_t l = 0; l * box->lineElems < (*boxShape)[1]; ++l) {
      Value from = arith::AddIOp::create(
          rewriter, loc, base, i32Constant(rewriter, loc, l * lineBytes));
      Value to = arith::AddIOp::create(
          rewriter, loc, col, i32Constant(rewriter, loc, l * box->lineElems));
      createInlineAsm(rewriter, loc, Type(), {map, to, row, from, issue},
                      "@$4 cp.async.bulk.tensor.2d.global.shared::cta."
                      "bulk_group [$0, {$1, $2}], [$3];",
                      "l,r,r,r,b");
    }
    // The tile's memory is reused once the TMA unit has read it.
    createInlineAsm(rewriter, loc, Type(), {issue},
                    "@$0 cp.async.bulk.commit_group;\n\t"
                    "@$0 cp.async.bulk.wait_group.read 0;",
                    "b");
    barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierExpectTxLowering
    : public OpConversionPattern<MBarrierExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierExpectTxOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bytes = i32Constant(rewriter, loc, op.getBytes());
    if (op.getPred())
      bytes = arith::SelectOp::create(rewriter, loc, adaptor.getPred().front(),
                                      bytes, i32Constant(rewriter, loc, 0));
    Value barrier = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI32Type(), adaptor.getBarrier().front());
    createInlineAsm(
        rewriter, loc, Type(),
        {barrier, bytes,
         issuingThread(rewriter, loc, Value(), op.getSingleThread())},
        "@$2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,b");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

int64_t mlir::tile::lowering::getTensorMapPoolBytes(unsigned mapsPerProgram) {
  return kMaxSMs * kWarpSlots * kTensorMapBytes * mapsPerProgram;
}

void mlir::tile::lowering::populateTMAPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MakeTensorMapLowering, AsyncTMACopyLowering,
               AsyncTMAStoreLowering, MBarrierExpectTxLowering>(
      converter, patterns.getContext());
}
