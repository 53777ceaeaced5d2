//===- TileGPUDialect.h - TileGPU dialect -----------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEGPU_TILEGPUDIALECT_H
#define TILE_DIALECT_TILEGPU_TILEGPUDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/LinearLayout.h"
#include <array>
#include <optional>

#include "tile/Dialect/TileGPU/TileGPUDialect.h.inc"
#include "tile/Dialect/TileGPU/TileGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/TileGPUTypes.h.inc"

namespace mlir::tilegpu {
/// The program's shared memory, for the memory effects of the ops that use
/// it.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace mlir::tilegpu

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/TileGPUOps.h.inc"

namespace mlir::tilegpu {

/// The distributed layout of a tensor type, or null.
DistributedLayoutAttr getLayout(Type type);

/// The linear layout of a tensor type with a distributed encoding.
LinearLayout getLinearLayout(RankedTensorType type);

/// Elements one thread moves per shared-memory access when it stores a
/// tensor of `type` (distributed) into a buffer of `enc`: its contiguous
/// registers along the buffer's fastest dimension, at most the swizzle's
/// vector and 16 bytes.
unsigned getSharedStoreWidth(RankedTensorType type, SharedEncodingAttr enc);

/// `type` with its encoding replaced by `layout`.
RankedTensorType withLayout(RankedTensorType type, Attribute layout);

/// Number of warps a kernel runs with (its `tilegpu.num_warps` attribute).
unsigned getNumWarps(Operation *kernel);

/// The box a TMA copy moves into (or out of) `tile`, rows by columns: its
/// shape where it is stored with wgmma's swizzle in rows along its last
/// dimension, the transposed shape where along its first (a K^T tile the
/// TMA unit copies as the row-major K box); none otherwise.
std::optional<std::array<int64_t, 2>> getTMABoxShape(MemDescType tile);

/// Elements of the accumulators of the dots under `op` (`tile.dot` and
/// `tilegpu.warpgroup_dot`): what the register estimates of a loop count
/// (tile/Support/Occupancy.h).
int64_t getDotAccumulatorElements(Operation *op);

/// Warps a warp-specialized kernel launches beside its num_warps (0 if it
/// is not specialized): they come after the num_warps warps, whose thread
/// indices the layouts describe.
unsigned getProducerWarps(Operation *kernel);

/// On the `scf.if` that splits a warp-specialized kernel: its then region
/// runs in the producer warps, its else region in the num_warps consumer
/// warps, which synchronize among themselves on a named barrier of this
/// many threads instead of the program's barrier.
inline constexpr llvm::StringLiteral kWarpSpecializedAttrName =
    "tilegpu.warp_specialized";

/// On the `scf.if` that `tile-version-arguments` creates: its then region is
/// the guarded fast path, its else region the general one.
inline constexpr llvm::StringLiteral kVersionedAttrName = "tile.versioned";

/// On each `scf.if` of the versioning passes (every fast path, the
/// alternates too): its then region is its else region's code assuming
/// facts that its condition tests, so a pass may add a test of a further
/// fact its then region comes to assume.
inline constexpr llvm::StringLiteral kFastVersionAttrName = "tile.fast_version";

/// On the `scf.if` that `tile-pointer-tensor-maps` adds to a kernel with
/// no fast version (the JIT's): its then region is its else region with
/// tensor maps. Once no TMA copy is left in it, `tilegpu-pipeline` keeps
/// the else region alone.
inline constexpr llvm::StringLiteral kTMAVersionAttrName = "tile.tma_version";

/// On a `make_tensor_map` of `tile-pointer-tensor-maps` whose box is the
/// transpose of the tile its load reads (K^T, contiguous along its first
/// dimension): the buffer a TMA copy fills stores that tile in rows along
/// its first dimension.
inline constexpr llvm::StringLiteral kTransposedBoxAttrName =
    "tile.transposed_box";

/// Whether `op` is in a versioned kernel's general path (the else region of
/// the `tile.versioned` op), which runs only where the arguments miss the
/// fast paths' facts.
bool inGeneralPath(Operation *op);

/// On a rank-1 load or store whose addresses are consecutive over the whole
/// block: its lowering addresses every register from the first one's
/// address plus an immediate offset.
inline constexpr llvm::StringLiteral kContiguousRowAttrName =
    "tilegpu.contiguous_row";

/// On the outermost `scf.if` of `tile-version-arguments`: its condition is
/// the guard of the primary fast path, which the lowering passes through a
/// marked inline PTX move (tile/Target/FastPathGuard.h).
inline constexpr llvm::StringLiteral kFastPathGuardAttrName =
    "tile.fast_path_guard";

/// On a `make_range` that `tile-sink-past-loops` copied for the uses after
/// a loop, so that CSE keeps it apart from the original (its lowering reads
/// the thread index afresh there, as all code after a loop does).
inline constexpr llvm::StringLiteral kRecomputedAttrName = "tile.recomputed";

/// On an elementwise op: aligned runs of this many consecutive registers of
/// a thread hold equal results, so the lowering computes one per run.
inline constexpr llvm::StringLiteral kConstancyAttrName = "tilegpu.constancy";
/// On a masked load: the elements per thread a cp.async with a source size
/// can copy at once, where the mask ends each such run with its false
/// elements (wider than tilegpu.vec, which needs the mask constant).
inline constexpr llvm::StringLiteral kPrefixVecAttrName = "tilegpu.prefix_vec";
/// On an async_copy: its mask ends each copied run with the false elements
/// (a prefix mask); each copy's source size counts the true ones.
inline constexpr llvm::StringLiteral kPrefixMaskAttrName =
    "tilegpu.prefix_mask";

/// On the per-thread global load and store a tile access lowers to: which
/// elements of which tile it touches, `[key, first, count]`, where `key`
/// is the tile's shape and layout (a tensor type of `i1`) and `first` and
/// `count` number the thread's registers. Two accesses with the same key
/// and overlapping registers touch the same element coordinates.
inline constexpr llvm::StringLiteral kElementAccessAttrName =
    "tilegpu.element_access";

/// On a barrier or proxy fence that the lowering inserts for a buffer of
/// its own in shared memory: it orders shared-memory accesses only, so the
/// per-thread global accesses of tiles (`kElementAccessAttrName`), which
/// the program does not order among its threads, may move across it.
inline constexpr llvm::StringLiteral kSharedOnlyAttrName =
    "tilegpu.shared_only";

/// On an inline asm that only reads a special register (`%tid.x`) and is
/// marked as having side effects only so that LLVM does not hoist it out of
/// a loop: nothing needs ordering around it.
inline constexpr llvm::StringLiteral kUnhoistedReadAttrName =
    "tilegpu.unhoisted_read";

/// On a kernel with a loop at the register ceiling (its dots' accumulators
/// alone come within 32 of 255 registers a thread), from the start of
/// `convert-tilegpu-to-gpu` until `tilegpu-reads-after-loops`, which
/// consults it and removes it.
inline constexpr llvm::StringLiteral kRegisterCeilingAttrName =
    "tilegpu.register_ceiling";

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_TILEGPUDIALECT_H
