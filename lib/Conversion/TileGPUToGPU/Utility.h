//===- Utility.h - Helpers for lowering distributed tensors -----*- C++ -*-===//
//
// The per-thread view of a tensor: which coordinates each of a thread's
// registers holds, whether this thread owns an element or only a copy, and
// the shared-memory scratch used to move elements between threads.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILEGPUTOGPU_UTILITY_H
#define TILE_LIB_CONVERSION_TILEGPUTOGPU_UTILITY_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Conversion/TensorMaps.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"
#include <functional>
#include <map>

namespace mlir::tile::lowering {

/// Name of the dynamic shared-memory array every kernel's scratch lives in.
constexpr llvm::StringLiteral kSharedMemoryName = "tile_smem";
/// A tensor map's index among its kernel's maps, and their number.
constexpr llvm::StringLiteral kTensorMapSlotAttrName =
    "tilegpu.tensor_map_slot";
constexpr llvm::StringLiteral kTensorMapSlotsAttrName =
    "tilegpu.tensor_map_slots";
/// SM ids the buffer has entries for; a larger %smid traps.
constexpr int64_t kMaxSMs = 256;
/// Bytes of the buffer for kernels making `mapsPerProgram` maps.
int64_t getTensorMapPoolBytes(unsigned mapsPerProgram);

/// The type converter: a tensor with a distributed layout becomes the
/// scalars one thread holds (one per register); pointers become i64
/// addresses.
class DistributedTypeConverter : public TypeConverter {
public:
  explicit DistributedTypeConverter(MLIRContext *ctx);
};

/// The layout of a tensor type; the type must have a distributed encoding.
tilegpu::LinearLayout layoutOf(Type tensorType);

Value i32Constant(OpBuilder &b, Location loc, int64_t value);
Value i64Constant(OpBuilder &b, Location loc, int64_t value);

/// threadIdx.x, the lane and the warp, as i32. In the body of a tile loop
/// (markTileLoops) outside its inner loops, threadIdx.x is read by a
/// volatile mov that LLVM may not hoist.
Value getThreadId(OpBuilder &b, Location loc);
Value getLaneId(OpBuilder &b, Location loc);
Value getWarpId(OpBuilder &b, Location loc);

/// The contribution of the bits of `index` (a lane or warp id) to
/// coordinate `dim` under `bases`; null when none of them moves along `dim`.
Value emitBitsToCoordinate(OpBuilder &b, Location loc, Value index,
                           ArrayRef<tilegpu::LinearLayout::Coord> bases,
                           unsigned dim);

/// For every register of `layout`, the coordinates (one i32 per tensor
/// dimension) of the element this thread holds in it.
SmallVector<SmallVector<Value>> emitCoordinates(OpBuilder &b, Location loc,
                                                const tilegpu::LinearLayout &layout);

/// True in exactly one of the threads that hold copies of the same elements
/// (those whose free lane and warp bits are zero); null when no thread holds
/// copies.
Value emitOwnerPredicate(OpBuilder &b, Location loc,
                         const tilegpu::LinearLayout &layout);

/// The address (!llvm.ptr<3>) of element `coords` (i32) of the shared
/// tile of `type` at `base`, under its #tilegpu.shared encoding.
Value elementAddress(OpBuilder &b, Location loc, Value base,
                     ArrayRef<Value> coords, tilegpu::MemDescType type);
/// The same element's offset in bytes from the tile's start (i32).
Value elementByteOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                        tilegpu::MemDescType type);

/// The byte offsets of every register of `layout` in a shared tile of
/// `type`, as few per-thread bases plus constants: a register basis whose
/// offset the encoding's swizzle adds for every thread and register goes
/// to the constant; the others pick the base. A thread then keeps one
/// register per base, and each access is a base plus an immediate (a
/// per-register offset would be loop-invariant, and kept in a register of
/// its own through a loop that reads the tile).
struct SplitSharedOffsets {
  SmallVector<Value> bases;                            // i32 byte offsets
  SmallVector<std::pair<unsigned, int64_t>> registers; // base, constant
};
/// `window`: where the layout's tile starts in the buffer (a k-slice).
SplitSharedOffsets splitSharedOffsets(OpBuilder &b, Location loc,
                                      const tilegpu::LinearLayout &layout,
                                      tilegpu::MemDescType type,
                                      ArrayRef<int64_t> window = {});

/// `values` as one vector value, and the first `n` elements of a vector.
Value packVector(OpBuilder &b, Location loc, ValueRange values);
SmallVector<Value> unpackVector(OpBuilder &b, Location loc, Value v,
                                unsigned n);

/// Registers of a 2-D layout indexed by their coordinates in lane 0 of
/// warp 0 (the other lanes and warps add disjoint offsets).
std::map<std::pair<int32_t, int32_t>, unsigned>
registersByCoordinate(const tilegpu::LinearLayout &layout);

/// Make this thread's earlier shared-memory writes visible to the async
/// proxy (wgmma reads through it); a barrier must follow before readers.
Operation *fenceAsyncProxy(OpBuilder &b, Location loc);

/// On a loop that holds another loop (a persistent kernel's tile loop).
constexpr llvm::StringLiteral kTileLoopAttrName = "tilegpu.tile_loop";
/// Marks every such loop under `root`, once before the lowering, so that
/// getThreadId knows its place without walking loop bodies.
void markTileLoops(Operation *root);

/// Whether the dots of `loop` hold so many accumulators that the loop's
/// estimated registers (Occupancy.h) come within 32 of ptxas's 255:
/// attention's 128 rows on 4 warps at head dim 128 (256), not on 8 (160).
bool atRegisterCeiling(scf::ForOp loop);
/// Marks every function under `root` with such a loop
/// (`tilegpu.register_ceiling`), once before the lowering.
void markRegisterCeilings(Operation *root);

/// Inline PTX `text` on `operands` under `constraints`, with `result` (a
/// struct for several outputs, null for none).
LLVM::InlineAsmOp createInlineAsm(OpBuilder &b, Location loc, Type result,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints,
                                  bool hasSideEffects = true);

/// Row-major element offset of `coords` in a tensor of `shape` (i32).
Value linearOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                   ArrayRef<int64_t> shape);

/// The start of the kernel's dynamic shared memory, and `base` plus a byte
/// offset (i32), as !llvm.ptr<3>.
Value sharedMemoryBase(OpBuilder &b, Location loc);
Value sharedAddress(OpBuilder &b, Location loc, Value base, Value byteOffset);

/// Shared-memory scratch access. `byteBase` is an offset into the kernel's
/// scratch; element offsets are scaled by the element size.
Value scratchAddress(OpBuilder &b, Location loc, Value elementOffset,
                     Type elementType, unsigned byteBase = 0);
void storeScratch(OpBuilder &b, Location loc, Value address, Value value);
Value loadScratch(OpBuilder &b, Location loc, Value address, Type type);
void barrier(OpBuilder &b, Location loc);
/// A barrier for a buffer of the lowering's own in shared memory, marked
/// `tilegpu.shared_only`.
void sharedOnlyBarrier(OpBuilder &b, Location loc);

/// Move a tensor's elements between threads through shared memory: every
/// thread writes its registers (laid out by `src` over `srcShape`), and each
/// register of `dst` reads the element at `mapCoords(dst coordinates)`.
/// With `rounds` > 1 the scratch holds 1/rounds of the tensor: round k
/// moves the elements whose row-major index is in its k-th part.
SmallVector<Value> exchangeThroughScratch(
    OpBuilder &b, Location loc, ValueRange srcValues,
    const tilegpu::LinearLayout &src, ArrayRef<int64_t> srcShape,
    const tilegpu::LinearLayout &dst,
    const std::function<SmallVector<Value>(ArrayRef<Value>)> &mapCoords,
    Type elementType, unsigned byteBase, unsigned rounds = 1);

/// A 2-D layout change through a scratch of rows `pitch` elements apart
/// (tilegpu::getRowScratchPitch): each thread stores and loads runs of
/// registers contiguous along the row as one vector of up to 16 bytes.
SmallVector<Value> exchangeRowsThroughScratch(
    OpBuilder &b, Location loc, ValueRange srcValues,
    const tilegpu::LinearLayout &src, const tilegpu::LinearLayout &dst,
    int64_t pitch, Type elementType, unsigned byteBase);

/// An scf.for over [lower, upper) with step 1 (i32) carrying `inits`,
/// with an empty body: the caller fills it and ends it with scf.yield.
scf::ForOp createEmptyLoop(RewriterBase &b, Location loc, int64_t lower,
                           int64_t upper, ValueRange inits);

/// `value` from another lane of the warp: the lane `offset` above or below
/// (UP, DOWN; a lane without one keeps its own) or whose id differs by
/// `offset` (XOR). The shuffle moves 32-bit words: narrower values are
/// widened, 64-bit ones move as two halves.
Value shuffle(OpBuilder &b, Location loc, Value value, unsigned offset,
              gpu::ShuffleMode mode);

/// One value per operand of a reduction or scan.
using Tuple = SmallVector<Value, 2>;

/// A reduce or scan combining region on `earlier`'s values, then `later`'s.
Tuple combineTuples(OpBuilder &b, Region &region, ArrayRef<Value> earlier,
                    ArrayRef<Value> later);

/// Emit `op`'s region body (a tile.reduce combine region) on scalar
/// operands and return the values it yields.
SmallVector<Value> inlineCombine(OpBuilder &b, Region &region,
                                 ValueRange operands);

// Pattern population, one file each.
void populateElementwisePatterns(DistributedTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateDataMovementPatterns(DistributedTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateMemoryPatterns(DistributedTypeConverter &converter,
                            RewritePatternSet &patterns);
void populateInlineAsmPatterns(DistributedTypeConverter &converter,
                               RewritePatternSet &patterns);
void populateMapElementwisePatterns(DistributedTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateGatherPatterns(DistributedTypeConverter &converter,
                            RewritePatternSet &patterns);
void populateHistogramPatterns(DistributedTypeConverter &converter,
                               RewritePatternSet &patterns);
void populateScanPatterns(DistributedTypeConverter &converter,
                          RewritePatternSet &patterns);
void populateReducePatterns(DistributedTypeConverter &converter,
                            RewritePatternSet &patterns);
void populateWgmmaPatterns(DistributedTypeConverter &converter,
                           RewritePatternSet &patterns);
void populateDotPatterns(DistributedTypeConverter &converter,
                         RewritePatternSet &patterns);
void populateSharedMemoryPatterns(DistributedTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateTMAPatterns(DistributedTypeConverter &converter,
                         RewritePatternSet &patterns);
void populateDebugPatterns(DistributedTypeConverter &converter,
                           RewritePatternSet &patterns);
void populateWarpSpecializePatterns(DistributedTypeConverter &converter,
                                    RewritePatternSet &patterns);

/// The `scf.if` splitting a warp-specialized kernel (kWarpSpecializedAttrName)
/// that holds `op`, or null.
scf::IfOp enclosingSplit(Operation *op);

/// Turns the program barriers of warp-specialized kernels' consumer
/// regions (kWarpSpecializedAttrName) into named barriers of the consumer
/// threads, once the lowering has emitted them all.
void nameConsumerBarriers(Operation *root);

/// fp8 registers hold their bits as i8 (Float8.cpp).
/// `values` (registers of float type `from`; i8 bits if it is fp8)
/// converted to `to`, one of the two being fp8, two per cvt instruction.
SmallVector<Value> convertFloat8(OpBuilder &b, Location loc, ValueRange values,
                                 Type from, Type to);
/// An fp8 constant as its i8 bits; any other attribute unchanged.
TypedAttr float8AsBits(TypedAttr attr);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILEGPUTOGPU_UTILITY_H
