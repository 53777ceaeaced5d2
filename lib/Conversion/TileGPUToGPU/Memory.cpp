//===- Memory.cpp - addptr, loads, stores and atomics ---------------------===//
//
// Global memory is accessed with predicated PTX (as inline assembly) so a
// masked-off element touches no memory: a load first moves `other` into its
// destination and the predicated ld leaves it there when the mask is false.
// Stores and atomics run only in the thread that owns an element, never in
// threads holding copies of it.
//
//===----------------------------------------------------------------------===//

#include "AffineOffsets.h"
#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"
#include "tile/Support/Occupancy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// How an element type travels through a PTX register.
struct RegisterClass {
  unsigned memoryBits; // bits in memory (i1 is stored as a byte)
  Type regType;        // i16, i32 or i64
  char constraint;     // 'h', 'r' or 'l'
};

static RegisterClass registerClassOf(OpBuilder &b, Type elem) {
  unsigned bits = elem.isInteger(1) ? 8 : elem.getIntOrFloatBitWidth();
  if (bits <= 16)
    return {bits, b.getI16Type(), 'h'};
  if (bits == 32)
    return {bits, b.getI32Type(), 'r'};
  return {bits, b.getI64Type(), 'l'};
}

/// The PTX type suffix of a load or store of `bits` bits.
static std::string memoryType(unsigned bits) {
  return bits == 8 ? "u8" : "b" + std::to_string(bits);
}

/// A value of element type `elem` moved into its register class.
static Value toRegister(OpBuilder &b, Location loc, Value v,
                        const RegisterClass &rc) {
  Type t = v.getType();
  if (isa<FloatType>(t))
    v = arith::BitcastOp::create(b, loc,
                                 b.getIntegerType(t.getIntOrFloatBitWidth()), v);
  if (v.getType() != rc.regType)
    v = arith::ExtUIOp::create(b, loc, rc.regType, v);
  return v;
}

/// A register value back to element type `elem`.
static Value fromRegister(OpBuilder &b, Location loc, Value v, Type elem,
                          const RegisterClass &rc) {
  if (elem.isInteger(1)) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(rc.regType, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits < rc.regType.getIntOrFloatBitWidth())
    v = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), v);
  if (isa<FloatType>(elem))
    v = arith::BitcastOp::create(b, loc, elem, v);
  return v;
}

static std::string cacheSuffix(CacheModifier cache, EvictionPolicy evict,
                               bool isLoad) {
  switch (cache) {
  case CacheModifier::ca:
  case CacheModifier::cv:
    return isLoad ? "." + stringifyCacheModifier(cache).str() : "";
  case CacheModifier::wb:
  case CacheModifier::wt:
    return isLoad ? "" : "." + stringifyCacheModifier(cache).str();
  case CacheModifier::cg:
  case CacheModifier::cs:
    return "." + stringifyCacheModifier(cache).str();
  case CacheModifier::none:
    break;
  }
  if (evict == EvictionPolicy::evict_first)
    return ".L1::evict_first";
  if (evict == EvictionPolicy::evict_last)
    return ".L1::evict_last";
  return "";
}

static Value inlineAsm(OpBuilder &b, Location loc, Type result,
                       ValueRange operands, StringRef text,
                       StringRef constraints, bool hasSideEffects = true,
                       ArrayAttr access = {}) {
  auto op = createInlineAsm(b, loc, result, operands, text, constraints,
                            hasSideEffects);
  if (access)
    op->setAttr(tilegpu::kElementAccessAttrName, access);
  return result ? op.getResult(0) : Value();
}

/// The `tilegpu.element_access` of the access to registers [first, first +
/// count) of a tile of pointers `ptrType`; none for a scalar access.
static ArrayAttr elementAccess(OpBuilder &b, Type ptrType, size_t first,
                               size_t count) {
  auto tile = dyn_cast<RankedTensorType>(ptrType);
  if (!tile)
    return {};
  auto key = RankedTensorType::get(tile.getShape(), b.getI1Type(),
                                   tile.getEncoding());
  return b.getArrayAttr({TypeAttr::get(key), b.getI64IntegerAttr(first),
                         b.getI64IntegerAttr(count)});
}

static std::string addressOperand(unsigned operand, int64_t offset) {
  return "[ $" + std::to_string(operand) + " + " + std::to_string(offset) +
         " ]";
}

static Value emitGlobalLoad(OpBuilder &b, Location loc, Type elem, Value addr,
                            int64_t offset, Value pred, Value other,
                            LoadOp op, ArrayAttr access) {
  RegisterClass rc = registerClassOf(b, elem);
  std::string ld = op.getIsVolatile()
                       ? "ld.volatile.global"
                       : "ld.global" + cacheSuffix(op.getCache(), op.getEvict(),
                                                   /*isLoad=*/true);
  std::string text =
      ld + "." + memoryType(rc.memoryBits) + " $0, " + addressOperand(1, offset) + ";";
  std::string c(1, rc.constraint);
  if (!pred) {
    Value r = inlineAsm(b, loc, rc.regType, {addr}, text, "=" + c + ",l",
                        /*hasSideEffects=*/true, access);
    return fromRegister(b, loc, r, elem, rc);
  }
  Value init = toRegister(b, loc, other, rc);
  std::string predicated = "mov.b" +
                           std::to_string(rc.regType.getIntOrFloatBitWidth()) +
                           " $0, $3;\n\t@$2 " + text;
  Value r = inlineAsm(b, loc, rc.regType, {addr, pred, init}, predicated,
                      "=" + c + ",l,b," + c, /*hasSideEffects=*/true, access);
  return fromRegister(b, loc, r, elem, rc);
}

static void emitGlobalStore(OpBuilder &b, Location loc, Value addr,
                            int64_t offset, Value value, Value pred,
                            CacheModifier cache, EvictionPolicy evict,
                            ArrayAttr access) {
  RegisterClass rc = registerClassOf(b, value.getType());
  Value v = toRegister(b, loc, value, rc);
  std::string text = "st.global" + cacheSuffix(cache, evict, false) + "." +
                     memoryType(rc.memoryBits) + " " + addressOperand(0, offset) +
                     ", $1;";
  std::string c(1, rc.constraint);
  if (pred)
    inlineAsm(b, loc, Type(), {addr, v, pred}, "@$2 " + text, "l," + c + ",b",
              /*hasSideEffects=*/true, access);
  else
    inlineAsm(b, loc, Type(), {addr, v}, text, "l," + c,
              /*hasSideEffects=*/true, access);
}

/// How `vec` elements of `elem` (at least 32 bits together) move as
/// 32- or 64-bit words.
struct VectorAccess {
  unsigned words;
  Type wordType;
  char constraint;
  std::string suffix; // ".v4.b32", ".b64", ...
};

static VectorAccess vectorAccessFor(OpBuilder &b, Type elem, unsigned vec) {
  unsigned bits = elem.getIntOrFloatBitWidth() * vec;
  VectorAccess a;
  if (bits == 64 && elem.getIntOrFloatBitWidth() == 64) {
    a = {1, b.getI64Type(), 'l', ".b64"};
  } else if (bits % 64 == 0 && elem.getIntOrFloatBitWidth() == 64) {
    a = {bits / 64, b.getI64Type(), 'l', ".v" + std::to_string(bits / 64) + ".b64"};
  } else {
    unsigned words = bits / 32;
    a = {words, b.getI32Type(), 'r',
         words == 1 ? ".b32" : ".v" + std::to_string(words) + ".b32"};
  }
  return a;
}

/// `vec` elements packed into words (through an LLVM vector bitcast).
static SmallVector<Value> packWords(OpBuilder &b, Location loc,
                                    ArrayRef<Value> elems,
                                    const VectorAccess &a) {
  Type elem = elems[0].getType();
  Value v = LLVM::UndefOp::create(
      b, loc, VectorType::get({(int64_t)elems.size()}, elem));
  for (auto [i, e] : llvm::enumerate(elems))
    v = LLVM::InsertElementOp::create(b, loc, v, e, i32Constant(b, loc, i));
  Value words = LLVM::BitcastOp::create(
      b, loc, VectorType::get({(int64_t)a.words}, a.wordType), v);
  SmallVector<Value> out;
  for (unsigned i = 0; i < a.words; ++i)
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, words, i32Constant(b, loc, i)));
  return out;
}

/// Words unpacked into `vec` elements of `elem`.
static SmallVector<Value> unpackWords(OpBuilder &b, Location loc,
                                      ArrayRef<Value> words, Type elem,
                                      unsigned vec) {
  Value w = LLVM::UndefOp::create(
      b, loc, VectorType::get({(int64_t)words.size()}, words[0].getType()));
  for (auto [i, x] : llvm::enumerate(words))
    w = LLVM::InsertElementOp::create(b, loc, w, x, i32Constant(b, loc, i));
  Value v = LLVM::BitcastOp::create(b, loc, VectorType::get({vec}, elem), w);
  SmallVector<Value> out;
  for (unsigned i = 0; i < vec; ++i)
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, i)));
  return out;
}

/// A vector load of `vec` contiguous elements at `addr` (one predicate for
/// all): masked-off, it reads nothing and yields `others`.
static SmallVector<Value> emitVectorLoad(OpBuilder &b, Location loc, Type elem,
                                         unsigned vec, Value addr,
                                         int64_t offset, Value pred,
                                         ArrayRef<Value> others, LoadOp op,
                                         ArrayAttr access) {
  VectorAccess a = vectorAccessFor(b, elem, vec);
  std::string ld = op.getIsVolatile()
                       ? "ld.volatile.global"
                       : "ld.global" + cacheSuffix(op.getCache(), op.getEvict(),
                                                   /*isLoad=*/true);
  std::string outs, constraints;
  for (unsigned i = 0; i < a.words; ++i) {
    outs += (i ? ", $" : "$") + std::to_string(i);
    constraints += (i ? ",=" : "=") + std::string(1, a.constraint);
  }
  std::string dst = a.words == 1 ? outs : "{" + outs + "}";
  std::string instruction =
      ld + a.suffix + " " + dst + ", " + addressOperand(a.words, offset) + ";";
  SmallVector<Value> operands{addr};
  constraints += ",l";
  std::string text;
  if (pred) {
    SmallVector<Value> init = packWords(b, loc, others, a);
    operands.push_back(pred);
    constraints += ",b";
    for (unsigned i = 0; i < a.words; ++i) {
      text += "mov.b" + std::to_string(a.wordType.getIntOrFloatBitWidth()) +
              " $" + std::to_string(i) + ", $" +
              std::to_string(a.words + 2 + i) + ";\n\t";
      operands.push_back(init[i]);
      constraints += "," + std::string(1, a.constraint);
    }
    text += "@$" + std::to_string(a.words + 1) + " " + instruction;
  } else {
    text = instruction;
  }
  Type result = a.words == 1
                    ? a.wordType
                    : (Type)LLVM::LLVMStructType::getLiteral(
                          b.getContext(), SmallVector<Type>(a.words, a.wordType));
  Value r = inlineAsm(b, loc, result, operands, text, constraints,
                      /*hasSideEffects=*/true, access);
  SmallVector<Value> words;
  if (a.words == 1)
    words.push_back(r);
  else
    for (unsigned i = 0; i < a.words; ++i)
      words.push_back(LLVM::ExtractValueOp::create(b, loc, r,
                                                   ArrayRef<int64_t>{i}));
  return unpackWords(b, loc, words, elem, vec);
}

static void emitVectorStore(OpBuilder &b, Location loc, Value addr,
                            int64_t offset, ArrayRef<Value> values, Value pred,
                            CacheModifier cache, EvictionPolicy evict,
                            ArrayAttr access) {
  VectorAccess a = vectorAccessFor(b, values[0].getType(), values.size());
  SmallVector<Value> words = packWords(b, loc, values, a);
  std::string list, constraints = "l";
  for (unsigned i = 0; i < a.words; ++i) {
    list += (i ? ", $" : "$") + std::to_string(i + 1);
    constraints += "," + std::string(1, a.constraint);
  }
  std::string src = a.words == 1 ? list : "{" + list + "}";
  std::string text = "st.global" + cacheSuffix(cache, evict, false) + a.suffix +
                     " " + addressOperand(0, offset) + ", " + src + ";";
  SmallVector<Value> operands{addr};
  operands.append(words);
  if (pred) {
    text = "@$" + std::to_string(a.words + 1) + " " + text;
    operands.push_back(pred);
    constraints += ",b";
  }
  inlineAsm(b, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true, access);
}

/// Elements per access of a load or store (its `tilegpu.vec`, when the
/// elements are wide enough to fill 32-bit words).
static unsigned vectorWidth(Operation *op, Type elem) {
  auto attr = op->getAttrOfType<IntegerAttr>("tilegpu.vec");
  if (!attr || elem.isInteger(1))
    return 1;
  unsigned vec = attr.getInt();
  unsigned bits = elem.getIntOrFloatBitWidth() * vec;
  return bits >= 32 && bits % 32 == 0 && bits <= 128 ? vec : 1;
}

/// Where each register's element of a load or store is addressed: the
/// address of the first register of its run of consecutive addresses
/// (`tilegpu.contig`, from the axis analysis) and a byte offset from it, so
/// that a run needs one address register however its accesses are split;
/// in a contiguous row (`tilegpu.contiguous_row`) the first register's
/// address serves all.
struct RegisterAddress {
  Value base;
  int64_t offset;
};
class RegisterAddresses {
public:
  RegisterAddresses(Operation *op, Value ptr, ValueRange ptrs, Type elem)
      : ptrs(ptrs), bytes(std::max(1u, elem.getIntOrFloatBitWidth() / 8)) {
    if (op->hasAttr(tilegpu::kContiguousRowAttrName))
      row = tilegpu::getLinearLayout(cast<RankedTensorType>(ptr.getType()));
    if (auto attr = op->getAttrOfType<IntegerAttr>("tilegpu.contig"))
      run = attr.getInt();
  }

  RegisterAddress operator()(size_t i) const {
    // Blocked: a thread's register and thread bits are disjoint, so an
    // element's distance from register 0's is its register part.
    if (row)
      return {ptrs[0], row->regCoord(i)[0] * bytes};
    size_t first = i - i % run;
    return {ptrs[first], int64_t(i - first) * bytes};
  }

private:
  ValueRange ptrs;
  int64_t bytes;
  std::optional<tilegpu::LinearLayout> row;
  unsigned run = 1;
};

static Value andPredicates(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AndIOp::create(b, loc, a, c);
}

/// The owner predicate for a value of `type`: for tensors, the thread that
/// owns each element; for scalars, thread 0.
static Value ownerOf(OpBuilder &b, Location loc, Type type) {
  if (isa<RankedTensorType>(type))
    return emitOwnerPredicate(b, loc, layoutOf(type));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               getThreadId(b, loc), i32Constant(b, loc, 0));
}

static Type pointeeOf(Type ptrLike) {
  return cast<PointerType>(getElementTypeOrSelf(ptrLike)).getPointeeType();
}

/// Pointers already are their i64 addresses: ptr_to_int and int_to_ptr
/// keep the values as they are.
template <typename CastOp>
struct AddressCastLowering : public OpConversionPattern<CastOp> {
  using OpConversionPattern<CastOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, typename CastOp::template GenericAdaptor<
                                 ArrayRef<ValueRange>> adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {adaptor.getOperands()[0]});
    return success();
  }
};

struct AddPtrLowering : public OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  /// A tile's addresses from one offset register a thread: where the
  /// offsets are coordinates times constants or scalars (`rows * stride +
  /// cols`), register i's address is the first one's plus its distance in
  /// the layout times those coefficients, which ptxas folds into the
  /// access (an immediate, or one IMAD.WIDE of the scalar) instead of
  /// keeping each register's offset live (through a loop). The sums are
  /// 64-bit: they differ from the 32-bit offsets only where those wrap.
  static std::optional<SmallVector<Value>>
  addressesFromFirst(AddPtrOp op, OneToNOpAdaptor adaptor, unsigned bytes,
                     ConversionPatternRewriter &rewriter,
                     llvm::function_ref<Value(Value, Value)> address) {
    auto type = dyn_cast<RankedTensorType>(op.getOffset().getType());
    if (!type || adaptor.getOffset().size() < 2)
      return std::nullopt;
    tilegpu::LinearLayout layout = layoutOf(type);
    std::optional<SmallVector<OffsetTerm>> terms =
        getOffsetTerms(op.getOffset());
    if (!terms || !registersAddToThreads(layout) ||
        layout.getNumRegs() != adaptor.getOffset().size())
      return std::nullopt;
    Location loc = op.getLoc();
    Value first = address(adaptor.getOffset()[0], adaptor.getPtr()[0]);
    llvm::MapVector<Value, Value> coefficients; // as i64
    SmallVector<Value> addresses;
    for (unsigned reg = 0; reg < layout.getNumRegs(); ++reg) {
      tilegpu::LinearLayout::Coord at = layout.regCoord(reg);
      int64_t constantPart = 0;
      llvm::MapVector<Value, int64_t> scalarParts;
      for (const OffsetTerm &term : *terms) {
        // Register 0 is at the thread's own coordinates.
        int64_t distance = at[term.dim] * term.scale;
        if (!term.coefficient)
          constantPart += distance;
        else if (distance)
          scalarParts[term.coefficient] += distance;
      }
      Value address = first;
      for (auto [coefficient, multiple] : scalarParts) {
        if (!multiple)
          continue;
        Value &wide = coefficients[coefficient];
        if (!wide)
          wide = arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(),
                                        rewriter.getRemappedValue(coefficient));
        Value step = arith::MulIOp::create(
            rewriter, loc, wide, i64Constant(rewriter, loc, multiple * bytes));
        address = arith::AddIOp::create(rewriter, loc, address, step);
      }
      if (constantPart)
        address = arith::AddIOp::create(
            rewriter, loc, address,
            i64Constant(rewriter, loc, constantPart * bytes));
      addresses.push_back(address);
    }
    return addresses;
  }

  LogicalResult
  matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = pointeeOf(op.getType());
    unsigned bytes = std::max(1u, pointee.getIntOrFloatBitWidth() / 8);
    // One base moving in a loop and 32-bit offsets fixed in it (a loop's
    // pointer block after tile-loop-pointer-offsets): each address is one
    // mad.wide of its offset onto the base. As inline assembly LLVM cannot
    // split off the widened offset, which is loop-invariant, and keep it
    // in two registers across the loop.
    auto loop = op->getParentOfType<scf::ForOp>();
    // An offset the loop carries (`cols += BLOCK`) is a block argument whose
    // block the conversion may already have moved out of any region.
    auto carried = dyn_cast<BlockArgument>(op.getOffset());
    bool invariant = loop && (!carried || carried.getOwner()->getParent()) &&
                     loop.isDefinedOutsideOfLoop(op.getOffset());
    bool splatBase = op.getPtr().getDefiningOp<SplatOp>() != nullptr;
    bool offsets32 =
        getElementTypeOrSelf(op.getOffset().getType()).isInteger(32);
    std::string madWideText =
        "mad.wide.s32 $0, $1, " + std::to_string(bytes) + ", $2;";
    auto address = [&](Value off, Value ptr) -> Value {
      if (invariant && splatBase && offsets32)
        return inlineAsm(rewriter, loc, rewriter.getI64Type(), {off, ptr},
                         madWideText, "=l,r,l", /*hasSideEffects=*/false);
      if (!off.getType().isInteger(64))
        off = arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), off);
      if (bytes != 1)
        off = arith::MulIOp::create(rewriter, loc, off,
                                    i64Constant(rewriter, loc, bytes));
      return arith::AddIOp::create(rewriter, loc, ptr, off);
    };
    SmallVector<Value> results;
    // Only in kernels with a loop at the register ceiling, in that loop and
    // outside loops: not in loops that hold the base and offsets afresh in
    // each iteration (a persistent kernel's tiles: ptxas spilled there), nor
    // in kernels with registers to spare, where the per-register offsets
    // measured faster (attention at head dim 128 on 8 warps, 0.93-0.96x:
    // bench/NOTES.md).
    if (splatBase && offsets32 &&
        (loop ? invariant && atRegisterCeiling(loop)
              : op->getParentOfType<FunctionOpInterface>()->hasAttr(
                    tilegpu::kRegisterCeilingAttrName)))
      if (auto fromFirst =
              addressesFromFirst(op, adaptor, bytes, rewriter, address))
        results = std::move(*fromFirst);
    if (results.empty())
      for (auto [ptr, off] : llvm::zip(adaptor.getPtr(), adaptor.getOffset()))
        results.push_back(address(off, ptr));
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

struct LoadLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = adaptor.getMask();
    ValueRange others = adaptor.getOther();
    Value zero;
    if (!masks.empty() && others.empty())
      zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elem));
    SmallVector<Value> results;
    unsigned vec = vectorWidth(op, elem);
    RegisterAddresses addressOf(op, op.getPtr(), ptrs, elem);
    for (size_t i = 0; i < ptrs.size(); i += vec) {
      Value pred = masks.empty() ? Value() : masks[i];
      RegisterAddress at = addressOf(i);
      // A volatile load keeps its place among the other accesses.
      ArrayAttr access =
          op.getIsVolatile()
              ? ArrayAttr()
              : elementAccess(rewriter, op.getPtr().getType(), i, vec);
      if (vec == 1) {
        Value other = others.empty() ? zero : others[i];
        results.push_back(emitGlobalLoad(rewriter, loc, elem, at.base,
                                         at.offset, pred, other, op, access));
        continue;
      }
      SmallVector<Value> chunkOthers;
      for (unsigned j = 0; j < vec; ++j)
        chunkOthers.push_back(others.empty() ? zero : others[i + j]);
      llvm::append_range(results,
                         emitVectorLoad(rewriter, loc, elem, vec, at.base,
                                        at.offset, pred, chunkOthers, op,
                                        access));
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

struct StoreLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value owner = ownerOf(rewriter, loc, op.getPtr().getType());
    ValueRange ptrs = adaptor.getPtr(), values = adaptor.getValue();
    ValueRange masks = adaptor.getMask();
    Type elem = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    unsigned vec = vectorWidth(op, elem);
    RegisterAddresses addressOf(op, op.getPtr(), ptrs, elem);
    for (size_t i = 0; i < ptrs.size(); i += vec) {
      Value pred = andPredicates(rewriter, loc, owner,
                                 masks.empty() ? Value() : masks[i]);
      RegisterAddress at = addressOf(i);
      ArrayAttr access = elementAccess(rewriter, op.getPtr().getType(), i, vec);
      if (vec == 1) {
        emitGlobalStore(rewriter, loc, at.base, at.offset, values[i], pred,
                        op.getCache(), op.getEvict(), access);
        continue;
      }
      SmallVector<Value> chunk(values.begin() + i, values.begin() + i + vec);
      emitVectorStore(rewriter, loc, at.base, at.offset, chunk, pred,
                      op.getCache(), op.getEvict(), access);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

static std::string atomicSuffix(AtomicKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = std::to_string(bits);
  bool fp = isa<FloatType>(elem);
  switch (kind) {
  case AtomicKind::add:
    if (elem.isF16())
      return "add.noftz.f16";
    if (elem.isBF16())
      return "add.noftz.bf16";
    return "add." + std::string(fp ? "f" : "u") + b;
  case AtomicKind::max:
    return "max.s" + b;
  case AtomicKind::min:
    return "min.s" + b;
  case AtomicKind::umax:
    return "max.u" + b;
  case AtomicKind::umin:
    return "min.u" + b;
  case AtomicKind::xchg:
    return "exch.b" + b;
  case AtomicKind::band:
    return "and.b" + b;
  case AtomicKind::bor:
    return "or.b" + b;
  case AtomicKind::bxor:
    return "xor.b" + b;
  case AtomicKind::cas:
    return "cas.b" + b;
  }
  return "";
}

/// Float atomic max and min, which PTX has only for 16-bit types: as
/// Triton does, through the bits as integers. A non-negative value's bits
/// order as signed integers do, a negative one's in reverse as unsigned
/// ones, so max is a signed max of the bits where the value is >= 0 and an
/// unsigned min where it is < 0 (min the other way round); a NaN value
/// changes nothing. $0 old value, $1 address, $2 value, $3 predicate.
static std::string floatMinMaxAtomic(AtomicKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = std::to_string(bits), f = "f" + b;
  std::string zero = bits == 32 ? "0f00000000" : "0d0000000000000000";
  bool max = kind == AtomicKind::max;
  std::string nonNegative = max ? "max.s" : "min.s";
  std::string negative = max ? "min.u" : "max.u";
  return "{\n\t.reg .pred %fmm_p<2>;\n\t.reg .b" + b + " %fmm_r<2>;\n\t" +
         "mov.b" + b + " %fmm_r1, 0;\n\tmov.b" + b + " %fmm_r0, $2;\n\t" +
         "setp.ge.and." + f + " %fmm_p0, $2, " + zero + ", $3;\n\t" +
         "setp.lt.and." + f + " %fmm_p1, $2, " + zero + ", $3;\n\t" +
         "@%fmm_p0 atom.acq_rel.gpu.global." + nonNegative + b +
         " %fmm_r1, [ $1 + 0 ], %fmm_r0;\n\t" +
         "@%fmm_p1 atom.acq_rel.gpu.global." + negative + b +
         " %fmm_r1, [ $1 + 0 ], %fmm_r0;\n\tmov.b" + b + " $0, %fmm_r1;\n\t}";
}

struct AtomicRMWLowering : public OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getElementTypeOrSelf(op.getType());
    RegisterClass rc = registerClassOf(rewriter, elem);
    std::string c(1, rc.constraint);
    // cas compares with $4 and stores $2 where equal.
    bool cas = op.getKind() == AtomicKind::cas;
    bool floatMinMax =
        isa<FloatType>(elem) &&
        (op.getKind() == AtomicKind::max || op.getKind() == AtomicKind::min);
    std::string text =
        floatMinMax
            ? floatMinMaxAtomic(op.getKind(), elem)
            : "mov.b" + std::to_string(rc.regType.getIntOrFloatBitWidth()) +
                  " $0, 0;\n\t@$3 atom.acq_rel.gpu.global." +
                  atomicSuffix(op.getKind(), elem) + " $0, [ $1 + 0 ], " +
                  (cas ? "$4, $2;" : "$2;");
    Type resultType = op.getType();
    Value owner = ownerOf(rewriter, loc, resultType);
    ValueRange ptrs = adaptor.getPtr(), vals = adaptor.getVal();
    ValueRange masks = adaptor.getMask();
    Value alwaysOn = arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getBoolAttr(true));
    // sm_90's vector fp32 adds (PTX 8.1): one instruction per aligned run
    // of 2 or 4 elements (the conversion pass marks them only where the old
    // values go unused).
    if (unsigned vec = vectorWidth(op, elem); vec > 1) {
      std::string outs, ins;
      for (unsigned j = 0; j < vec; ++j) {
        outs += (j ? ", $" : "$") + std::to_string(j);
        ins += (j ? ", $" : "$") + std::to_string(vec + 1 + j);
      }
      std::string vecText = "@$" + std::to_string(2 * vec + 1) +
                            " atom.acq_rel.gpu.global.add.v" +
                            std::to_string(vec) + ".f32 {" + outs + "}, [ $" +
                            std::to_string(vec) + " + 0 ], {" + ins + "};";
      std::string constraints;
      for (unsigned j = 0; j < vec; ++j)
        constraints += "=f,";
      constraints += "l";
      for (unsigned j = 0; j < vec; ++j)
        constraints += ",f";
      constraints += ",b";
      auto results = LLVM::LLVMStructType::getLiteral(
          rewriter.getContext(), SmallVector<Type>(vec, rewriter.getF32Type()));
      for (size_t i = 0; i < ptrs.size(); i += vec) {
        Value pred = andPredicates(rewriter, loc, owner,
                                   masks.empty() ? Value() : masks[i]);
        SmallVector<Value> operands{ptrs[i]};
        operands.append(vals.begin() + i, vals.begin() + i + vec);
        operands.push_back(pred ? pred : alwaysOn);
        inlineAsm(rewriter, loc, results, operands, vecText, constraints);
      }
      Value unused = LLVM::PoisonOp::create(rewriter, loc, elem);
      rewriter.replaceOpWithMultiple(op,
                                     {SmallVector<Value>(ptrs.size(), unused)});
      return success();
    }
    SmallVector<Value> old;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      Value pred = andPredicates(rewriter, loc, owner,
                                 masks.empty() ? Value() : masks[i]);
      if (!pred)
        pred = alwaysOn;
      Value v = toRegister(rewriter, loc, vals[i], rc);
      SmallVector<Value> operands{ptrs[i], v, pred};
      std::string constraints = "=" + c + ",l," + c + ",b";
      if (cas) {
        operands.push_back(toRegister(rewriter, loc, adaptor.getCmp()[i], rc));
        constraints += "," + c;
      }
      Value r = inlineAsm(rewriter, loc, rc.regType, operands, text,
                          constraints);
      old.push_back(fromRegister(rewriter, loc, r, elem, rc));
    }
    // Threads holding copies get the old values from their owner.
    if (!op.getResult().use_empty() && owner) {
      SmallVector<Value> shared;
      barrier(rewriter, loc);
      auto tensor = dyn_cast<RankedTensorType>(resultType);
      SmallVector<SmallVector<Value>> coords;
      if (tensor)
        coords = emitCoordinates(rewriter, loc, layoutOf(tensor));
      for (size_t i = 0; i < old.size(); ++i) {
        Value offset = tensor ? linearOffset(rewriter, loc, coords[i],
                                             tensor.getShape())
                              : i32Constant(rewriter, loc, 0);
        Value addr = scratchAddress(rewriter, loc, offset, elem,
                                    tilegpu::getScratchOffset(op));
        auto ifOp = scf::IfOp::create(rewriter, loc, owner);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        storeScratch(rewriter, loc, addr, old[i]);
      }
      barrier(rewriter, loc);
      for (size_t i = 0; i < old.size(); ++i) {
        Value offset = tensor ? linearOffset(rewriter, loc, coords[i],
                                             tensor.getShape())
                              : i32Constant(rewriter, loc, 0);
        shared.push_back(loadScratch(
            rewriter, loc,
            scratchAddress(rewriter, loc, offset, elem,
                           tilegpu::getScratchOffset(op)),
            elem));
      }
      old = shared;
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{old});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateMemoryPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AddPtrLowering, AddressCastLowering<tile::PtrToIntOp>,
               AddressCastLowering<tile::IntToPtrOp>, LoadLowering,
               StoreLowering, AtomicRMWLowering>(
      converter, ctx);
}
