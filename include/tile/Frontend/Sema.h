//===- Sema.h - Typing rules of the .tile language --------------*- C++ -*-===//
//
// The rules that decide types without touching IR: Triton's type promotion
// for binary operators (with Python literals adapting to the other operand),
// NumPy broadcasting of block shapes, and Python-semantics folding of
// constexpr operators. MLIRGen applies them while it emits IR; the constexpr
// evaluator and the grid printer reuse the folding.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_SEMA_H
#define TILE_FRONTEND_SEMA_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>

namespace tilec {

/// How an operator combines its operands' element types.
enum class OpClass { Arith, DivMod, Bitwise, Shift, Compare };

OpClass classify(BinaryOp op);

/// The element type a binary operator computes in. `aWeak`/`bWeak` mark
/// Python literals and constexprs, which adapt to the other operand. Returns
/// nullopt with `error` set when the types cannot combine.
std::optional<ScalarType> promoteTypes(ScalarType a, bool aWeak, ScalarType b,
                                       bool bWeak, OpClass cls,
                                       std::string &error);

/// bool < integer (signed or unsigned) < float: a literal of a higher kind
/// than the other operand joins the promotion; otherwise it takes the other's
/// type (as in Triton, an int literal next to a u8 block is a u8).
unsigned kindRank(ScalarType t);

/// Whether integer `value` is representable in `t`.
bool fitsIn(int64_t value, ScalarType t);

/// The type a constexpr number takes when it becomes a run-time value on
/// its own: bool -> i1, int -> i32 (i64 if it does not fit), float -> fp32.
ScalarType literalType(const Val &v);

/// NumPy broadcasting of two shapes; nullopt if incompatible.
std::optional<llvm::SmallVector<int64_t, 4>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Fold an operator on constexprs with Python semantics. Returns nullopt with
/// `error` set for invalid operations (division by zero, overflow, mismatched
/// kinds); returns nullopt with `error` empty when the operands are not
/// foldable constexprs.
std::optional<Val> foldBinary(BinaryOp op, const Val &a, const Val &b,
                              std::string &error);
std::optional<Val> foldUnary(UnaryOp op, const Val &a, std::string &error);
std::optional<Val> foldCompare(CompareOp op, const Val &a, const Val &b,
                               std::string &error);

/// Names that are built-ins of the language (bare or after `tl.`).
bool isBuiltinName(llvm::StringRef name);
/// The built-ins, for "did you mean" suggestions.
std::vector<std::string> getBuiltinNames();
/// The parameters of built-in `name` as the compiler binds a call of it,
/// "pointer[, mask, other, ...]" (the optional ones in brackets), once a
/// call of it has been compiled in this process (the binding records
/// them); nullopt before, and for built-ins bound otherwise.
std::optional<std::string> getBuiltinSignature(llvm::StringRef name);

/// A dict a constant expression may index with a string, as a heuristic
/// reads the launch's arguments (`args['K']`). `lookup` reports its own
/// error and returns nullopt for a key it cannot give.
struct ConstDict {
  llvm::StringRef name;
  llvm::function_ref<std::optional<Val>(llvm::StringRef key, const Expr &at)>
      lookup;
  /// Optional: expressions its owner evaluates itself, tried first on every
  /// subexpression (an autotune config's `conf.kwargs['BLOCK_M']`, a prune
  /// function's `kwargs.get('N', 0)`). Sets `handled` and returns the value,
  /// or nullopt after its own error.
  llvm::function_ref<std::optional<Val>(const Expr &e, bool &handled)> resolve =
      nullptr;
};

/// Where an environment binds `num_sms()` (the device's SM count, in
/// @autotune configs): not a name a program can write.
inline constexpr llvm::StringLiteral kNumSMsConstant = "num_sms()";
/// The error for num_sms() anywhere else.
inline constexpr llvm::StringLiteral kNumSMsOutsideConfigs =
    "num_sms() (the device's SM count) is known only in @autotune configs; "
    "pass it to the kernel as an argument";

/// Evaluate a constant expression (literals, dtype names, names bound in
/// `env`, operators, tuples/lists and list comprehensions, `range`,
/// `itertools.product`, `float('inf')`, `cdiv`, `min`, `max`, `abs`,
/// `bool`, `next_power_of_2`, `num_sms()` where `env` binds it, a
/// constant tuple's element `t[i]`, and `dict['key']` when `dict` is
/// given). Reports an error and returns
/// nullopt when the expression is not constant.
/// With `module`, the driver's queries of the device are answered for the
/// module's target (TargetQueries.h) and calls of the file's functions run
/// their bodies (runHostFunction).
std::optional<Val> evalConstexpr(const Expr &expr,
                                 const llvm::StringMap<Val> &env,
                                 class DiagnosticEngine &diags,
                                 const ConstDict *dict = nullptr,
                                 const Module *module = nullptr);

/// `env` with `fn`'s parameters bound to the constant values of `call`'s
/// arguments (by position, by name, else their defaults); nullopt after a
/// diagnostic (too many arguments, a parameter without a value, an
/// unknown keyword).
std::optional<llvm::StringMap<Val>> bindCallArguments(
    const FunctionDef &fn, const CallExpr &call,
    const llvm::StringMap<Val> &env, class DiagnosticEngine &diags,
    const ConstDict *dict = nullptr, const Module *module = nullptr);

/// Runs the body of a function of the file on constants, its names bound
/// in `env` (parameters included): assignments, `if` / `elif` / `else` and
/// `return` (a heuristic function, `def get_n_stages(n=2): return ...`).
/// The value returned (None past the end); nullopt after a diagnostic.
std::optional<Val> runHostFunction(const FunctionDef &fn,
                                   llvm::StringMap<Val> env,
                                   class DiagnosticEngine &diags,
                                   const ConstDict *dict = nullptr,
                                   const Module *module = nullptr);

/// Whether `fn`'s body compares the name `name` with None (`name is None`,
/// `None is not name`), in a statement's expressions at any depth (not in
/// the helpers it calls): a pointer parameter a launch may pass as None.
bool comparesWithNone(const FunctionDef &fn, llvm::StringRef name);

/// tl.target_info's predicate `name` for the target: this compiler targets
/// CUDA only, so is_cuda() holds and is_hip() and its variants do not;
/// nullopt for other names.
std::optional<bool> targetInfoPredicate(llvm::StringRef name);

/// Calls `each` on the comprehension's element once per iteration of its
/// clauses from `clause` on (the first clause outermost, as in Python),
/// with the clauses' variables bound in `env`, skipping the iterations a
/// condition rejects. False after a diagnostic, or when `each` fails.
/// `dict` and `module` as for evalConstexpr (a heuristic's arguments).
bool expandComprehension(
    const ListCompExpr &comp, size_t clause, llvm::StringMap<Val> &env,
    class DiagnosticEngine &diags,
    llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
        each,
    const ConstDict *dict = nullptr, const Module *module = nullptr);

/// Whether `e` is a call of `config(...)` or (`triton.`)`Config(...)`.
bool isConfigCall(const Expr &e);

/// Whether `e` is a list of autotune configs (`[config(...), ...]`, a
/// list comprehension of `triton.Config(...)`, or such lists joined by
/// `+`): a module-level constant that only @autotune(configs=NAME) reads.
bool isConfigList(const Expr &e);

/// Whether a module-level constant's value `e` names something other than
/// a constant (a built-in, a helper, a module: an alias such as
/// `triton_tanh = libdevice.tanh`), given the constants defined before it.
bool isAlias(const Expr &e, const llvm::StringMap<Val> &constants);

/// The values of the module-level constants `fn` can read (those of the
/// module it was parsed in, each evaluated with the earlier ones in scope;
/// a later binding of a name replaces an earlier one, as in Python). A
/// global that is not a compile-time constant (host code) is left out
/// silently: reading it is the error.
llvm::StringMap<Val> moduleConstants(const FunctionDef &fn,
                                     class DiagnosticEngine &diags);
llvm::StringMap<Val> moduleConstants(const Module &module,
                                     class DiagnosticEngine &diags);

/// Resolve a dtype spelled as a name or `tl.name` (`fp16`, `tl.float16`).
std::optional<ScalarType> dtypeFromExpr(const Expr &expr);

} // namespace tilec

#endif // TILE_FRONTEND_SEMA_H
