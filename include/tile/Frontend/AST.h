//===- AST.h - Abstract syntax tree of the .tile language -------*- C++ -*-===//
//
// The parser's output: a module of kernels and helpers whose bodies are
// Python-shaped statements and expressions. Nothing here is typed or
// specialized; that happens in MLIRGen, per kernel and per set of constexpr
// values.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_AST_H
#define TILE_FRONTEND_AST_H

#include "tile/Frontend/DType.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tilec {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul,
  BitAnd, BitOr, BitXor, Shl, Shr,
};
enum class UnaryOp { Neg, Pos, Invert, Not };
enum class CompareOp { Lt, Gt, Le, Ge, Eq, Ne, Is, IsNot, In, NotIn };

llvm::StringRef getBinaryOpSpelling(BinaryOp op);
llvm::StringRef getUnaryOpSpelling(UnaryOp op);
llvm::StringRef getCompareOpSpelling(CompareOp op);

class Expr {
public:
  enum class Kind {
    Int,
    Float,
    Bool,
    None,
    Str,
    Name,
    Attribute,
    Subscript,
    Slice,
    Call,
    Binary,
    Unary,
    BoolOp,
    Compare,
    IfExp,
    Tuple,
    List,
    Dict,
    ListComp,
    Lambda,
  };
  Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

private:
  Kind kind;
  llvm::SMLoc loc;
};
using ExprPtr = std::unique_ptr<Expr>;

template <Expr::Kind K> class ExprBase : public Expr {
public:
  explicit ExprBase(llvm::SMLoc loc) : Expr(K, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == K; }
};

class IntExpr : public ExprBase<Expr::Kind::Int> {
public:
  IntExpr(llvm::SMLoc loc, uint64_t value) : ExprBase(loc), value(value) {}
  uint64_t value;
};

class FloatExpr : public ExprBase<Expr::Kind::Float> {
public:
  FloatExpr(llvm::SMLoc loc, double value) : ExprBase(loc), value(value) {}
  double value;
};

class BoolExpr : public ExprBase<Expr::Kind::Bool> {
public:
  BoolExpr(llvm::SMLoc loc, bool value) : ExprBase(loc), value(value) {}
  bool value;
};

class NoneExpr : public ExprBase<Expr::Kind::None> {
public:
  using ExprBase::ExprBase;
};

class StrExpr : public ExprBase<Expr::Kind::Str> {
public:
  StrExpr(llvm::SMLoc loc, std::string value)
      : ExprBase(loc), value(std::move(value)) {}
  std::string value;
};

class NameExpr : public ExprBase<Expr::Kind::Name> {
public:
  NameExpr(llvm::SMLoc loc, std::string name)
      : ExprBase(loc), name(std::move(name)) {}
  std::string name;
};

/// `base.attr`
class AttributeExpr : public ExprBase<Expr::Kind::Attribute> {
public:
  AttributeExpr(llvm::SMLoc loc, ExprPtr base, std::string attr,
                llvm::SMLoc attrLoc)
      : ExprBase(loc), base(std::move(base)), attr(std::move(attr)),
        attrLoc(attrLoc) {}
  ExprPtr base;
  std::string attr;
  llvm::SMLoc attrLoc;
};

/// `base[i, j, ...]`
class SubscriptExpr : public ExprBase<Expr::Kind::Subscript> {
public:
  SubscriptExpr(llvm::SMLoc loc, ExprPtr base, std::vector<ExprPtr> indices)
      : ExprBase(loc), base(std::move(base)), indices(std::move(indices)) {}
  ExprPtr base;
  std::vector<ExprPtr> indices;
};

/// `lower:upper:step` inside a subscript; any part may be absent.
class SliceExpr : public ExprBase<Expr::Kind::Slice> {
public:
  SliceExpr(llvm::SMLoc loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : ExprBase(loc), lower(std::move(lower)), upper(std::move(upper)),
        step(std::move(step)) {}
  ExprPtr lower, upper, step;
};

struct KeywordArg {
  std::string name;
  llvm::SMLoc loc;
  ExprPtr value;
};

class CallExpr : public ExprBase<Expr::Kind::Call> {
public:
  CallExpr(llvm::SMLoc loc, ExprPtr callee, std::vector<ExprPtr> args,
           std::vector<KeywordArg> keywords)
      : ExprBase(loc), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> keywords;
};

class BinaryExpr : public ExprBase<Expr::Kind::Binary> {
public:
  BinaryExpr(llvm::SMLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : ExprBase(loc), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
};

class UnaryExpr : public ExprBase<Expr::Kind::Unary> {
public:
  UnaryExpr(llvm::SMLoc loc, UnaryOp op, ExprPtr operand)
      : ExprBase(loc), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
};

/// `a and b and c` / `a or b`
class BoolOpExpr : public ExprBase<Expr::Kind::BoolOp> {
public:
  BoolOpExpr(llvm::SMLoc loc, bool isAnd, std::vector<ExprPtr> values)
      : ExprBase(loc), isAnd(isAnd), values(std::move(values)) {}
  bool isAnd;
  std::vector<ExprPtr> values;
};

/// `a < b <= c`: chained comparisons as in Python.
class CompareExpr : public ExprBase<Expr::Kind::Compare> {
public:
  CompareExpr(llvm::SMLoc loc, ExprPtr first) : ExprBase(loc),
      first(std::move(first)) {}
  ExprPtr first;
  std::vector<std::pair<CompareOp, ExprPtr>> rest;
};

/// `a if cond else b`
class IfExpExpr : public ExprBase<Expr::Kind::IfExp> {
public:
  IfExpExpr(llvm::SMLoc loc, ExprPtr cond, ExprPtr thenExpr, ExprPtr elseExpr)
      : ExprBase(loc), cond(std::move(cond)), thenExpr(std::move(thenExpr)),
        elseExpr(std::move(elseExpr)) {}
  ExprPtr cond, thenExpr, elseExpr;
};

class TupleExpr : public ExprBase<Expr::Kind::Tuple> {
public:
  TupleExpr(llvm::SMLoc loc, std::vector<ExprPtr> elements)
      : ExprBase(loc), elements(std::move(elements)) {}
  std::vector<ExprPtr> elements;
};

class ListExpr : public ExprBase<Expr::Kind::List> {
public:
  ListExpr(llvm::SMLoc loc, std::vector<ExprPtr> elements)
      : ExprBase(loc), elements(std::move(elements)) {}
  std::vector<ExprPtr> elements;
};

/// `{key: value, ...}`: only meaningful as the constexprs of an autotune
/// `triton.Config({...}, num_warps=...)`.
class DictExpr : public ExprBase<Expr::Kind::Dict> {
public:
  DictExpr(llvm::SMLoc loc, std::vector<ExprPtr> keys,
           std::vector<ExprPtr> values)
      : ExprBase(loc), keys(std::move(keys)), values(std::move(values)) {}
  std::vector<ExprPtr> keys, values;
};

/// `[element for target in iter if cond ... for ...]`: only meaningful as
/// the configs of an autotune decorator, expanded at compile time.
class ListCompExpr : public ExprBase<Expr::Kind::ListComp> {
public:
  struct Clause {
    llvm::SMLoc loc;
    ExprPtr target; // a NameExpr or a TupleExpr of them
    ExprPtr iter;
    std::vector<ExprPtr> conditions;
  };
  ListCompExpr(llvm::SMLoc loc, ExprPtr element, std::vector<Clause> clauses)
      : ExprBase(loc), element(std::move(element)),
        clauses(std::move(clauses)) {}
  ExprPtr element;
  std::vector<Clause> clauses;
};

/// `lambda args: body`: only meaningful as a value of @heuristics, where
/// `args[...]` reads the launch's arguments.
class LambdaExpr : public ExprBase<Expr::Kind::Lambda> {
public:
  LambdaExpr(llvm::SMLoc loc, std::vector<std::string> params, ExprPtr body)
      : ExprBase(loc), params(std::move(params)), body(std::move(body)) {}
  std::vector<std::string> params;
  ExprPtr body;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind {
    Expr, Assign, AugAssign, AnnAssign, For, While, If, Return, Pass, Break,
    Continue, Assert,
  };
  Stmt(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

private:
  Kind kind;
  llvm::SMLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

template <Stmt::Kind K> class StmtBase : public Stmt {
public:
  explicit StmtBase(llvm::SMLoc loc) : Stmt(K, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == K; }
};

class ExprStmt : public StmtBase<Stmt::Kind::Expr> {
public:
  ExprStmt(llvm::SMLoc loc, ExprPtr expr) : StmtBase(loc), expr(std::move(expr)) {}
  ExprPtr expr;
};

/// `t1 = t2 = value`
class AssignStmt : public StmtBase<Stmt::Kind::Assign> {
public:
  AssignStmt(llvm::SMLoc loc, std::vector<ExprPtr> targets, ExprPtr value)
      : StmtBase(loc), targets(std::move(targets)), value(std::move(value)) {}
  std::vector<ExprPtr> targets;
  ExprPtr value;
};

/// `target op= value`
class AugAssignStmt : public StmtBase<Stmt::Kind::AugAssign> {
public:
  AugAssignStmt(llvm::SMLoc loc, ExprPtr target, BinaryOp op, ExprPtr value)
      : StmtBase(loc), target(std::move(target)), op(op),
        value(std::move(value)) {}
  ExprPtr target;
  BinaryOp op;
  ExprPtr value;
};

/// `target: annotation [= value]`
class AnnAssignStmt : public StmtBase<Stmt::Kind::AnnAssign> {
public:
  AnnAssignStmt(llvm::SMLoc loc, ExprPtr target, ExprPtr annotation,
                ExprPtr value)
      : StmtBase(loc), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  ExprPtr target, annotation, value;
};

class ForStmt : public StmtBase<Stmt::Kind::For> {
public:
  ForStmt(llvm::SMLoc loc, ExprPtr target, ExprPtr iter, StmtList body)
      : StmtBase(loc), target(std::move(target)), iter(std::move(iter)),
        body(std::move(body)) {}
  ExprPtr target, iter;
  StmtList body;
};

class WhileStmt : public StmtBase<Stmt::Kind::While> {
public:
  WhileStmt(llvm::SMLoc loc, ExprPtr cond, StmtList body)
      : StmtBase(loc), cond(std::move(cond)), body(std::move(body)) {}
  ExprPtr cond;
  StmtList body;
};

/// `if`/`elif`/`else`: an `elif` is an IfStmt alone in `elseBody`.
class IfStmt : public StmtBase<Stmt::Kind::If> {
public:
  IfStmt(llvm::SMLoc loc, ExprPtr cond, StmtList thenBody, StmtList elseBody)
      : StmtBase(loc), cond(std::move(cond)), thenBody(std::move(thenBody)),
        elseBody(std::move(elseBody)) {}
  ExprPtr cond;
  StmtList thenBody, elseBody;
};

class ReturnStmt : public StmtBase<Stmt::Kind::Return> {
public:
  ReturnStmt(llvm::SMLoc loc, ExprPtr value)
      : StmtBase(loc), value(std::move(value)) {}
  ExprPtr value; // may be null
};

class PassStmt : public StmtBase<Stmt::Kind::Pass> {
public:
  using StmtBase::StmtBase;
};

class BreakStmt : public StmtBase<Stmt::Kind::Break> {
public:
  using StmtBase::StmtBase;
};

class ContinueStmt : public StmtBase<Stmt::Kind::Continue> {
public:
  using StmtBase::StmtBase;
};

/// Python `assert cond, "msg"`: a device assertion.
/// `assert cond, message`; also `raise exception` (`raises`: no
/// condition, the exception in `message`), an error where generated:
/// Triton compiles no raise, which may only sit in a branch a constexpr
/// condition leaves out.
class AssertStmt : public StmtBase<Stmt::Kind::Assert> {
public:
  AssertStmt(llvm::SMLoc loc, ExprPtr cond, ExprPtr message,
             bool raises = false)
      : StmtBase(loc), cond(std::move(cond)), message(std::move(message)),
        raises(raises) {}
  ExprPtr cond, message;
  bool raises;
};

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

/// A parameter annotation: `*fp16:16`, `i32`, `i32:16`, `constexpr`.
struct ParamType {
  enum class Kind { Scalar, Pointer, Constexpr };
  Kind kind = Kind::Scalar;
  ScalarType elementType = ScalarType::I32;
  unsigned divisibility = 1; // the `:N` hint; 1 when absent
  /// `i32:1` (Triton's AOT convention): the kernel is specialized for the
  /// value 1, which folds away multiplications by unit strides and lets the
  /// compiler prove contiguity. The argument stays in the ABI.
  bool equalsOne = false;
  llvm::SMLoc loc;
};

/// A kernel parameter annotated `tensordesc<DTYPE[B0, B1, ...]>`: a host
/// tensor descriptor (Triton's TensorDescriptor) with that block shape.
struct DescriptorParamType {
  ScalarType elementType = ScalarType::F16;
  std::vector<ExprPtr> blockShape; // constant expressions of constexprs
  llvm::SMLoc loc;
};

struct Param {
  std::string name;
  llvm::SMLoc loc;
  std::optional<ParamType> type; // absent: fixed at specialization
  ExprPtr defaultValue;          // constexprs', and a kernel pointer's `= None`
  /// Set only while parsing: the parser replaces a descriptor parameter
  /// by its parts (Parser::expandDescriptorParams).
  std::optional<DescriptorParamType> descriptor;
  bool isConstexpr() const {
    return type && type->kind == ParamType::Kind::Constexpr;
  }
  /// Declared `= None`: a launch may leave it out, passing a null pointer.
  bool defaultsToNone() const {
    return defaultValue && llvm::isa<NoneExpr>(*defaultValue);
  }
};

struct Decorator {
  std::string name; // dotted, e.g. "grid", "triton.jit"
  llvm::SMLoc loc;
  bool isCall = false;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> keywords;
};

struct Module;

/// `NAME: tl.constexpr = value` (or `NAME = value`) at module level: a
/// compile-time constant that kernels, helpers and decorators may read, as
/// Triton's constexpr globals.
struct GlobalConst {
  std::string name;
  llvm::SMLoc loc;
  ExprPtr value;
};

struct FunctionDef {
  /// The module the function was parsed in (its constants).
  const Module *module = nullptr;
  bool isKernel = false;
  std::string name;
  llvm::SMLoc loc;
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  /// `*args` and `**kwargs`, by name (empty if absent): host functions
  /// that Triton calls with them, such as an autotuner's
  /// early_config_prune(configs, named_args, **kwargs). Device code
  /// cannot call such a function.
  std::string varArgs, varKeywords;
  StmtList body;
  /// Functions defined in the body (`def init_func(nargs): ...` of a hook
  /// factory that returns it), kept out of `body`: host code may read them
  /// (ConfigHooks.cpp), device code may not run a body that defines one.
  std::vector<std::unique_ptr<FunctionDef>> nestedFunctions;

  const Decorator *findDecorator(llvm::StringRef name) const;
  const Param *findParam(llvm::StringRef name) const;
};

/// The `return` that is `fn`'s whole body (after a docstring at most), or
/// null: configs=NAME(...) functions, hook factories and host queries such
/// as `def is_hopper(): return ...` are such.
const ReturnStmt *onlyReturn(const FunctionDef &fn);

/// What `call` passes for `fn`'s parameter `i`: its keyword, else its
/// positional argument; null if neither.
const Expr *argumentFor(const CallExpr &call, const FunctionDef &fn, size_t i);

/// The function `fn` defines in its body under `name`, or null.
const FunctionDef *findNestedFunction(const FunctionDef &fn,
                                      llvm::StringRef name);

struct Module {
  std::vector<std::unique_ptr<FunctionDef>> functions;
  /// The target's compute capability, which host code's queries of the
  /// device see (TargetQueries.h).
  unsigned computeCapability = 90;
  std::vector<GlobalConst> constants; // in definition order
  /// Names that imports of modules other than Triton's bind (FlagGems'
  /// `triton_lang_extension as tle`), with the module: accepted so that
  /// files paste cleanly, and named in the error where a kernel uses one.
  llvm::StringMap<std::string> foreignImports;
  /// Host code at module level that is not device code: classes, and
  /// functions without a Triton decorator that do not parse as helpers
  /// (`def f(x: torch.Tensor)`, a body using `with`). Skipped, as Triton
  /// never compiles them; a kernel that calls one gets the error, naming
  /// why (`reason`, at `loc`).
  struct HostDefinition {
    llvm::SMLoc loc;
    std::string reason;
    /// A name host code binds at module level (`a, b = ...`, a `for`
    /// target, a list it appends to), not a function.
    bool value = false;
  };
  llvm::StringMap<HostDefinition> hostDefinitions;

  /// A config list built by module-level statements (`configs = []`, then
  /// `for ...: configs.append(triton.Config(...))`), as the body of a
  /// function that builds and returns it: the list's binding before them,
  /// the statements, `return NAME`. `@autotune(configs=NAME)` runs it.
  llvm::StringMap<std::unique_ptr<FunctionDef>> configBuilders;

  const FunctionDef *findFunction(llvm::StringRef name) const;
  /// The function `name` names, directly or through module-level aliases
  /// (`g = f`).
  const FunctionDef *findFunctionOrAlias(llvm::StringRef name) const;
  const GlobalConst *findConstant(llvm::StringRef name) const;
};

/// Print the AST as an indented tree (for `tilec --emit=ast`).
void printAST(const Module &module, llvm::raw_ostream &os);
void printExpr(const Expr &expr, llvm::raw_ostream &os);

/// Calls `each` on `e` and on every expression inside it, outer first
/// (operands, call arguments, subscripts, tuple and list elements; not
/// into comprehensions, lambdas, slices or dicts).
void forEachSubexpression(const Expr &e,
                          llvm::function_ref<void(const Expr &)> each);
/// forEachSubexpression on every expression `body`'s statements read, in
/// nested statements too (conditions, assigned values, loop ranges,
/// returned values, asserted conditions).
void forEachReadExpression(const StmtList &body,
                           llvm::function_ref<void(const Expr &)> each);

} // namespace tilec

#endif // TILE_FRONTEND_AST_H
