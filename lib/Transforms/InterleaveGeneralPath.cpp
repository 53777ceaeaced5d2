//===- InterleaveGeneralPath.cpp - Element order in the general path ------===//
//
// A versioned kernel's general path accesses unaligned tiles one element at
// a time. Lowered, each tile op is a run of per-element instructions, so
// every load of a tile comes before any use of it; ptxas keeps that order
// and holds each loaded element in its own register. Layernorm over 16,384
// columns keeps 192 scalar loads in flight in its general path (236
// registers) where its fast path needs 114, and since a kernel has one
// register count, the rarely-run general path halved the fast path's
// occupancy. This pass reorders each block of the general path by roots
// (stores, values leaving the block, side effects): a group of roots is
// preceded by the loads it needs and followed by its arithmetic, so the
// loads in flight are those of one group; ptxas still hoists loads within
// its register budget.
//
// Memory order: the accesses carry `tilegpu.element_access`. Accesses to
// different elements of tiles are unordered, as in Triton (in general they
// belong to different threads); a load and a store of overlapping
// registers of tiles of one shape and layout keep their order, as do a
// load and a store of different shapes or layouts, and all stores among
// themselves. Shared memory does not alias global memory: shared loads and
// stores keep their order among themselves and with the barriers and
// fences of the lowering's own buffers (`tilegpu.shared_only`), which the
// global accesses cross, so that the loads of a tile staged in shared
// memory come right before their stores instead of all before the barrier.
// Every other op with side effects (a user's debug_barrier) orders
// everything.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUINTERLEAVEGENERALPATH
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// Load and Store: per-thread global accesses of tiles; SharedAccess: loads
/// and stores of shared memory, kept in order among themselves and with
/// SharedFence, the barriers and fences of the lowering's own buffers;
/// Fence: any other side effect, ordered against everything.
enum class Kind { Pure, Load, Store, SharedAccess, SharedFence, Fence };

bool isFenceKind(Kind kind) {
  return kind == Kind::Fence || kind == Kind::SharedFence;
}

bool isSharedMemoryAccess(Operation *op) {
  Value addr;
  if (auto load = dyn_cast<LLVM::LoadOp>(op); load && !load.getVolatile_())
    addr = load.getAddr();
  else if (auto store = dyn_cast<LLVM::StoreOp>(op);
           store && !store.getVolatile_())
    addr = store.getAddr();
  else
    return false;
  auto type = dyn_cast<LLVM::LLVMPointerType>(addr.getType());
  return type && type.getAddressSpace() == 3;
}

/// Registers [first, first + count) of a tile of shape and layout `key`.
struct ElementAccess {
  Type key;
  int64_t first, count;
};

std::optional<ElementAccess> elementAccessOf(Operation *op) {
  auto attr = op->getAttrOfType<ArrayAttr>(tilegpu::kElementAccessAttrName);
  if (!attr || attr.size() != 3)
    return std::nullopt;
  auto key = dyn_cast<TypeAttr>(attr[0]);
  auto first = dyn_cast<IntegerAttr>(attr[1]);
  auto count = dyn_cast<IntegerAttr>(attr[2]);
  if (!key || !first || !count)
    return std::nullopt;
  return ElementAccess{key.getValue(), first.getInt(), count.getInt()};
}

/// Whether two accesses may touch the same element.
bool mayOverlap(const ElementAccess &a, const ElementAccess &b) {
  if (a.key != b.key)
    return true;
  return a.first < b.first + b.count && b.first < a.first + a.count;
}

Kind classify(Operation *op, const std::optional<ElementAccess> &access) {
  if (access)
    return op->getNumResults() ? Kind::Load : Kind::Store;
  if (op->hasAttr(tilegpu::kUnhoistedReadAttrName))
    return Kind::Pure;
  if (op->hasAttr(tilegpu::kSharedOnlyAttrName))
    return Kind::SharedFence;
  if (isSharedMemoryAccess(op))
    return Kind::SharedAccess;
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
    return asmOp.getHasSideEffects() ? Kind::Fence : Kind::Pure;
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
    return Kind::Pure;
  return Kind::Fence;
}

class BlockInterleaver {
public:
  BlockInterleaver(Block &block, unsigned groupSize, unsigned maxLoads)
      : block(block), groupSize(groupSize), maxLoads(maxLoads) {}

  void run() {
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    if (ops.size() < 3)
      return;
    for (auto [i, op] : llvm::enumerate(ops))
      index[op] = i;
    deps.resize(ops.size());
    kinds.resize(ops.size());
    accesses.resize(ops.size());
    for (auto [i, op] : llvm::enumerate(ops)) {
      accesses[i] = elementAccessOf(op);
      kinds[i] = classify(op, accesses[i]);
      addDataDeps(i);
    }
    addMemoryDeps();
    emitByRoots();
    for (unsigned i : order)
      ops[i]->moveBefore(block.getTerminator());
  }

private:
  /// The ops of this block whose results `i` (or an op nested in it) uses.
  void addDataDeps(unsigned i) {
    ops[i]->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (def->getBlock() == &block)
            deps[i].push_back(index.lookup(def));
    });
  }

  void addMemoryDeps() {
    std::optional<unsigned> lastFence, lastShared;
    SmallVector<unsigned> sinceFence, loads, stores;
    for (unsigned i = 0; i < ops.size(); ++i) {
      switch (kinds[i]) {
      case Kind::Pure:
        continue;
      case Kind::Fence:
        llvm::append_range(deps[i], sinceFence);
        if (lastFence)
          deps[i].push_back(*lastFence);
        lastFence = i;
        lastShared.reset();
        sinceFence.clear();
        loads.clear();
        stores.clear();
        continue;
      case Kind::SharedAccess:
      case Kind::SharedFence:
        // Global and shared memory do not alias; shared-memory ops keep
        // their order.
        if (lastShared)
          deps[i].push_back(*lastShared);
        lastShared = i;
        break;
      case Kind::Store:
        if (!stores.empty())
          deps[i].push_back(stores.back());
        for (unsigned l : loads)
          if (mayOverlap(*accesses[l], *accesses[i]))
            deps[i].push_back(l);
        stores.push_back(i);
        break;
      case Kind::Load:
        // The stores are ordered, so the last overlapping one suffices.
        for (unsigned s : llvm::reverse(stores))
          if (mayOverlap(*accesses[s], *accesses[i])) {
            deps[i].push_back(s);
            break;
          }
        loads.push_back(i);
        break;
      }
      if (lastFence)
        deps[i].push_back(*lastFence);
      sinceFence.push_back(i);
    }
  }

  /// An op is a root when it has side effects or a use outside this
  /// block's ops (the terminator included).
  bool isRoot(unsigned i) {
    if (isFenceKind(kinds[i]) || kinds[i] == Kind::Store ||
        ops[i]->getNumResults() == 0)
      return true;
    for (Operation *user : ops[i]->getUsers()) {
      Operation *at = block.findAncestorOpInBlock(*user);
      if (!at || at == block.getTerminator())
        return true;
    }
    return false;
  }

  /// Emits `start` after everything it depends on (iteratively: the
  /// dependence chains of a large block are long).
  void emit(unsigned start) {
    if (state[start] != 0)
      return;
    SmallVector<std::pair<unsigned, unsigned>> stack{{start, 0}};
    state[start] = 1;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      if (next < deps[node].size()) {
        unsigned d = deps[node][next++];
        if (state[d] == 0) {
          state[d] = 1;
          stack.push_back({d, 0});
        }
        continue;
      }
      state[node] = 2;
      order.push_back(node);
      stack.pop_back();
    }
  }

  /// Appends to `loads` the loads not yet emitted that `root` needs and
  /// that no earlier call of this generation collected.
  void collectLoads(unsigned root, SmallVector<unsigned> &loads) {
    SmallVector<unsigned> work{root};
    while (!work.empty()) {
      unsigned n = work.pop_back_val();
      if (state[n] != 0 || seen[n] == generation)
        continue;
      seen[n] = generation;
      if (kinds[n] == Kind::Load)
        loads.push_back(n);
      llvm::append_range(work, deps[n]);
    }
  }

  void emitByRoots() {
    state.assign(ops.size(), 0);
    seen.assign(ops.size(), 0);
    SmallVector<unsigned> roots;
    for (unsigned i = 0; i < ops.size(); ++i)
      if (isRoot(i))
        roots.push_back(i);
    for (size_t k = 0; k < roots.size();) {
      if (isFenceKind(kinds[roots[k]])) {
        emit(roots[k++]);
        continue;
      }
      // A group takes roots while their loads fit the budget (a 16-byte
      // shared store of eight scalar loads counts eight).
      size_t end = k;
      SmallVector<unsigned> loads;
      ++generation;
      while (end < roots.size() && end - k < groupSize &&
             !isFenceKind(kinds[roots[end]])) {
        SmallVector<unsigned> more;
        collectLoads(roots[end], more);
        if (end > k && loads.size() + more.size() > maxLoads)
          break;
        llvm::append_range(loads, more);
        ++end;
      }
      ArrayRef<unsigned> group(roots.data() + k, end - k);
      llvm::sort(loads);
      for (unsigned load : loads)
        emit(load);
      for (unsigned root : group)
        emit(root);
      k = end;
    }
    for (unsigned i = 0; i < ops.size(); ++i)
      emit(i);
  }

  Block &block;
  unsigned groupSize, maxLoads;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> index;
  SmallVector<SmallVector<unsigned>> deps;
  SmallVector<Kind> kinds;
  SmallVector<std::optional<ElementAccess>> accesses;
  SmallVector<uint8_t> state; // 0 not emitted, 1 in progress, 2 emitted
  SmallVector<unsigned> seen;
  unsigned generation = 0;
  SmallVector<unsigned> order;
};

struct TileGPUInterleaveGeneralPath
    : public tile::impl::TileGPUInterleaveGeneralPathBase<
          TileGPUInterleaveGeneralPath> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](scf::IfOp ifOp) {
      if (!ifOp->hasAttr(tilegpu::kVersionedAttrName))
        return;
      for (Block &b : ifOp.getElseRegion())
        blocks.push_back(&b);
      ifOp.getElseRegion().walk([&](Operation *op) {
        for (Region &r : op->getRegions())
          for (Block &b : r)
            blocks.push_back(&b);
      });
    });
    for (Block *b : blocks)
      BlockInterleaver(*b, groupSize, maxLoads).run();
  }
};

} // namespace
