//===- GridFormat.cpp - @grid expressions as launch-time formulas --------===//
//
// Renders a kernel's @grid expression, with its constexprs folded, as the
// formula the metadata carries and launchers evaluate (cdiv, min, max and
// the integer operators over the kernel's scalar arguments).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Sema.h"
#include "tile/Frontend/Specialize.h"

using namespace tilec;
using llvm::dyn_cast;

namespace {
/// A partially evaluated grid expression: a constant or a rendered string
/// with the precedence of its outermost operator.
struct GridTerm {
  std::optional<Val> constant;
  std::string text;
  int precedence = 100; // atoms bind tightest
};

class GridPrinter {
public:
  GridPrinter(const FunctionDef &kernel, const KernelInstance &instance,
              DiagnosticEngine &diags)
      : kernel(kernel), instance(instance), diags(diags) {}

  std::optional<GridTerm> print(const Expr &e);

private:
  std::optional<GridTerm> fail(const Expr &e, const llvm::Twine &msg) {
    diags.error(e.getLoc(), msg);
    return std::nullopt;
  }
  static std::string render(const GridTerm &t, int minPrecedence) {
    std::string s = t.constant ? t.constant->repr() : t.text;
    if (!t.constant && t.precedence < minPrecedence)
      return "(" + s + ")";
    if (t.constant && t.constant->getInt() < 0 && minPrecedence > 10)
      return "(" + s + ")";
    return s;
  }

  const FunctionDef &kernel;
  const KernelInstance &instance;
  DiagnosticEngine &diags;
};
} // namespace

static int precedenceOf(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 10;
  default:
    return 20;
  }
}

std::optional<GridTerm> GridPrinter::print(const Expr &e) {
  if (auto *i = dyn_cast<IntExpr>(&e)) {
    if (i->value > static_cast<uint64_t>(INT64_MAX))
      return fail(e, "integer literal does not fit in 64 bits");
    return GridTerm{Val::integer(i->value), "", 100};
  }
  if (auto *n = dyn_cast<NameExpr>(&e)) {
    for (auto &[name, value] : instance.constexprs)
      if (name == n->name) {
        if (value.getKind() != Val::Kind::Int)
          return fail(e, "grid uses constexpr '" + name +
                             "', which is not an integer");
        return GridTerm{value, "", 100};
      }
    for (auto &[name, type] : instance.params)
      if (name == n->name) {
        if (type.kind != ParamType::Kind::Scalar ||
            !isInteger(type.elementType) || type.elementType == ScalarType::I1)
          return fail(e, "grid expressions may use integer parameters only; '" +
                             name + "' is " + formatParamType(type));
        return GridTerm{std::nullopt, name, 100};
      }
    return fail(e, "grid uses '" + n->name +
                       "', which is not a parameter of '" + kernel.name + "'");
  }
  if (auto *u = dyn_cast<UnaryExpr>(&e)) {
    std::optional<GridTerm> t = print(*u->operand);
    if (!t)
      return std::nullopt;
    if (u->op != UnaryOp::Neg && u->op != UnaryOp::Pos)
      return fail(e, "unsupported operator in a grid expression");
    if (t->constant) {
      std::string err;
      if (auto v = foldUnary(u->op, *t->constant, err))
        return GridTerm{*v, "", 100};
      return fail(e, err);
    }
    return GridTerm{std::nullopt,
                    (u->op == UnaryOp::Neg ? "-" : "+") + render(*t, 30), 30};
  }
  if (auto *b = dyn_cast<BinaryExpr>(&e)) {
    if (b->op != BinaryOp::Add && b->op != BinaryOp::Sub &&
        b->op != BinaryOp::Mul && b->op != BinaryOp::FloorDiv &&
        b->op != BinaryOp::Mod)
      return fail(e, "grid expressions may use + - * // % only");
    std::optional<GridTerm> l = print(*b->lhs), r = print(*b->rhs);
    if (!l || !r)
      return std::nullopt;
    if (l->constant && r->constant) {
      std::string err;
      if (auto v = foldBinary(b->op, *l->constant, *r->constant, err))
        return GridTerm{*v, "", 100};
      return fail(e, err);
    }
    int p = precedenceOf(b->op);
    return GridTerm{std::nullopt,
                    render(*l, p) + " " + getBinaryOpSpelling(b->op).str() +
                        " " + render(*r, p + 1),
                    p};
  }
  if (auto *c = dyn_cast<CallExpr>(&e)) {
    std::string name;
    if (auto *n = dyn_cast<NameExpr>(c->callee.get()))
      name = n->name;
    else if (auto *a = dyn_cast<AttributeExpr>(c->callee.get()))
      name = a->attr;
    if (name != "cdiv" && name != "min" && name != "max")
      return fail(e, "grid expressions may call cdiv, min and max only");
    if (!c->keywords.empty() || c->args.size() != 2)
      return fail(e, name + " in a grid expression takes two arguments");
    std::optional<GridTerm> a = print(*c->args[0]), b = print(*c->args[1]);
    if (!a || !b)
      return std::nullopt;
    if (a->constant && b->constant) {
      // Both operands fold (literals or constexprs: cdiv(M, BLOCK_M) with M
      // a constexpr, as tutorial 10 has it).
      llvm::StringMap<Val> env;
      for (auto &[n, val] : instance.constexprs)
        env[n] = val;
      std::optional<Val> v = evalConstexpr(e, env, diags);
      if (!v)
        return std::nullopt;
      return GridTerm{*v, "", 100};
    }
    return GridTerm{std::nullopt,
                    name + "(" + render(*a, 0) + ", " + render(*b, 0) + ")",
                    100};
  }
  return fail(e, "unsupported grid expression");
}

std::optional<std::string> tilec::formatGridExpr(const Expr &expr,
                                                 const FunctionDef &kernel,
                                                 const KernelInstance &instance,
                                                 DiagnosticEngine &diags) {
  GridPrinter printer(kernel, instance, diags);
  std::optional<GridTerm> t = printer.print(expr);
  if (!t)
    return std::nullopt;
  if (t->constant)
    return t->constant->repr();
  return t->text;
}
