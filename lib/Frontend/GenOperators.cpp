//===- GenOperators.cpp - Arithmetic, comparison and boolean operators ----===//
//
// Python's operators on scalars, blocks and pointers: operand types unified
// and broadcast as Triton does, pointer arithmetic, chained comparisons,
// `and`/`or` with short-circuit on scalars, and conditional expressions.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace mlir;
using llvm::dyn_cast;
using llvm::isa;

FailureOr<Val> Generator::pointerArith(BinaryOp op, const Val &ptr,
                                       const Val &offset, llvm::SMLoc at) {
  if (offset.isRuntime() && offset.getType().isPointer)
    return error(at, "cannot combine two pointers with '" +
                         getBinaryOpSpelling(op) + "'");
  bool isIntOffset =
      (offset.isRuntime() && isInteger(offset.getType().element) &&
       !offset.getType().isBlockPointer) ||
      offset.getKind() == Val::Kind::Int || offset.getKind() == Val::Kind::Bool;
  if (!isIntOffset)
    return error(at,
                 "pointer offsets must be integers, got " + offset.describe());
  Val off = offset;
  if (!off.isRuntime()) {
    FailureOr<Val> m = materialize(off, at);
    if (failed(m))
      return failure();
    off = *m;
  }
  if (getBitWidth(off.getType().element) < 32)
    off = cast(off,
               isUnsigned(off.getType().element) ? ScalarType::U32
                                                 : ScalarType::I32,
               at);
  if (op == BinaryOp::Sub) {
    mlir::Value zero =
        constant(off.getType().element, 0, off.getType().shape, at);
    off = Val::runtime(
        arith::SubIOp::create(builder, loc(at), zero, off.getValue()),
        off.getType());
  }
  auto shape = broadcastShapes(ptr.getType().shape, off.getType().shape);
  if (!shape)
    return error(at, "incompatible shapes for pointer arithmetic: " +
                         formatShape(ptr.getType().shape) + " and " +
                         formatShape(off.getType().shape));
  FailureOr<Val> p = broadcastTo(ptr, *shape, at);
  FailureOr<Val> o = broadcastTo(off, *shape, at);
  if (failed(p) || failed(o))
    return failure();
  mlir::Value r = tile::AddPtrOp::create(
      builder, loc(at), p->getValue().getType(), p->getValue(), o->getValue());
  return Val::runtime(r, p->getType());
}

static bool isPointerVal(const Val &v) {
  return v.isRuntime() && v.getType().isPointer;
}

FailureOr<Val> Generator::binary(BinaryOp op, const Val &lhs, const Val &rhs,
                                 llvm::SMLoc at) {
  llvm::StringRef spelling = getBinaryOpSpelling(op);
  if (op == BinaryOp::MatMul) {
    if (!lhs.isRuntime() || !rhs.isRuntime())
      return error(at, "'@' needs two blocks");
    return dot(lhs, rhs, std::nullopt, std::nullopt, tile::InputPrecision::tf32,
               at);
  }
  if (lhs.isConstexpr() && rhs.isConstexpr()) {
    std::string err;
    if (std::optional<Val> v = foldBinary(op, lhs, rhs, err))
      return *v;
    return error(at, err.empty()
                         ? "unsupported operand types for '" + spelling +
                               "': " + lhs.describe() + " and " + rhs.describe()
                         : err);
  }
  if (isPointerVal(lhs) || isPointerVal(rhs)) {
    if (isPointerVal(lhs) && (op == BinaryOp::Add || op == BinaryOp::Sub))
      return pointerArith(op, lhs, rhs, at);
    if (isPointerVal(rhs) && op == BinaryOp::Add)
      return pointerArith(op, rhs, lhs, at);
    return error(at, "operator '" + spelling + "' is not defined for pointers");
  }
  // Integer powers with a small constexpr exponent multiply out.
  if (op == BinaryOp::Pow && rhs.getKind() == Val::Kind::Int &&
      rhs.getInt() >= 0 && rhs.getInt() <= 64 && lhs.isRuntime()) {
    if (rhs.getInt() == 0)
      return Val::runtime(
          constant(lhs.getType().element, 1, lhs.getType().shape, at),
          lhs.getType());
    Val result = lhs;
    for (int64_t i = 1; i < rhs.getInt(); ++i) {
      FailureOr<Val> r = binary(BinaryOp::Mul, result, lhs, at);
      if (failed(r))
        return failure();
      result = *r;
    }
    return result;
  }
  Val a = lhs, b = rhs;
  FailureOr<ScalarType> t = unify(a, b, classify(op), at, spelling);
  if (failed(t))
    return failure();
  if (isFloat8(*t)) {
    // GPUs have no fp8 arithmetic: compute in fp32 (exact for the operands)
    // and round the result once.
    FailureOr<Val> r = binary(op, cast(a, ScalarType::F32, at),
                              cast(b, ScalarType::F32, at), at);
    if (failed(r))
      return failure();
    return cast(*r, *t, at);
  }
  if (op == BinaryOp::Div && !isFloat(*t)) {
    // '/' on integers gives fp32, as in Triton.
    a = cast(a, ScalarType::F32, at);
    b = cast(b, ScalarType::F32, at);
    t = ScalarType::F32;
  }
  if (op == BinaryOp::Pow && !isFloat(*t)) {
    a = cast(a, ScalarType::F32, at);
    b = cast(b, ScalarType::F32, at);
    t = ScalarType::F32;
  }
  mlir::Location l = loc(at);
  mlir::Value x = a.getValue(), y = b.getValue();
  bool fp = isFloat(*t), uns = isUnsigned(*t);
  mlir::Value r;
  switch (op) {
  case BinaryOp::Add:
    r = fp ? (mlir::Value)arith::AddFOp::create(builder, l, x, y)
           : (mlir::Value)arith::AddIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Sub:
    r = fp ? (mlir::Value)arith::SubFOp::create(builder, l, x, y)
           : (mlir::Value)arith::SubIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mul:
    r = fp ? (mlir::Value)arith::MulFOp::create(builder, l, x, y)
           : (mlir::Value)arith::MulIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Div: {
    // As in Triton, fp32 `/` may be the approximate division (div.full.f32,
    // within 2 ulp); tl.math.div_rn is exact.
    auto div = arith::DivFOp::create(builder, l, x, y);
    div.setFastmath(arith::FastMathFlags::afn);
    r = div;
    break;
  }
  case BinaryOp::FloorDiv:
    if (fp)
      r = math::FloorOp::create(builder, l,
                                arith::DivFOp::create(builder, l, x, y));
    else
      r = uns ? (mlir::Value)arith::DivUIOp::create(builder, l, x, y)
              : (mlir::Value)arith::DivSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mod:
    if (fp)
      r = arith::RemFOp::create(builder, l, x, y);
    else
      r = uns ? (mlir::Value)arith::RemUIOp::create(builder, l, x, y)
              : (mlir::Value)arith::RemSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Pow:
    r = math::PowFOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitAnd:
    r = arith::AndIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitOr:
    r = arith::OrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitXor:
    r = arith::XOrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Shl:
    r = arith::ShLIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Shr:
    r = uns ? (mlir::Value)arith::ShRUIOp::create(builder, l, x, y)
            : (mlir::Value)arith::ShRSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::MatMul:
    llvm_unreachable("handled above");
  }
  return Val::runtime(r, a.getType());
}

FailureOr<Val> Generator::compare(CompareOp op, const Val &lhs, const Val &rhs,
                                  llvm::SMLoc at) {
  llvm::StringRef spelling = getCompareOpSpelling(op);
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    if (lhs.isRuntime() || rhs.isRuntime()) {
      // A run-time value is never None (a pointer argument that may be
      // gets a version of the kernel where it is: emitKernel).
      bool otherIsNone = (lhs.isRuntime() ? rhs : lhs).isNone();
      if (!otherIsNone)
        return error(at, "'is' compares only with None");
      noteNoneTest(lhs.isRuntime() ? lhs : rhs);
      return Val::boolean(op == CompareOp::IsNot);
    }
  }
  if (lhs.isConstexpr() && rhs.isConstexpr()) {
    std::string err;
    if (std::optional<Val> v = foldCompare(op, lhs, rhs, err))
      return *v;
    return error(at, err.empty() ? "cannot compare " + lhs.describe() +
                                       " and " + rhs.describe()
                                 : err);
  }
  if (op == CompareOp::In || op == CompareOp::NotIn)
    return error(at, "'" + spelling + "' needs compile-time operands");
  if (isPointerVal(lhs) || isPointerVal(rhs))
    return error(at, "comparing pointers is not supported");
  Val a = lhs, b = rhs;
  FailureOr<ScalarType> t = unify(a, b, OpClass::Compare, at, spelling);
  if (failed(t))
    return failure();
  if (isFloat8(*t))
    return compare(op, cast(a, ScalarType::F32, at),
                   cast(b, ScalarType::F32, at), at);
  mlir::Location l = loc(at);
  mlir::Value r;
  if (isFloat(*t)) {
    arith::CmpFPredicate pred;
    switch (op) {
    case CompareOp::Lt:
      pred = arith::CmpFPredicate::OLT;
      break;
    case CompareOp::Gt:
      pred = arith::CmpFPredicate::OGT;
      break;
    case CompareOp::Le:
      pred = arith::CmpFPredicate::OLE;
      break;
    case CompareOp::Ge:
      pred = arith::CmpFPredicate::OGE;
      break;
    case CompareOp::Eq:
      pred = arith::CmpFPredicate::OEQ;
      break;
    default:
      pred = arith::CmpFPredicate::UNE;
      break;
    }
    r = arith::CmpFOp::create(builder, l, pred, a.getValue(), b.getValue());
  } else {
    bool uns = isUnsigned(*t) || *t == ScalarType::I1;
    arith::CmpIPredicate pred;
    switch (op) {
    case CompareOp::Lt:
      pred = uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
      break;
    case CompareOp::Gt:
      pred = uns ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
      break;
    case CompareOp::Le:
      pred = uns ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
      break;
    case CompareOp::Ge:
      pred = uns ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
      break;
    case CompareOp::Eq:
      pred = arith::CmpIPredicate::eq;
      break;
    default:
      pred = arith::CmpIPredicate::ne;
      break;
    }
    r = arith::CmpIOp::create(builder, l, pred, a.getValue(), b.getValue());
  }
  return Val::runtime(r, a.getType().withElement(ScalarType::I1));
}

FailureOr<Val> Generator::unary(UnaryOp op, const Val &operand,
                                llvm::SMLoc at) {
  Val v = op == UnaryOp::Not ? truthOfPointer(operand) : operand;
  if (v.isConstexpr()) {
    std::string err;
    if (std::optional<Val> r = foldUnary(op, v, err))
      return *r;
    return error(at, err.empty() ? "bad operand type for unary '" +
                                       getUnaryOpSpelling(op).trim() +
                                       "': " + v.describe()
                                 : err);
  }
  if (!v.isRuntime() || v.getType().isPointer || v.getType().isBlockPointer)
    return error(at, "bad operand type for unary '" +
                         getUnaryOpSpelling(op).trim() + "': " + v.describe());
  const TileType &t = v.getType();
  mlir::Location l = loc(at);
  switch (op) {
  case UnaryOp::Pos:
    return v;
  case UnaryOp::Neg:
    if (isFloat8(t.element))
      return cast(*unary(op, cast(v, ScalarType::F32, at), at), t.element, at);
    if (isFloat(t.element))
      return Val::runtime(arith::NegFOp::create(builder, l, v.getValue()), t);
    return binary(BinaryOp::Sub, Val::integer(0), v, at);
  case UnaryOp::Invert: {
    if (isFloat(t.element))
      return error(at, "'~' needs an integer operand, got " + v.describe());
    mlir::Value ones = constant(t.element, -1, t.shape, at);
    if (t.element == ScalarType::I1)
      ones = constant(t.element, 1, t.shape, at);
    return Val::runtime(arith::XOrIOp::create(builder, l, v.getValue(), ones),
                        t);
  }
  case UnaryOp::Not: {
    if (!t.isScalar())
      return error(at, "'not' needs a scalar; use '~' on blocks of "
                       "booleans");
    FailureOr<Val> b = toBool(v, at);
    if (failed(b))
      return failure();
    mlir::Value one = constant(ScalarType::I1, 1, {}, at);
    return Val::runtime(arith::XOrIOp::create(builder, l, b->getValue(), one),
                        b->getType());
  }
  }
  return failure();
}

FailureOr<Val> Generator::genBoolOp(const BoolOpExpr &expr) {
  std::optional<Val> acc;
  for (const ExprPtr &operand : expr.values) {
    FailureOr<Val> v = genExpr(*operand);
    if (failed(v))
      return failure();
    v = truthOfPointer(*v);
    if (v->isConstexpr()) {
      // A constexpr decides the result when it short-circuits.
      if (expr.isAnd != v->truthy()) {
        if (!acc)
          return *v;
        return Val::runtime(
            constant(ScalarType::I1, !expr.isAnd, {}, operand->getLoc()),
            TileType{ScalarType::I1});
      }
      if (!acc && operand == expr.values.back())
        return *v;
      continue;
    }
    if (!v->isRuntime())
      return error(operand->getLoc(),
                   std::string("'") + (expr.isAnd ? "and" : "or") +
                       "' needs numbers or blocks, got " + v->describe());
    if (!v->getType().isScalar() || (acc && !acc->getType().isScalar())) {
      // Blocks: Triton's logical_and / logical_or, elementwise on the
      // operands' truth (x != 0), both sides evaluated.
      auto truth = [&](const Val &x) -> FailureOr<Val> {
        if (x.getType().element == ScalarType::I1)
          return x;
        return compare(CompareOp::Ne, x, Val::integer(0), operand->getLoc());
      };
      FailureOr<Val> b = truth(*v);
      if (failed(b))
        return failure();
      if (!acc) {
        acc = *b;
        continue;
      }
      FailureOr<Val> a = truth(*acc);
      if (failed(a))
        return failure();
      FailureOr<Val> r = binary(expr.isAnd ? BinaryOp::BitAnd : BinaryOp::BitOr,
                                *a, *b, operand->getLoc());
      if (failed(r))
        return failure();
      acc = *r;
      continue;
    }
    FailureOr<Val> b = toBool(*v, operand->getLoc());
    if (failed(b))
      return failure();
    if (!acc) {
      acc = *b;
      continue;
    }
    mlir::Location l = loc(operand->getLoc());
    mlir::Value r = expr.isAnd
                        ? (mlir::Value)arith::AndIOp::create(
                              builder, l, acc->getValue(), b->getValue())
                        : (mlir::Value)arith::OrIOp::create(
                              builder, l, acc->getValue(), b->getValue());
    acc = Val::runtime(r, b->getType());
  }
  if (!acc)
    return Val::boolean(expr.isAnd);
  return *acc;
}

FailureOr<Val> Generator::genCompareExpr(const CompareExpr &expr) {
  FailureOr<Val> lhs = genExpr(*expr.first);
  if (failed(lhs))
    return failure();
  std::optional<Val> result;
  for (auto &[op, rhsExpr] : expr.rest) {
    FailureOr<Val> rhs = genExpr(*rhsExpr);
    if (failed(rhs))
      return failure();
    FailureOr<Val> c = compare(op, *lhs, *rhs, expr.getLoc());
    if (failed(c))
      return failure();
    if (!result) {
      result = *c;
    } else {
      FailureOr<Val> r = binary(BinaryOp::BitAnd, *result, *c, expr.getLoc());
      if (failed(r))
        return failure();
      result = *r;
    }
    lhs = rhs;
  }
  return *result;
}

FailureOr<Val> Generator::genIfExp(const IfExpExpr &expr) {
  FailureOr<Val> cond = genExpr(*expr.cond);
  if (failed(cond))
    return failure();
  cond = truthOfPointer(*cond);
  if (cond->isConstexpr())
    return genExpr(cond->truthy() ? *expr.thenExpr : *expr.elseExpr);
  if (!cond->isRuntime() || !cond->getType().isScalar())
    return error(expr.cond->getLoc(),
                 "the condition of 'a if c else b' must be a scalar; "
                 "use where() for blocks");
  FailureOr<Val> flag = toBool(*cond, expr.cond->getLoc());
  if (failed(flag))
    return failure();
  mlir::Location l = loc(expr.getLoc());
  auto ifOp = scf::IfOp::create(builder, l, TypeRange{}, flag->getValue(),
                                /*withElseRegion=*/true);
  Val branch[2];
  mlir::Block *blocks[2] = {&ifOp.getThenRegion().front(),
                            &ifOp.getElseRegion().front()};
  const Expr *exprs[2] = {expr.thenExpr.get(), expr.elseExpr.get()};
  OpBuilder::InsertPoint after = builder.saveInsertionPoint();
  for (int i = 0; i < 2; ++i) {
    if (!blocks[i]->empty())
      blocks[i]->back().erase();
    builder.setInsertionPointToEnd(blocks[i]);
    FailureOr<Val> v = genExpr(*exprs[i]);
    if (failed(v))
      return failure();
    branch[i] = *v;
  }
  // Both branches yield one type.
  TileType type;
  if (branch[0].isRuntime() && branch[1].isRuntime()) {
    if (branch[0].getType() != branch[1].getType())
      return error(expr.getLoc(),
                   "the branches of 'a if c else b' have types " +
                       branch[0].getType().str() + " and " +
                       branch[1].getType().str());
    type = branch[0].getType();
  } else if (branch[0].isRuntime() || branch[1].isRuntime()) {
    type = (branch[0].isRuntime() ? branch[0] : branch[1]).getType();
  } else if (branch[0].isNumber() && branch[1].isNumber()) {
    std::string err;
    type.element =
        *promoteTypes(literalType(branch[0]), false, literalType(branch[1]),
                      false, OpClass::Arith, err);
  } else {
    return error(expr.getLoc(), "'a if c else b' with a run-time "
                                "condition needs numbers or blocks");
  }
  SmallVector<mlir::Value> yielded;
  for (int i = 0; i < 2; ++i) {
    builder.setInsertionPointToEnd(blocks[i]);
    FailureOr<Val> m = materialize(branch[i], exprs[i]->getLoc(), type.element);
    if (failed(m))
      return failure();
    FailureOr<Val> shaped = broadcastTo(*m, type.shape, exprs[i]->getLoc());
    if (failed(shaped))
      return failure();
    scf::YieldOp::create(builder, l, shaped->getValue());
    yielded.push_back(shaped->getValue());
  }
  builder.restoreInsertionPoint(after);
  auto newIf = scf::IfOp::create(builder, l, TypeRange{mlirType(type)},
                                 flag->getValue(), /*withElseRegion=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  return Val::runtime(newIf.getResult(0), type);
}
