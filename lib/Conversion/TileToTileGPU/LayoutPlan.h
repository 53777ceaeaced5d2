//===- LayoutPlan.h - Choosing a layout for every tensor --------*- C++ -*-===//
//
// Values that an op combines element by element (operands and results of
// arith ops, a load's pointers, mask and result, the values a loop carries)
// should share a layout, so they are grouped into classes. Some classes
// have a preferred layout (an anchor): tensor-core accumulators take the
// mma layout, loads and stores a blocked layout that lets each thread
// access 16 contiguous bytes. Classes without anchors derive their layout
// from their neighbours through reductions, expand_dims and transposes, or
// take the default. Where two classes meet with different layouts, the
// assignment inserts a convert_layout.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOTILEGPU_LAYOUTPLAN_H
#define TILE_LIB_CONVERSION_TILETOTILEGPU_LAYOUTPLAN_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tile {

struct LayoutPlanOptions {
  unsigned numWarps = 4;
  /// Use mma.sync for dots with 16-bit (or tf32) operands.
  bool useMma = true;
  /// On sm_90a: Hopper's wgmma (version-3 #mma) for dots it can take.
  bool useWgmma = false;
  /// Pointers of accesses rebuilt as row pointers plus column offsets
  /// (`splitScatteredLoopAddresses`): they take a balanced arrangement.
  llvm::DenseSet<Value> rowSplitPointers;
};

class LayoutPlan {
public:
  LayoutPlan(func::FuncOp func, const AxisInfoAnalysis &axis,
             const LayoutPlanOptions &options);

  /// The layout chosen for tensor value `v` (null if none was planned).
  Attribute getLayout(Value v) const;

  /// The mma layout for a dot, when it uses tensor cores.
  tilegpu::MmaEncodingAttr getMmaLayout(DotOp dot) const {
    return mmaLayouts.lookup(dot);
  }

  /// The blocked layout of a tensor of `shape` that nothing constrains.
  Attribute defaultLayout(ArrayRef<int64_t> shape) const;

private:
  Value find(Value v) const;
  void unite(Value a, Value b);
  void collect(Region &region);
  void anchor(Value v, Attribute layout, int priority);
  void derive(func::FuncOp func);

  /// The layout of a reshape's or transpose's result that keeps every
  /// element where `src` has it.
  Attribute rearrangedLayout(Operation *op,
                             tilegpu::DistributedLayoutAttr src) const;
  Attribute coalescedLayout(Value ptr) const;
  /// The layout of the loaded tile `store`'s value comes from, where
  /// storing in it needs no conversion and still writes whole sectors as
  /// well as `coalescedLayout` (the store's own) would; null otherwise.
  Attribute loadedLayoutFor(StoreOp store, Attribute coalescedLayout) const;
  tilegpu::BlockedEncodingAttr
  balancedLayout(llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<unsigned> order) const;
  tilegpu::MmaEncodingAttr chooseMma(DotOp dot) const;
  /// Loads of a small vector that is only broadcast against dot results
  /// (`x[None, :]` combined with a dot's tile: attention backward's row
  /// statistics, the offsets of a causal mask) take the slice of the dot's
  /// layout: each thread loads the few elements it combines, where a
  /// coalesced load would be moved through shared memory, with barriers,
  /// in every iteration.
  void anchorVectorsOfDots(func::FuncOp func);
  static constexpr unsigned kMaxSliceRegisters = 16;
  tilegpu::MmaEncodingAttr chooseWgmma(DotOp dot) const;

  MLIRContext *ctx;
  const AxisInfoAnalysis &axis;
  LayoutPlanOptions options;
  mutable llvm::DenseMap<Value, Value> parent;
  llvm::DenseMap<Value, Attribute> classLayout;  // by class root
  llvm::DenseMap<Value, int> classPriority;      // by class root
  llvm::DenseMap<Value, int64_t> anchorElements; // by class root
  llvm::DenseMap<Operation *, tilegpu::MmaEncodingAttr> mmaLayouts;
  /// Roots of the classes a scan reads.
  llvm::DenseSet<Value> scannedClasses;
  llvm::SmallVector<Value> members; // every tensor value, in program order
};

/// The wgmma (version-3 #mma) layout for `dot`, or null where wgmma cannot
/// take it.
tilegpu::MmaEncodingAttr chooseWgmmaLayout(DotOp dot,
                                           const LayoutPlanOptions &options);

/// Whether `atomic` adds a dot's result (through elementwise work or a
/// loop) into memory without reading the old values: split-K's epilogue.
bool isAccumulationOfDot(AtomicRMWOp atomic);

/// Computes each dot into an fp16 or bf16 accumulator as the fp32 dot of
/// the same operands, widened before and rounded after
/// (HalfAccumulators.cpp), so that it runs on the tensor cores. Returns
/// whether any dot changed.
bool accumulateHalfDotsInF32(func::FuncOp func,
                             const LayoutPlanOptions &options);

/// Gives the dots of fp8 blocks that neither wgmma's fp8 form nor
/// mma.sync's takes fp16 operands (KMajorDots.cpp). Returns whether any
/// dot changed.
bool widenFloat8Dots(func::FuncOp func, const AxisInfoAnalysis &axis,
                     const LayoutPlanOptions &options);

/// Set on a tf32 dot of fp32 blocks, or an int8 dot into int32, whose
/// operands wgmma's K-major-only forms read (both loaded along K, or for
/// tf32 a B loaded along K and an A read into registers):
/// chooseWgmmaLayout takes only those.
inline constexpr llvm::StringLiteral kKMajorWgmmaAttrName =
    "tilegpu.k_major_wgmma";

/// Whether `dot` multiplies int8 blocks into int32.
bool isInt8Dot(DotOp dot);

/// Whether mma.sync's 8-bit form (m16n8k32: fp8 into f32, sm_89 on; int8
/// into int32) fits `dot`'s shape and types. For fp8, widenFloat8Dots also
/// asks that both operands run along K.
bool takesEightBitMma(DotOp dot, const LayoutPlanOptions &options);

/// Marks the tf32 and int8 dots that wgmma takes (KMajorDots.cpp), after
/// rewriting a tf32 dot of a row-major B as its transpose where wgmma then
/// takes it. Returns whether any dot was rewritten.
bool markKMajorWgmmaDots(func::FuncOp func, const AxisInfoAnalysis &axis,
                         const LayoutPlanOptions &options);

/// Clone cheap index computations (ranges, splats, constants, integer
/// arithmetic on them, expand_dims and broadcast) so that each use has its
/// own copy and can take its own layout; a use inside a loop or branch gets
/// its copy before that op, where the original was computed.
void rematerializeCheapValues(func::FuncOp func);

/// Puts a barrier of the program before each load of addresses that a
/// store or atomic before it wrote through another arrangement of the
/// elements (StoreLoadOrder.cpp): the program's loads see its own stores.
void orderStoresBeforeLoads(func::FuncOp func);

/// In loops that carry a base pointer, rebuilds the addresses of accesses
/// without contiguity as row pointers plus column offsets, so that no
/// per-element offset stays live across the loop (ScatteredAddresses.cpp).
/// Returns the new pointers.
llvm::DenseSet<Value> splitScatteredLoopAddresses(func::FuncOp func,
                                                  const AxisInfoAnalysis &axis);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETOTILEGPU_LAYOUTPLAN_H
