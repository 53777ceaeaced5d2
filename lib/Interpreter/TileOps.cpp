//===- TileOps.cpp - tile dialect ops on the CPU --------------------------===//

#include "Machine.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>

using namespace mlir;
using namespace tilec::interp;

/// The CPU mode's integer addresses: buffer b's bytes start at
/// (b + 1) << kBufferAddressBits.
static constexpr unsigned kBufferAddressBits = 40;

namespace {

/// Row-major strides of `shape`.
SmallVector<int64_t, 4> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The multi-index of linear position `i` in `shape`.
void unflatten(int64_t i, ArrayRef<int64_t> shape, SmallVectorImpl<int64_t> &idx) {
  idx.resize(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = i % shape[d];
    i /= shape[d];
  }
}

/// Copy element `from` of `src` to element `to` of `dst` (same kind).
void copyElement(const Tensor &src, int64_t from, Tensor &dst, int64_t to) {
  switch (src.kind) {
  case Tensor::Kind::Float:
    dst.floats[to] = src.floats[from];
    break;
  case Tensor::Kind::Ptr:
    dst.buffers[to] = src.buffers[from];
    [[fallthrough]];
  case Tensor::Kind::Int:
    dst.ints[to] = src.ints[from];
    break;
  case Tensor::Kind::BlockPtr:
    break;
  }
}

/// A result whose element i takes source element source(i).
template <typename Fn>
TensorRef gather(const Tensor &src, ArrayRef<int64_t> shape, Fn source) {
  TensorRef r = makeLike(src, shape);
  for (int64_t i = 0, e = r->numel(); i < e; ++i)
    copyElement(src, source(i), *r, i);
  return r;
}

} // namespace

/// Element `pos` of `t` as a scalar tensor (a combining region's operand).
static TensorRef elementAt(const Tensor &t, int64_t pos) {
  TensorRef s = makeLike(t, {});
  copyElement(t, pos, *s, 0);
  return s;
}

/// Combine scalars with a reduce or scan region: `acc` becomes the region
/// applied to `acc`, then `next`.
static LogicalResult combine(Machine &m, Block &combineBlock,
                             SmallVectorImpl<TensorRef> &acc,
                             ArrayRef<TensorRef> next) {
  SmallVector<TensorRef> args(acc.begin(), acc.end());
  args.append(next.begin(), next.end());
  SmallVector<TensorRef> out;
  if (failed(m.runBlock(combineBlock, args, out)))
    return failure();
  acc.assign(out.begin(), out.end());
  return success();
}

/// Reduce along `axis`: float sums as a tree of pairs, other reductions by
/// walking the axis in order.
static LogicalResult reduceOp(Machine &m, tile::ReduceOp op) {
  unsigned n = op.getSrcs().size();
  SmallVector<const Tensor *> srcs;
  for (Value v : op.getSrcs())
    srcs.push_back(m.get(v).get());
  ArrayRef<int64_t> shape = srcs[0]->shape;
  unsigned axis = op.getAxis();
  SmallVector<int64_t, 4> outShape(shape);
  outShape.erase(outShape.begin() + axis);
  SmallVector<int64_t, 4> strides = stridesOf(shape);
  int64_t length = shape[axis], stride = strides[axis];
  SmallVector<TensorRef> results;
  for (unsigned k = 0; k < n; ++k)
    results.push_back(makeLike(*srcs[k], outShape));

  // One-op regions (sum, max, min) combine without interpreting the region.
  enum class Fast { None, AddF, MaxF, MinF, AddI } fast = Fast::None;
  Block &body = op.getCombineBlock();
  if (n == 1 && body.getOperations().size() == 2) {
    Operation &first = body.front();
    bool plain = first.getNumOperands() == 2 &&
                 first.getOperand(0) == body.getArgument(0) &&
                 first.getOperand(1) == body.getArgument(1) &&
                 body.getTerminator()->getOperand(0) == first.getResult(0);
    if (plain && isa<arith::AddFOp>(first))
      fast = Fast::AddF;
    else if (plain && isa<arith::MaxNumFOp>(first))
      fast = Fast::MaxF;
    else if (plain && isa<arith::MinNumFOp>(first))
      fast = Fast::MinF;
    else if (plain && isa<arith::AddIOp>(first))
      fast = Fast::AddI;
  }
  SmallVector<int64_t, 4> outIdx;
  std::vector<double> pairs;
  for (int64_t o = 0, e = results[0]->numel(); o < e; ++o) {
    // The source position of element 0 along the axis for this output.
    unflatten(o, outShape, outIdx);
    int64_t base = 0;
    for (unsigned d = 0, j = 0; d < shape.size(); ++d) {
      if (d == axis)
        continue;
      base += outIdx[j++] * strides[d];
    }
    if (fast == Fast::AddF && llvm::isPowerOf2_64(length)) {
      // A float sum as a tree of pairs, as the GPU's shuffles add: over
      // 65536 lanes an in-order fp32 sum drifts 1e-4 (relative) from the
      // exact one (Unsloth's chunked cross entropy), a tree ~log2(n) ulps.
      const std::vector<double> &x = srcs[0]->floats;
      FloatFormat f = formatOf(srcs[0]->elem);
      pairs.resize(length);
      for (int64_t i = 0; i < length; ++i)
        pairs[i] = x[base + i * stride];
      for (int64_t live = length; live > 1; live /= 2)
        for (int64_t i = 0; i < live / 2; ++i)
          pairs[i] = roundTo(f, pairs[2 * i] + pairs[2 * i + 1]);
      results[0]->floats[o] = pairs[0];
      continue;
    }
    if (fast == Fast::AddF || fast == Fast::MaxF || fast == Fast::MinF) {
      const std::vector<double> &x = srcs[0]->floats;
      FloatFormat f = formatOf(srcs[0]->elem);
      double acc = x[base];
      for (int64_t i = 1; i < length; ++i) {
        double v = x[base + i * stride];
        acc = fast == Fast::AddF   ? roundTo(f, acc + v)
              : fast == Fast::MaxF ? std::fmax(acc, v)
                                   : std::fmin(acc, v);
      }
      results[0]->floats[o] = acc;
      continue;
    }
    if (fast == Fast::AddI) {
      const std::vector<int64_t> &x = srcs[0]->ints;
      unsigned bits = intBits(srcs[0]->elem);
      int64_t acc = x[base];
      for (int64_t i = 1; i < length; ++i)
        acc = wrapSigned(static_cast<int64_t>(static_cast<uint64_t>(acc) +
                                              static_cast<uint64_t>(x[base + i * stride])),
                         bits);
      results[0]->ints[o] = acc;
      continue;
    }
    SmallVector<TensorRef> acc;
    for (unsigned k = 0; k < n; ++k)
      acc.push_back(elementAt(*srcs[k], base));
    for (int64_t i = 1; i < length; ++i) {
      SmallVector<TensorRef> next;
      for (unsigned k = 0; k < n; ++k)
        next.push_back(elementAt(*srcs[k], base + i * stride));
      if (failed(combine(m, op.getCombineBlock(), acc, next)))
        return failure();
    }
    for (unsigned k = 0; k < n; ++k)
      copyElement(*acc[k], 0, *results[k], o);
  }
  for (unsigned k = 0; k < n; ++k)
    m.set(op.getResult(k), results[k]);
  return success();
}

/// The scalar region run on each element in order, as the GPU runs it on
/// each register (on groups of `pack` consecutive elements, the last one
/// completed by repeating its last element).
static LogicalResult mapElementwiseOp(Machine &m, tile::MapElementwiseOp op) {
  SmallVector<const Tensor *> srcs;
  for (Value v : op.getSrcs())
    srcs.push_back(m.get(v).get());
  SmallVector<TensorRef> results;
  for (Value r : op.getResults())
    results.push_back(makeForType(r.getType()));
  Block &body = op.getScalarOp().front();
  int64_t pack = op.getPackSize(), n = srcs[0]->numel();
  for (int64_t first = 0; first < n; first += pack) {
    SmallVector<TensorRef> args, out;
    for (const Tensor *src : srcs)
      for (int64_t j = 0; j < pack; ++j)
        args.push_back(elementAt(*src, std::min(first + j, n - 1)));
    if (failed(m.runBlock(body, args, out)))
      return failure();
    for (auto [k, value] : llvm::enumerate(out))
      if (first + int64_t(k) % pack < n)
        copyElement(*value, 0, *results[k / pack], first + k % pack);
  }
  for (auto [r, t] : llvm::zip(op.getResults(), results))
    m.set(r, t);
  return success();
}

/// An inclusive scan along `axis`, walking it in order (from the end with
/// `reverse`); each element is the accumulator after combining it.
static LogicalResult scanOp(Machine &m, tile::ScanOp op) {
  unsigned n = op.getSrcs().size();
  SmallVector<const Tensor *> srcs;
  SmallVector<TensorRef> results;
  for (Value v : op.getSrcs()) {
    srcs.push_back(m.get(v).get());
    results.push_back(makeLike(*srcs.back(), srcs.back()->shape));
  }
  ArrayRef<int64_t> shape = srcs[0]->shape;
  unsigned axis = op.getAxis();
  SmallVector<int64_t, 4> strides = stridesOf(shape);
  int64_t length = shape[axis], stride = strides[axis];
  int64_t lines = srcs[0]->numel() / std::max<int64_t>(length, 1);
  // Positions along the line, in the order the scan visits them.
  auto position = [&](int64_t base, int64_t i) {
    return base + (op.getReverse() ? length - 1 - i : i) * stride;
  };
  SmallVector<int64_t, 4> lineShape(shape), lineIdx;
  lineShape[axis] = 1;
  for (int64_t line = 0; line < lines; ++line) {
    unflatten(line, lineShape, lineIdx);
    int64_t base = 0;
    for (unsigned d = 0; d < shape.size(); ++d)
      base += lineIdx[d] * strides[d];
    SmallVector<TensorRef> acc;
    for (int64_t i = 0; i < length; ++i) {
      int64_t pos = position(base, i);
      SmallVector<TensorRef> next;
      for (unsigned k = 0; k < n; ++k)
        next.push_back(elementAt(*srcs[k], pos));
      if (i == 0)
        acc = std::move(next);
      else if (failed(combine(m, op.getCombineBlock(), acc, next)))
        return failure();
      for (unsigned k = 0; k < n; ++k)
        copyElement(*acc[k], 0, *results[k], pos);
    }
  }
  for (unsigned k = 0; k < n; ++k)
    m.set(op.getResult(k), results[k]);
  return success();
}

/// Element p of the result is src at p with its axis coordinate replaced
/// by index[p]; an index out of range is an error here.
static LogicalResult gatherOp(Machine &m, tile::GatherOp op) {
  const Tensor &src = *m.get(op.getSrc());
  const Tensor &index = *m.get(op.getIndex());
  TensorRef r = makeLike(src, index.shape);
  unsigned axis = op.getAxis();
  SmallVector<int64_t, 4> srcStrides = stridesOf(src.shape), idx;
  for (int64_t i = 0, e = index.numel(); i < e; ++i) {
    unflatten(i, index.shape, idx);
    int64_t at = index.ints[i];
    if (at < 0 || at >= src.shape[axis])
      return m.fail(op, "gather index " + std::to_string(at) +
                            " out of range for an axis of " +
                            std::to_string(src.shape[axis]));
    idx[axis] = at;
    int64_t pos = 0;
    for (unsigned d = 0; d < idx.size(); ++d)
      pos += idx[d] * srcStrides[d];
    copyElement(src, pos, *r, i);
  }
  m.set(op.getResult(), r);
  return success();
}

/// Counts per bin; the stored (sign-extended) value of an element in
/// [0, bins) is the bin, whether the type is signed or not.
static void histogramOp(Machine &m, tile::HistogramOp op) {
  const Tensor &src = *m.get(op.getSrc());
  const Tensor *mask = op.getMask() ? m.get(op.getMask()).get() : nullptr;
  auto type = cast<RankedTensorType>(op.getResult().getType());
  int64_t bins = type.getDimSize(0);
  TensorRef r = makeTensor(Tensor::Kind::Int, type.getElementType(), {bins});
  std::fill(r->ints.begin(), r->ints.end(), 0);
  for (int64_t i = 0, e = src.numel(); i < e; ++i)
    if ((!mask || mask->ints[i]) && src.ints[i] >= 0 && src.ints[i] < bins)
      ++r->ints[src.ints[i]];
  m.set(op.getResult(), r);
}

/// d = a @ b + c with FMAs in k order (fp32 for 16-bit and fp32 inputs).
/// fp32 operands in "tf32" precision are first rounded to tf32 as the
/// tensor cores round them; "tf32x3" and "ieee" keep full fp32 operands.
static void dotOp(Machine &m, tile::DotOp op) {
  const Tensor &a = *m.get(op.getA()), &b = *m.get(op.getB()),
               &c = *m.get(op.getC());
  int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  TensorRef d = makeLike(c, c.shape);
  if (c.isFloat()) {
    bool tf32 = formatOf(a.elem) == FloatFormat::F32 &&
                op.getInputPrecision() == tile::InputPrecision::tf32;
    auto operand = [&](double x) { return tf32 ? roundToTF32(x) : x; };
    FloatFormat out = formatOf(c.elem);
    bool wide = out == FloatFormat::F64;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = c.floats[i * N + j];
        if (wide) {
          for (int64_t k = 0; k < K; ++k)
            acc = std::fma(a.floats[i * K + k], b.floats[k * N + j], acc);
        } else {
          float facc = static_cast<float>(acc);
          for (int64_t k = 0; k < K; ++k)
            facc = std::fmaf(static_cast<float>(operand(a.floats[i * K + k])),
                             static_cast<float>(operand(b.floats[k * N + j])),
                             facc);
          acc = facc;
        }
        d->floats[i * N + j] = roundTo(out, acc);
      }
  } else {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        int64_t acc = c.ints[i * N + j];
        for (int64_t k = 0; k < K; ++k)
          acc = wrapSigned(acc + a.ints[i * K + k] * b.ints[k * N + j], 32);
        d->ints[i * N + j] = acc;
      }
  }
  m.set(op.getD(), d);
}

static std::string formatElement(const Tensor &t, int64_t i) {
  if (t.isFloat())
    return llvm::formatv("{0:f6}", t.floats[i]).str();
  if (t.isPtr())
    return llvm::formatv("buffer {0} + {1}", t.buffers[i], t.ints[i]).str();
  return std::to_string(t.ints[i]);
}

LogicalResult Machine::executeTile(Operation *op, bool &handled) {
  handled = true;
  if (auto p = dyn_cast<tile::ProgramIdOp>(op)) {
    TensorRef r = makeForType(p.getType());
    r->ints[0] = pid[p.getAxis()];
    set(p.getResult(), r);
  } else if (isa<tile::LaunchGridOp>(op)) {
    // The launcher already sized the grid from the same expressions.
  } else if (auto n = dyn_cast<tile::NumProgramsOp>(op)) {
    TensorRef r = makeForType(n.getType());
    r->ints[0] = options.grid[n.getAxis()];
    set(n.getResult(), r);
  } else if (auto range = dyn_cast<tile::MakeRangeOp>(op)) {
    TensorRef r = makeForType(range.getType());
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = range.getStartAttr().getInt() + i;
    set(range.getResult(), r);
  } else if (auto splat = dyn_cast<tile::SplatOp>(op)) {
    const Tensor &s = *get(splat.getSrc());
    auto shape = splat.getType().getShape();
    set(splat.getResult(), gather(s, shape, [](int64_t) { return 0; }));
  } else if (auto bcast = dyn_cast<tile::BroadcastOp>(op)) {
    const Tensor &s = *get(bcast.getSrc());
    ArrayRef<int64_t> out = bcast.getType().getShape();
    SmallVector<int64_t, 4> srcStrides = stridesOf(s.shape);
    SmallVector<int64_t, 4> idx;
    set(bcast.getResult(), gather(s, out, [&](int64_t i) {
          unflatten(i, out, idx);
          int64_t from = 0;
          for (size_t d = 0; d < idx.size(); ++d)
            from += (s.shape[d] == 1 ? 0 : idx[d]) * srcStrides[d];
          return from;
        }));
  } else if (isa<tile::ExpandDimsOp, tile::ReshapeOp>(op)) {
    // Row-major order is unchanged.
    const Tensor &s = *get(op->getOperand(0));
    auto shape = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
    set(op->getResult(0), gather(s, shape, [](int64_t i) { return i; }));
  } else if (auto trans = dyn_cast<tile::TransOp>(op)) {
    const Tensor &s = *get(trans.getSrc());
    ArrayRef<int64_t> out = trans.getType().getShape();
    ArrayRef<int32_t> order = trans.getOrder();
    SmallVector<int64_t, 4> srcStrides = stridesOf(s.shape);
    SmallVector<int64_t, 4> idx;
    set(trans.getResult(), gather(s, out, [&](int64_t i) {
          unflatten(i, out, idx);
          int64_t from = 0;
          for (size_t d = 0; d < idx.size(); ++d)
            from += idx[d] * srcStrides[order[d]];
          return from;
        }));
  } else if (auto add = dyn_cast<tile::AddPtrOp>(op)) {
    const Tensor &p = *get(add.getPtr()), &off = *get(add.getOffset());
    TensorRef r = makeLike(p, p.shape);
    int64_t bytes = elementBytes(p.elem);
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      r->buffers[i] = p.buffers[i];
      r->ints[i] = p.ints[i] + off.ints[i] * bytes;
    }
    set(add.getResult(), r);
  } else if (auto toInt = dyn_cast<tile::PtrToIntOp>(op)) {
    // A pointer is (buffer, byte offset) here; as an integer it is the
    // offset from a fake base per buffer, (buffer + 1) * 2^40, which
    // int_to_ptr decodes again (offsets within +-2^39 bytes). A None
    // argument's buffer is at address 0, as the GPU's null pointer.
    const Tensor &p = *get(toInt.getPtr());
    TensorRef r = makeForType(toInt.getResult().getType());
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      int32_t buffer = p.buffers[i];
      bool null = buffer >= 0 && buffer < int32_t(buffers.size()) &&
                  buffers[buffer].isNull;
      r->ints[i] =
          (null ? 0 : (int64_t(buffer) + 1) << kBufferAddressBits) + p.ints[i];
    }
    set(toInt.getResult(), r);
  } else if (auto toPtr = dyn_cast<tile::IntToPtrOp>(op)) {
    const Tensor &a = *get(toPtr.getAddr());
    TensorRef r = makeForType(toPtr.getResult().getType());
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      int64_t base = (a.ints[i] + (int64_t(1) << (kBufferAddressBits - 1))) >>
                     kBufferAddressBits;
      r->buffers[i] = int32_t(base - 1);
      r->ints[i] = a.ints[i] - (base << kBufferAddressBits);
    }
    set(toPtr.getResult(), r);
  } else if (auto hint = dyn_cast<tile::HintOp>(op)) {
    set(hint.getResult(), get(hint.getSrc()));
  } else if (auto dot = dyn_cast<tile::DotOp>(op)) {
    dotOp(*this, dot);
  } else if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    return reduceOp(*this, reduce);
  } else if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    return scanOp(*this, scan);
  } else if (auto map = dyn_cast<tile::MapElementwiseOp>(op)) {
    return mapElementwiseOp(*this, map);
  } else if (auto histogram = dyn_cast<tile::HistogramOp>(op)) {
    histogramOp(*this, histogram);
  } else if (auto gather = dyn_cast<tile::GatherOp>(op)) {
    return gatherOp(*this, gather);
  } else if (auto sreg = dyn_cast<tile::SpecialRegisterOp>(op)) {
    TensorRef r = makeForType(sreg.getType());
    r->ints[0] = sreg.getSreg() == "smid"
                     ? 0
                     : std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count();
    set(sreg.getResult(), r);
  } else if (auto inlineAsm = dyn_cast<tile::InlineAsmOp>(op)) {
    // Grid dependency control (tl.extra.cuda.gdc_*) orders this launch
    // after the previous one, which the CPU mode runs to completion first.
    if (inlineAsm.getAsmString().starts_with("griddepcontrol.")) {
      for (Value result : inlineAsm.getResults())
        set(result, makeForType(result.getType()));
      return success();
    }
    return fail(op, "inline_asm_elementwise runs PTX, which the CPU mode "
                    "cannot execute; run the kernel on the GPU");
  } else if (auto assertOp = dyn_cast<tile::AssertOp>(op)) {
    const Tensor &c = *get(assertOp.getCondition());
    for (int64_t i = 0, e = c.numel(); i < e; ++i)
      if (!c.ints[i])
        return fail(op, "device assertion failed: " + assertOp.getMessage() +
                            (c.shape.empty()
                                 ? std::string()
                                 : " (element " + std::to_string(i) + ")"));
  } else if (isa<tile::DebugBarrierOp>(op)) {
    // A program's blocks run as wholes: nothing to wait for.
  } else if (auto print = dyn_cast<tile::PrintOp>(op)) {
    llvm::raw_ostream &os = *options.printStream;
    std::string head = llvm::formatv("pid ({0}, {1}, {2})", pid[0], pid[1],
                                     pid[2]);
    if (print.getArgs().empty())
      os << head << " " << print.getPrefix() << "\n";
    SmallVector<int64_t, 4> idx;
    for (Value v : print.getArgs()) {
      const Tensor &t = *get(v);
      for (int64_t i = 0, e = t.numel(); i < e; ++i) {
        os << head;
        if (!t.shape.empty()) {
          unflatten(i, t.shape, idx);
          os << " idx (";
          llvm::interleaveComma(idx, os);
          os << ")";
        }
        os << " " << print.getPrefix() << " " << formatElement(t, i) << "\n";
      }
    }
  } else {
    handled = false;
  }
  return success();
}
