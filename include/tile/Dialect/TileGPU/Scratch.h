//===- Scratch.h - Shared-memory scratch of ops that move data --*- C++ -*-===//
//
// Ops whose data must move between threads exchange it through a scratch
// buffer at the start of the dynamic shared memory, fenced by barriers. The
// allocation pass sizes the buffer with these functions, and the GPU
// lowering uses the same decisions, so the two cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_SCRATCH_H
#define TILE_DIALECT_TILEGPU_SCRATCH_H

#include "tile/Dialect/TileGPU/TileGPUDialect.h"
#include <optional>

namespace mlir::tilegpu {

/// Bytes one element of `elementType` takes in shared memory (i1 takes a
/// byte, pointers eight).
unsigned getScratchElementBytes(Type elementType);

/// For ops that only rearrange data (convert_layout, expand_dims,
/// broadcast, trans, reshape): the register of `src` each register of the
/// result reads, when no data crosses threads; nullopt otherwise.
std::optional<SmallVector<unsigned>> getRegisterRemap(Operation *op);

/// The row pitch (in elements) of the scratch through which `op`, a 2-D
/// convert_layout that moves data between threads, exchanges it: rows
/// whose bytes are a multiple of 128 get 16 bytes of padding, so that the
/// 8 rows one tensor-core fragment store touches fall in different banks;
/// others keep their length. 0 for every other op (they exchange through
/// the unpadded row-major scratch), other ranks and i1.
int64_t getRowScratchPitch(Operation *op);

/// The most scratch bytes one exchange of elements between threads
/// (convert_layout, expand_dims, broadcast, trans, reshape) takes: a larger
/// tensor goes through in rounds, a part of its elements each.
constexpr unsigned kMaxExchangeScratchBytes = 128 * 1024;

/// The rounds in which `op` exchanges its tensor through its scratch (a
/// power of two; 1 when the whole tensor fits kMaxExchangeScratchBytes).
unsigned getScratchRounds(Operation *op);

/// Scratch bytes `op` needs (0 when it needs none).
unsigned getScratchBytes(Operation *op);

/// The byte offset of `op`'s scratch in the kernel's shared memory (its
/// `tilegpu.scratch_offset`, set by tilegpu-allocate-shared; 0 if absent).
unsigned getScratchOffset(Operation *op);
constexpr llvm::StringLiteral kScratchOffsetAttr = "tilegpu.scratch_offset";

/// Round up to the 16-byte alignment every scratch region keeps.
inline unsigned alignScratch(unsigned bytes) { return (bytes + 15) & ~15u; }

/// A TMA tensor map's bytes, and the alignment of its scratch copy.
constexpr unsigned kTensorMapScratchBytes = 128;
/// Beside the map in its scratch: the map's global address, which a
/// warp-specialized kernel's threads read from there (the map's entry
/// depends on the warp that builds it).
constexpr unsigned kTensorMapAddressOffset = kTensorMapScratchBytes;

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_SCRATCH_H
