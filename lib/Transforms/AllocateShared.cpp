//===- AllocateShared.cpp - Place buffers in each kernel's shared memory --===//
//
// Two kinds of shared memory users: tiles (tilegpu.local_alloc), live from
// the allocation to their last reader, and the scratch of ops that move
// data between threads, live only during that op. Ops are numbered in
// program order; a value used inside a loop that does not define it stays
// live until the loop ends. Buffers whose live ranges overlap get disjoint
// byte ranges (largest first, lowest free offset); the others may share.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/Scratch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUALLOCATESHARED
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

struct Buffer {
  Operation *owner;
  int64_t bytes;
  unsigned start, end; // inclusive live range in op numbers
  int64_t alignment = 16;
  int64_t offset = -1;
};

class SharedMemoryPlanner {
public:
  explicit SharedMemoryPlanner(func::FuncOp func) {
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      number[op] = next++;
    });
    // The last op number inside each op (for loops: where they end).
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      unsigned last = number[op];
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Operation &inner : b)
            last = std::max(last, lastInside[&inner]);
      lastInside[op] = last;
    });
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        auto [start, end] = liveRange(alloc);
        buffers.push_back({op, alloc.getType().getSizeInBytes(), start, end});
        // wgmma's swizzle follows address bits up to 1024.
        if (alloc.getType().getEncoding().getLineElems())
          buffers.back().alignment = 1024;
      } else if (unsigned bytes = getScratchBytes(op)) {
        buffers.push_back({op, bytes, number[op], number[op]});
        if (isa<tile::MakeTensorMapOp>(op)) {
          // tensormap.replace works on 128-byte aligned maps.
          buffers.back().alignment = kTensorMapScratchBytes;
          // Maps made one right after the other are built at the same time
          // (each by a warp of its own): each keeps its scratch through the
          // run.
          Operation *first = op, *last = op;
          while (isa_and_nonnull<tile::MakeTensorMapOp>(first->getPrevNode()))
            first = first->getPrevNode();
          while (isa_and_nonnull<tile::MakeTensorMapOp>(last->getNextNode()))
            last = last->getNextNode();
          buffers.back().start = number[first];
          buffers.back().end = number[last];
        }
      }
    });
  }

  /// Assigns offsets; returns the total bytes.
  int64_t assign() {
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) {
      return a->bytes > b->bytes;
    });
    int64_t total = 0;
    SmallVector<Buffer *> placed;
    for (Buffer *b : order) {
      // Candidate offsets: 0 and the end of every overlapping placed buffer.
      SmallVector<Buffer *> conflicts;
      for (Buffer *p : placed)
        if (p->start <= b->end && b->start <= p->end)
          conflicts.push_back(p);
      SmallVector<int64_t> candidates{0};
      for (Buffer *p : conflicts)
        candidates.push_back(llvm::alignTo(p->offset + p->bytes, b->alignment));
      llvm::sort(candidates);
      for (int64_t c : candidates) {
        bool fits = llvm::all_of(conflicts, [&](Buffer *p) {
          return c + b->bytes <= p->offset || p->offset + p->bytes <= c;
        });
        if (fits) {
          b->offset = c;
          break;
        }
      }
      placed.push_back(b);
      total = std::max(total, b->offset + b->bytes);
    }
    return total;
  }

  MutableArrayRef<Buffer> getBuffers() { return buffers; }

private:
  /// The op numbers from `alloc` to the last use of its tile (or a view of
  /// it), extended to the end of every loop that uses it without defining
  /// it. An asynchronous wgmma keeps reading its operands after it is
  /// issued, until a later wait: the tile lives until the waits on the
  /// dot's result and, when a loop holds both (the group is waited for in
  /// the next iteration), through the whole body, so that nothing made
  /// before it in the next iteration (a conversion's scratch) takes its
  /// bytes.
  std::pair<unsigned, unsigned> liveRange(LocalAllocOp alloc) {
    Operation *def = alloc;
    unsigned first = number[def], last = number[def];
    SmallVector<Value> worklist{alloc.getResult()};
    while (!worklist.empty()) {
      Value cur = worklist.pop_back_val();
      for (Operation *user : cur.getUsers()) {
        last = std::max(last, number[user]);
        for (Operation *loop = user->getParentOp(); loop;
             loop = loop->getParentOp()) {
          if (loop->isAncestor(def))
            break;
          if (isa<LoopLikeOpInterface>(loop))
            last = std::max(last, lastInside[loop]);
        }
        if (isa<MemDescIndexOp, MemDescTransOp>(user))
          worklist.push_back(user->getResult(0));
        auto dot = dyn_cast<WarpGroupDotOp>(user);
        if (!dot || !dot.getIsAsync())
          continue;
        for (Operation *waiter : dot.getD().getUsers())
          if (isa<WarpGroupDotWaitOp>(waiter))
            last = std::max(last, number[waiter]);
        if (auto loop = dot->getParentOfType<LoopLikeOpInterface>())
          if (loop->isAncestor(def)) {
            first = std::min(first, number[loop]);
            last = std::max(last, lastInside[loop]);
          }
      }
    }
    return {first, last};
  }

  llvm::DenseMap<Operation *, unsigned> number, lastInside;
  unsigned next = 0;
  SmallVector<Buffer> buffers;
};

struct TileGPUAllocateSharedPass
    : public mlir::tile::impl::TileGPUAllocateSharedBase<TileGPUAllocateSharedPass> {
  using TileGPUAllocateSharedBase::TileGPUAllocateSharedBase;
  void runOnOperation() override {
    auto i32 = IntegerType::get(&getContext(), 32);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      SharedMemoryPlanner planner(func);
      int64_t bytes = planner.assign();
      if (bytes > maxSharedBytes) {
        Buffer *largest = nullptr;
        for (Buffer &b : planner.getBuffers())
          if (!largest || b.bytes > largest->bytes)
            largest = &b;
        largest->owner->emitError("the kernel needs ")
            << bytes << " bytes of shared memory (this operation "
            << largest->bytes << "), more than the "
            << static_cast<unsigned>(maxSharedBytes)
            << " a program can use; use smaller blocks or fewer stages";
        return signalPassFailure();
      }
      for (Buffer &b : planner.getBuffers()) {
        if (auto alloc = dyn_cast<LocalAllocOp>(b.owner))
          alloc.setOffset(static_cast<uint32_t>(b.offset));
        else if (b.offset != 0)
          b.owner->setAttr(kScratchOffsetAttr, IntegerAttr::get(i32, b.offset));
      }
      func->setAttr(TileGPUDialect::getSharedBytesAttrName(),
                    IntegerAttr::get(i32, bytes));
      // The hardware reserves 1 KiB of shared memory per resident program.
      constexpr int64_t kReservedPerProgram = 1024;
      if (bytes > 0 && 2 * (bytes + kReservedPerProgram) > sharedBytesPerSM)
        func->setAttr(TileGPUDialect::getProgramsPerSMAttrName(),
                      IntegerAttr::get(i32, 1));
    }
  }
};
} // namespace
