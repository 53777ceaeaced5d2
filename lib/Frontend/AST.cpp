//===- AST.cpp - AST helpers and printer ----------------------------------===//

#include "tile/Frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using llvm::cast;

llvm::StringRef tilec::getBinaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  }
  return "?";
}

llvm::StringRef tilec::getUnaryOpSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Pos:
    return "+";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Not:
    return "not ";
  }
  return "?";
}

llvm::StringRef tilec::getCompareOpSpelling(CompareOp op) {
  switch (op) {
  case CompareOp::Lt:
    return "<";
  case CompareOp::Gt:
    return ">";
  case CompareOp::Le:
    return "<=";
  case CompareOp::Ge:
    return ">=";
  case CompareOp::Eq:
    return "==";
  case CompareOp::Ne:
    return "!=";
  case CompareOp::Is:
    return "is";
  case CompareOp::IsNot:
    return "is not";
  case CompareOp::In:
    return "in";
  case CompareOp::NotIn:
    return "not in";
  }
  return "?";
}

const Decorator *FunctionDef::findDecorator(llvm::StringRef name) const {
  for (const Decorator &d : decorators)
    if (d.name == name)
      return &d;
  return nullptr;
}

const Param *FunctionDef::findParam(llvm::StringRef name) const {
  for (const Param &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

const GlobalConst *Module::findConstant(llvm::StringRef name) const {
  // The last binding, as Python's module namespace holds it.
  for (const GlobalConst &c : llvm::reverse(constants))
    if (c.name == name)
      return &c;
  return nullptr;
}

const FunctionDef *Module::findFunction(llvm::StringRef name) const {
  for (const auto &fn : functions)
    if (fn->name == name)
      return fn.get();
  return nullptr;
}

const FunctionDef *Module::findFunctionOrAlias(llvm::StringRef name) const {
  // A chain of `g = f` bindings (gemlite's `get_configs = autotune_cfgs`);
  // bounded, as a cycle has no function at its end.
  for (int hops = 0; hops < 8; ++hops) {
    if (const FunctionDef *fn = findFunction(name))
      return fn;
    const GlobalConst *c = findConstant(name);
    auto *next = c ? llvm::dyn_cast<NameExpr>(c->value.get()) : nullptr;
    if (!next)
      return nullptr;
    name = next->name;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

static void printString(llvm::StringRef s, llvm::raw_ostream &os) {
  os << '"';
  os.write_escaped(s);
  os << '"';
}

static void printKeywords(const std::vector<KeywordArg> &keywords,
                          bool needComma, llvm::raw_ostream &os) {
  for (const KeywordArg &kw : keywords) {
    if (needComma)
      os << ", ";
    needComma = true;
    os << kw.name << "=";
    printExpr(*kw.value, os);
  }
}

static void printList(const std::vector<ExprPtr> &exprs,
                      llvm::raw_ostream &os) {
  llvm::interleaveComma(exprs, os, [&](const ExprPtr &e) { printExpr(*e, os); });
}

void tilec::printExpr(const Expr &expr, llvm::raw_ostream &os) {
  switch (expr.getKind()) {
  case Expr::Kind::Int:
    os << cast<IntExpr>(expr).value;
    return;
  case Expr::Kind::Float: {
    double v = cast<FloatExpr>(expr).value;
    os << llvm::format("%.17g", v);
    if (v == static_cast<double>(static_cast<int64_t>(v)) && v < 1e15 &&
        v > -1e15)
      os << ".0";
    return;
  }
  case Expr::Kind::Bool:
    os << (cast<BoolExpr>(expr).value ? "True" : "False");
    return;
  case Expr::Kind::None:
    os << "None";
    return;
  case Expr::Kind::Str:
    printString(cast<StrExpr>(expr).value, os);
    return;
  case Expr::Kind::Name:
    os << cast<NameExpr>(expr).name;
    return;
  case Expr::Kind::Attribute: {
    auto &a = cast<AttributeExpr>(expr);
    printExpr(*a.base, os);
    os << "." << a.attr;
    return;
  }
  case Expr::Kind::Subscript: {
    auto &s = cast<SubscriptExpr>(expr);
    printExpr(*s.base, os);
    os << "[";
    printList(s.indices, os);
    os << "]";
    return;
  }
  case Expr::Kind::Slice: {
    auto &s = cast<SliceExpr>(expr);
    if (s.lower)
      printExpr(*s.lower, os);
    os << ":";
    if (s.upper)
      printExpr(*s.upper, os);
    if (s.step) {
      os << ":";
      printExpr(*s.step, os);
    }
    return;
  }
  case Expr::Kind::Call: {
    auto &c = cast<CallExpr>(expr);
    printExpr(*c.callee, os);
    os << "(";
    printList(c.args, os);
    printKeywords(c.keywords, !c.args.empty(), os);
    os << ")";
    return;
  }
  case Expr::Kind::Binary: {
    auto &b = cast<BinaryExpr>(expr);
    os << "(";
    printExpr(*b.lhs, os);
    os << " " << getBinaryOpSpelling(b.op) << " ";
    printExpr(*b.rhs, os);
    os << ")";
    return;
  }
  case Expr::Kind::Unary: {
    auto &u = cast<UnaryExpr>(expr);
    os << "(" << getUnaryOpSpelling(u.op);
    printExpr(*u.operand, os);
    os << ")";
    return;
  }
  case Expr::Kind::BoolOp: {
    auto &b = cast<BoolOpExpr>(expr);
    os << "(";
    llvm::interleave(
        b.values, os, [&](const ExprPtr &e) { printExpr(*e, os); },
        b.isAnd ? " and " : " or ");
    os << ")";
    return;
  }
  case Expr::Kind::Compare: {
    auto &c = cast<CompareExpr>(expr);
    os << "(";
    printExpr(*c.first, os);
    for (auto &[op, rhs] : c.rest) {
      os << " " << getCompareOpSpelling(op) << " ";
      printExpr(*rhs, os);
    }
    os << ")";
    return;
  }
  case Expr::Kind::IfExp: {
    auto &i = cast<IfExpExpr>(expr);
    os << "(";
    printExpr(*i.thenExpr, os);
    os << " if ";
    printExpr(*i.cond, os);
    os << " else ";
    printExpr(*i.elseExpr, os);
    os << ")";
    return;
  }
  case Expr::Kind::Tuple: {
    auto &t = cast<TupleExpr>(expr);
    os << "(";
    printList(t.elements, os);
    if (t.elements.size() == 1)
      os << ",";
    os << ")";
    return;
  }
  case Expr::Kind::List: {
    os << "[";
    printList(cast<ListExpr>(expr).elements, os);
    os << "]";
    return;
  }
  case Expr::Kind::ListComp: {
    auto &l = cast<ListCompExpr>(expr);
    os << "[";
    printExpr(*l.element, os);
    for (const ListCompExpr::Clause &c : l.clauses) {
      os << " for ";
      printExpr(*c.target, os);
      os << " in ";
      printExpr(*c.iter, os);
      for (const ExprPtr &cond : c.conditions) {
        os << " if ";
        printExpr(*cond, os);
      }
    }
    os << "]";
    return;
  }
  case Expr::Kind::Dict: {
    auto &d = cast<DictExpr>(expr);
    os << "{";
    for (size_t i = 0; i < d.keys.size(); ++i) {
      if (i)
        os << ", ";
      printExpr(*d.keys[i], os);
      os << ": ";
      printExpr(*d.values[i], os);
    }
    os << "}";
    return;
  }
  case Expr::Kind::Lambda: {
    auto &l = cast<LambdaExpr>(expr);
    os << "(lambda " << llvm::join(l.params, ", ") << ": ";
    printExpr(*l.body, os);
    os << ")";
    return;
  }
  }
}

static void printBlock(const StmtList &block, unsigned indent,
                       llvm::raw_ostream &os);

static void printStmt(const Stmt &stmt, unsigned indent,
                      llvm::raw_ostream &os) {
  os.indent(indent);
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    os << "expr ";
    printExpr(*cast<ExprStmt>(stmt).expr, os);
    os << "\n";
    return;
  case Stmt::Kind::Assign: {
    auto &a = cast<AssignStmt>(stmt);
    os << "assign ";
    for (const ExprPtr &t : a.targets) {
      printExpr(*t, os);
      os << " = ";
    }
    printExpr(*a.value, os);
    os << "\n";
    return;
  }
  case Stmt::Kind::AugAssign: {
    auto &a = cast<AugAssignStmt>(stmt);
    os << "augassign ";
    printExpr(*a.target, os);
    os << " " << getBinaryOpSpelling(a.op) << "= ";
    printExpr(*a.value, os);
    os << "\n";
    return;
  }
  case Stmt::Kind::AnnAssign: {
    auto &a = cast<AnnAssignStmt>(stmt);
    os << "annassign ";
    printExpr(*a.target, os);
    os << ": ";
    printExpr(*a.annotation, os);
    if (a.value) {
      os << " = ";
      printExpr(*a.value, os);
    }
    os << "\n";
    return;
  }
  case Stmt::Kind::For: {
    auto &f = cast<ForStmt>(stmt);
    os << "for ";
    printExpr(*f.target, os);
    os << " in ";
    printExpr(*f.iter, os);
    os << ":\n";
    printBlock(f.body, indent + 2, os);
    return;
  }
  case Stmt::Kind::While: {
    auto &w = cast<WhileStmt>(stmt);
    os << "while ";
    printExpr(*w.cond, os);
    os << ":\n";
    printBlock(w.body, indent + 2, os);
    return;
  }
  case Stmt::Kind::If: {
    auto &i = cast<IfStmt>(stmt);
    os << "if ";
    printExpr(*i.cond, os);
    os << ":\n";
    printBlock(i.thenBody, indent + 2, os);
    if (!i.elseBody.empty()) {
      os.indent(indent) << "else:\n";
      printBlock(i.elseBody, indent + 2, os);
    }
    return;
  }
  case Stmt::Kind::Return: {
    auto &r = cast<ReturnStmt>(stmt);
    os << "return";
    if (r.value) {
      os << " ";
      printExpr(*r.value, os);
    }
    os << "\n";
    return;
  }
  case Stmt::Kind::Pass:
    os << "pass\n";
    return;
  case Stmt::Kind::Break:
    os << "break\n";
    return;
  case Stmt::Kind::Continue:
    os << "continue\n";
    return;
  case Stmt::Kind::Assert: {
    auto &a = cast<AssertStmt>(stmt);
    if (a.raises) {
      os << "raise";
      if (a.message) {
        os << " ";
        printExpr(*a.message, os);
      }
      os << "\n";
      return;
    }
    os << "assert ";
    printExpr(*a.cond, os);
    if (a.message) {
      os << ", ";
      printExpr(*a.message, os);
    }
    os << "\n";
    return;
  }
  }
}

static void printBlock(const StmtList &block, unsigned indent,
                       llvm::raw_ostream &os) {
  for (const StmtPtr &s : block)
    printStmt(*s, indent, os);
}

static void printParamType(const ParamType &type, llvm::raw_ostream &os) {
  switch (type.kind) {
  case ParamType::Kind::Constexpr:
    os << "constexpr";
    return;
  case ParamType::Kind::Pointer:
    os << "*";
    [[fallthrough]];
  case ParamType::Kind::Scalar:
    os << getName(type.elementType);
    if (type.divisibility > 1 || type.equalsOne)
      os << ":" << type.divisibility;
    return;
  }
}

void tilec::printAST(const Module &module, llvm::raw_ostream &os) {
  for (const GlobalConst &c : module.constants) {
    os << "const " << c.name << " = ";
    printExpr(*c.value, os);
    os << "\n";
  }
  for (const auto &fn : module.functions) {
    for (const Decorator &d : fn->decorators) {
      os << "@" << d.name;
      if (d.isCall) {
        os << "(";
        printList(d.args, os);
        printKeywords(d.keywords, !d.args.empty(), os);
        os << ")";
      }
      os << "\n";
    }
    os << (fn->isKernel ? "kernel " : "def ") << fn->name << "(";
    llvm::interleaveComma(fn->params, os, [&](const Param &p) {
      os << p.name;
      if (p.type) {
        os << ": ";
        printParamType(*p.type, os);
      }
      if (p.defaultValue) {
        os << " = ";
        printExpr(*p.defaultValue, os);
      }
    });
    if (!fn->varArgs.empty())
      os << (fn->params.empty() ? "*" : ", *") << fn->varArgs;
    if (!fn->varKeywords.empty())
      os << (fn->params.empty() && fn->varArgs.empty() ? "**" : ", **")
         << fn->varKeywords;
    os << "):\n";
    printBlock(fn->body, 2, os);
  }
}

void tilec::forEachSubexpression(const Expr &e,
                                 llvm::function_ref<void(const Expr &)> each) {
  each(e);
  auto visit = [&](const Expr *x) {
    if (x)
      forEachSubexpression(*x, each);
  };
  switch (e.getKind()) {
  case Expr::Kind::Subscript: {
    auto &s = cast<SubscriptExpr>(e);
    visit(s.base.get());
    for (const ExprPtr &i : s.indices)
      visit(i.get());
    return;
  }
  case Expr::Kind::Attribute:
    return visit(cast<AttributeExpr>(e).base.get());
  case Expr::Kind::Call: {
    auto &c = cast<CallExpr>(e);
    visit(c.callee.get());
    for (const ExprPtr &a : c.args)
      visit(a.get());
    for (const KeywordArg &k : c.keywords)
      visit(k.value.get());
    return;
  }
  case Expr::Kind::Binary: {
    auto &b = cast<BinaryExpr>(e);
    visit(b.lhs.get());
    return visit(b.rhs.get());
  }
  case Expr::Kind::Unary:
    return visit(cast<UnaryExpr>(e).operand.get());
  case Expr::Kind::BoolOp:
    for (const ExprPtr &v : cast<BoolOpExpr>(e).values)
      visit(v.get());
    return;
  case Expr::Kind::Compare: {
    auto &c = cast<CompareExpr>(e);
    visit(c.first.get());
    for (const auto &[op, rhs] : c.rest)
      visit(rhs.get());
    return;
  }
  case Expr::Kind::IfExp: {
    auto &i = cast<IfExpExpr>(e);
    visit(i.cond.get());
    visit(i.thenExpr.get());
    return visit(i.elseExpr.get());
  }
  case Expr::Kind::Tuple:
    for (const ExprPtr &x : cast<TupleExpr>(e).elements)
      visit(x.get());
    return;
  case Expr::Kind::List:
    for (const ExprPtr &x : cast<ListExpr>(e).elements)
      visit(x.get());
    return;
  default:
    return;
  }
}

void tilec::forEachReadExpression(const StmtList &body,
                                  llvm::function_ref<void(const Expr &)> each) {
  auto visit = [&](const Expr *x) {
    if (x)
      forEachSubexpression(*x, each);
  };
  for (const StmtPtr &stmt : body) {
    const Stmt &s = *stmt;
    switch (s.getKind()) {
    case Stmt::Kind::Expr:
      visit(cast<ExprStmt>(s).expr.get());
      break;
    case Stmt::Kind::Assign:
      visit(cast<AssignStmt>(s).value.get());
      break;
    case Stmt::Kind::AugAssign:
      visit(cast<AugAssignStmt>(s).value.get());
      break;
    case Stmt::Kind::AnnAssign:
      visit(cast<AnnAssignStmt>(s).value.get());
      break;
    case Stmt::Kind::For: {
      auto &f = cast<ForStmt>(s);
      visit(f.iter.get());
      forEachReadExpression(f.body, each);
      break;
    }
    case Stmt::Kind::While: {
      auto &w = cast<WhileStmt>(s);
      visit(w.cond.get());
      forEachReadExpression(w.body, each);
      break;
    }
    case Stmt::Kind::If: {
      auto &i = cast<IfStmt>(s);
      visit(i.cond.get());
      forEachReadExpression(i.thenBody, each);
      forEachReadExpression(i.elseBody, each);
      break;
    }
    case Stmt::Kind::Return:
      visit(cast<ReturnStmt>(s).value.get());
      break;
    case Stmt::Kind::Assert:
      visit(cast<AssertStmt>(s).cond.get());
      break;
    default:
      break;
    }
  }
}

const Expr *tilec::argumentFor(const CallExpr &call, const FunctionDef &fn,
                               size_t i) {
  const Expr *arg = i < call.args.size() ? call.args[i].get() : nullptr;
  for (const KeywordArg &kw : call.keywords)
    if (kw.name == fn.params[i].name)
      arg = kw.value.get();
  return arg;
}

const FunctionDef *tilec::findNestedFunction(const FunctionDef &fn,
                                             llvm::StringRef name) {
  for (const std::unique_ptr<FunctionDef> &nested : fn.nestedFunctions)
    if (nested->name == name)
      return nested.get();
  return nullptr;
}

const ReturnStmt *tilec::onlyReturn(const FunctionDef &fn) {
  for (const StmtPtr &stmt : fn.body) {
    if (auto *doc = llvm::dyn_cast<ExprStmt>(stmt.get());
        doc && llvm::isa<StrExpr>(doc->expr.get()))
      continue;
    return stmt == fn.body.back() ? llvm::dyn_cast<ReturnStmt>(stmt.get())
                                  : nullptr;
  }
  return nullptr;
}
