//===- Generator.h - MLIRGen internals --------------------------*- C++ -*-===//
//
// The elaborator behind emitKernel: walks statements and expressions,
// keeping a scope of Vals per inlined function, and emits tile-dialect IR.
// Split over MLIRGen.cpp (statements and control flow), GenExpr.cpp
// (operators and conversions) and GenBuiltins*.cpp (built-in functions).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_GENERATOR_H
#define TILE_LIB_FRONTEND_GENERATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Frontend/MLIRGen.h"
#include "tile/Frontend/Sema.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <deque>
#include <functional>

namespace tilec {

/// Records what built-in `name` takes, for getBuiltinSignature, where a
/// built-in reads its arguments without Generator::bind (which records
/// its own). `params` runs only for the first call of each built-in: the
/// text is made once per process, not per call compiled.
void recordBuiltinSignature(llvm::StringRef name,
                            llvm::function_ref<std::string()> params);
/// "a, b[, c, d]" for parameters of which the first `numRequired` are.
std::string formatBuiltinParams(llvm::ArrayRef<std::string> params,
                                unsigned numRequired);

/// Arguments of a call after evaluation.
struct CallArgs {
  std::vector<Val> positional;
  std::vector<std::pair<std::string, Val>> keywords;
  std::vector<llvm::SMLoc> positionalLocs;
  std::vector<llvm::SMLoc> keywordLocs;

  /// The arguments of a call the compiler makes itself: positional, all
  /// at `at`.
  static CallArgs positionalAt(std::vector<Val> values, llvm::SMLoc at) {
    CallArgs args;
    args.positionalLocs.assign(values.size(), at);
    args.positional = std::move(values);
    return args;
  }
};

/// Parameters of a call bound by name; absent ones are nullopt.
struct BoundArgs {
  std::vector<std::optional<Val>> values;
  std::vector<llvm::SMLoc> locs;
  const std::optional<Val> &operator[](size_t i) const { return values[i]; }
  bool has(size_t i) const { return values[i].has_value() && !values[i]->isNone(); }
  llvm::SMLoc loc(size_t i, llvm::SMLoc fallback) const {
    return locs[i].isValid() ? locs[i] : fallback;
  }
};

/// Whether `name` is one of the random library's functions.
bool isLibraryBuiltin(llvm::StringRef name);

class Generator {
public:
  Generator(mlir::ModuleOp module, const Module &ast, DiagnosticEngine &diags);

  mlir::LogicalResult emitKernel(const KernelInstance &instance);
  /// Records a test `x is None` of the kernel's argument `x` (a scalar
  /// pointer, which a launch may pass as None).
  void noteNoneTest(const Val &value);
  /// `v` where its truth is taken: a run-time scalar pointer is true, as
  /// Triton's `if bias_ptr:` (a kernel argument that may be None gets a
  /// version where it is: noteNoneTest); anything else unchanged.
  Val truthOfPointer(const Val &v);

  /// Told of every variable use and assignment (may be empty).
  NameObserver observer;
  /// Set when a static_assert failed (Triton's CompileTimeAssertionFailure,
  /// which its autotuner takes as a config that does not apply).
  bool staticAssertFailed = false;

  //===--------------------------------------------------------------------===//
  // Statements and control flow (MLIRGen.cpp)
  //===--------------------------------------------------------------------===//

  enum class Flow { Next, Returned };

  mlir::FailureOr<Flow> genBlock(const StmtList &block, size_t start = 0);
  mlir::FailureOr<Flow> genStmt(const StmtList &block, size_t index);
  mlir::LogicalResult genAssign(const AssignStmt &stmt);
  mlir::LogicalResult genAugAssign(const AugAssignStmt &stmt);
  mlir::LogicalResult genAnnAssign(const AnnAssignStmt &stmt);
  mlir::LogicalResult genFor(const ForStmt &stmt);
  mlir::LogicalResult genStaticFor(const ForStmt &stmt, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::LogicalResult genWhile(const WhileStmt &stmt);
  mlir::FailureOr<Flow> genIf(const IfStmt &stmt, const StmtList &block,
                              size_t index);
  mlir::FailureOr<Flow> genReturn(const ReturnStmt &stmt);
  mlir::LogicalResult genAssert(const AssertStmt &stmt);
  mlir::LogicalResult assignTo(const Expr &target, const Val &value);
  mlir::LogicalResult bindName(const std::string &name, llvm::SMLoc loc,
                               const Val &value);

  //===--------------------------------------------------------------------===//
  // Expressions (GenExpr.cpp)
  //===--------------------------------------------------------------------===//

  mlir::FailureOr<Val> genExpr(const Expr &expr);
  /// Record the kernel's @grid as a tile.launch_grid op.
  mlir::LogicalResult emitLaunchGrid(const FunctionDef &fn);
  /// The kernel's function, with its body generated once per combination of
  /// the pointer arguments in `nullable` being None (a null pointer) or not.
  mlir::FailureOr<mlir::func::FuncOp>
  emitKernelVersions(const KernelInstance &inst,
                     llvm::ArrayRef<unsigned> nullable);
  mlir::FailureOr<Flow> genVersions(const StmtList &body,
                                    llvm::ArrayRef<unsigned> nullable);
  mlir::FailureOr<Val> genName(const NameExpr &expr);
  mlir::FailureOr<Val> genAttribute(const AttributeExpr &expr);
  mlir::FailureOr<Val> genSubscript(const SubscriptExpr &expr);
  mlir::FailureOr<Val> genCall(const CallExpr &expr);
  mlir::FailureOr<Val> genCompareExpr(const CompareExpr &expr);
  mlir::FailureOr<Val> genBoolOp(const BoolOpExpr &expr);
  mlir::FailureOr<Val> genIfExp(const IfExpExpr &expr);
  mlir::FailureOr<CallArgs> genCallArgs(const CallExpr &call);
  mlir::FailureOr<Val> callHelper(const FunctionDef &fn, const CallArgs &args,
                                  llvm::SMLoc loc);
  /// Generates frame().rest from the innermost list outwards, until one
  /// returns.
  mlir::FailureOr<Flow> genRest();

  mlir::FailureOr<Val> binary(BinaryOp op, const Val &lhs, const Val &rhs,
                              llvm::SMLoc loc);
  mlir::FailureOr<Val> compare(CompareOp op, const Val &lhs, const Val &rhs,
                               llvm::SMLoc loc);
  mlir::FailureOr<Val> unary(UnaryOp op, const Val &operand, llvm::SMLoc loc);
  mlir::FailureOr<Val> pointerArith(BinaryOp op, const Val &ptr,
                                    const Val &offset, llvm::SMLoc loc);

  //===--------------------------------------------------------------------===//
  // Conversions (GenExpr.cpp)
  //===--------------------------------------------------------------------===//

  /// A run-time value for `v`: constexpr numbers become constants of `as`
  /// (or their literal type).
  mlir::FailureOr<Val> materialize(const Val &v, llvm::SMLoc loc,
                                   std::optional<ScalarType> as = {});
  /// Convert a run-time value's elements to `to`.
  Val cast(const Val &v, ScalarType to, llvm::SMLoc loc);
  /// Splat or broadcast a run-time value to `shape`.
  mlir::FailureOr<Val> broadcastTo(const Val &v, llvm::ArrayRef<int64_t> shape,
                                   llvm::SMLoc loc);
  /// Bring two operands to one element type (per the promotion rules) and
  /// one shape; returns the compute type.
  mlir::FailureOr<ScalarType> unify(Val &a, Val &b, OpClass cls,
                                    llvm::SMLoc loc,
                                    llvm::StringRef opSpelling);
  /// Convert a value to i1 (non-zero test) for conditions and masks.
  mlir::FailureOr<Val> toBool(const Val &v, llvm::SMLoc loc);
  mlir::Value constant(ScalarType t, double value,
                       llvm::ArrayRef<int64_t> shape, llvm::SMLoc loc);
  mlir::Value intConstant(int64_t value, mlir::Type type, llvm::SMLoc loc);
  /// A scalar run-time integer of type `t` (i32/i64) from an int-like Val.
  mlir::FailureOr<mlir::Value> scalarIndex(const Val &v, ScalarType t,
                                           llvm::SMLoc loc,
                                           llvm::StringRef what);

  mlir::Type mlirType(const TileType &t);
  mlir::Type mlirScalar(ScalarType t);
  mlir::Type mlirElement(const TileType &t);

  //===--------------------------------------------------------------------===//
  // Built-ins (GenBuiltins*.cpp)
  //===--------------------------------------------------------------------===//

  mlir::FailureOr<Val> callBuiltin(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::FailureOr<BoundArgs> bind(llvm::StringRef fn,
                                  llvm::ArrayRef<const char *> params,
                                  unsigned numRequired, const CallArgs &args,
                                  llvm::SMLoc loc);

  // Grid, creation and shapes (GenBuiltins.cpp).
  mlir::FailureOr<Val> builtinProgramId(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinArange(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinFull(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinCast(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinShape(llvm::StringRef name, const CallArgs &args,
                                    llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinHint(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinDebug(llvm::StringRef name, const CallArgs &args,
                                    llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinIsInstance(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinPython(llvm::StringRef name,
                                     const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> expandDims(const Val &v, int64_t axis, llvm::SMLoc loc);
  mlir::FailureOr<Val> transpose(const Val &v, llvm::ArrayRef<int32_t> order,
                                 llvm::SMLoc loc);
  mlir::FailureOr<Val> reshape(const Val &v, llvm::ArrayRef<int64_t> shape,
                               llvm::SMLoc loc);

  // Memory (GenBuiltinsMemory.cpp).
  mlir::FailureOr<Val> builtinLoad(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinStore(const CallArgs &args, llvm::SMLoc loc);
  // Python's math module, str(), repr() and format() on constexprs
  // (GenPythonMath.cpp).
  mlir::FailureOr<Val> pythonMathAttribute(llvm::StringRef attr,
                                           llvm::SMLoc at);
  mlir::FailureOr<Val> callPythonFunction(llvm::StringRef fn,
                                          const CallArgs &args, llvm::SMLoc at);
  mlir::FailureOr<Val> builtinAtomic(llvm::StringRef name,
                                     const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinMakeBlockPtr(const CallArgs &args,
                                           llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinAdvance(const CallArgs &args, llvm::SMLoc loc);
  /// An argument of a built-in call by position or keyword, and where it is
  /// (null when not given).
  using ArgumentLookup = std::function<std::pair<const Val *, llvm::SMLoc>(
      size_t, llvm::StringRef)>;
  mlir::LogicalResult checkDotScaled(const ArgumentLookup &argument,
                                     llvm::SMLoc at);
  mlir::FailureOr<Val> builtinMakeTensorDescriptor(const CallArgs &args,
                                                   llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinDescriptorLoad(const CallArgs &args,
                                             llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinDescriptorStore(const CallArgs &args,
                                              llvm::SMLoc loc);
  // Triton 3.0-3.3's experimental TMA API (GenBuiltinsExperimental.cpp).
  mlir::FailureOr<Val> builtinExperimentalDescriptor(llvm::StringRef name,
                                                     const CallArgs &args,
                                                     llvm::SMLoc loc);

  // Reductions and scans (GenBuiltinsReduce.cpp).
  mlir::FailureOr<Val> builtinReduce(llvm::StringRef name,
                                     const CallArgs &args, llvm::SMLoc loc);
  /// A reduction's axis: with none given, `inputs` are flattened and the
  /// axis is 0; otherwise the given one, checked and made non-negative.
  mlir::FailureOr<int64_t> reductionAxis(const std::optional<Val> &axisArg,
                                         llvm::SMLoc axisLoc,
                                         llvm::MutableArrayRef<Val> inputs,
                                         llvm::SMLoc loc);
  /// A reduction's result with the reduced dimensions kept (as 1s).
  mlir::FailureOr<Val> keepReducedDims(const Val &r, bool allAxes, int64_t rank,
                                       int64_t axis, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinReduceWith(llvm::StringRef name,
                                         const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinScan(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinHistogram(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinMapElementwise(const CallArgs &args,
                                             llvm::SMLoc loc);
  /// The body of a combining region: `combine` called on `body`'s
  /// arguments (the accumulated scalars, then the new ones) and inlined; its
  /// results, cast to the element types of `inputs`, are appended to
  /// `results`.
  mlir::LogicalResult emitCombineCall(const FunctionDef &combine,
                                      mlir::Block *body, llvm::ArrayRef<Val> inputs,
                                      llvm::SMLoc loc,
                                      llvm::SmallVectorImpl<mlir::Value> &results);

  // join, split, interleave, cat, flip, gather (GenBuiltinsCombine.cpp).
  mlir::FailureOr<Val> builtinJoin(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinSplit(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinFlip(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinGather(const CallArgs &args, llvm::SMLoc loc);

  /// `tuple[lower:upper:step]` (GenExpr.cpp).
  mlir::FailureOr<Val> sliceTuple(const Val &tuple, const SliceExpr &slice);
  /// `.to(tl.pointer_type(elem))` (GenBuiltins.cpp).
  mlir::FailureOr<Val> castToPointer(const Val &input, ScalarType elem,
                                     llvm::SMLoc inputAt, llvm::SMLoc loc);

  // Math, dot and inline asm (GenBuiltinsMath.cpp).
  /// A number or numeric block for `fn` (pointers rejected).
  mlir::FailureOr<Val> requireNumeric(const Val &v, llvm::SMLoc loc,
                                      llvm::StringRef fn);
  /// The one numeric argument `x` of the unary function `fn`; `xLoc`, if
  /// given, receives where it was written.
  mlir::FailureOr<Val> unaryNumericArg(llvm::StringRef fn, const CallArgs &args,
                                       llvm::SMLoc loc,
                                       llvm::SMLoc *xLoc = nullptr);
  mlir::FailureOr<Val> builtinInlineAsm(const CallArgs &args, llvm::SMLoc loc);
  /// The built-ins written in the tile language (GenBuiltinsLibrary.cpp):
  /// the random numbers, softmax, swizzle2d, sort and topk, parsed on first
  /// use and inlined like helpers.
  mlir::FailureOr<Val> builtinLibrary(llvm::StringRef name,
                                     const CallArgs &args, llvm::SMLoc loc);
  const FunctionDef *libraryFunction(llvm::StringRef name);
  /// Whether the function being inlined is one of the random library's
  /// (whose names resolve among themselves).
  bool inLibrary() const;
  mlir::FailureOr<Val> builtinMath(llvm::StringRef name, const CallArgs &args,
                                   llvm::SMLoc loc);
  /// libdevice's conversions, predicates and fast_* functions.
  static bool isLibdeviceExtra(llvm::StringRef name);
  mlir::FailureOr<Val> builtinLibdevice(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinMinMax(llvm::StringRef name,
                                     const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinWhere(const CallArgs &args, llvm::SMLoc loc);
  mlir::FailureOr<Val> builtinDot(const CallArgs &args, llvm::SMLoc loc);
  /// `argLocs` locates a, b and acc for errors about one of them (the call
  /// `loc` where absent).
  mlir::FailureOr<llvm::SmallVector<Val>> batchSlices(const Val &x,
                                                      llvm::SMLoc at);
  mlir::FailureOr<Val> stackBatch(llvm::ArrayRef<Val> slices, llvm::SMLoc at);
  mlir::FailureOr<Val> batchedDot(const Val &a, const Val &bv,
                                  std::optional<Val> acc,
                                  std::optional<ScalarType> outType,
                                  mlir::tile::InputPrecision precision,
                                  llvm::SMLoc at,
                                  llvm::ArrayRef<llvm::SMLoc> argLocs);
  mlir::FailureOr<Val> dot(const Val &a, const Val &b, std::optional<Val> acc,
                           std::optional<ScalarType> outType,
                           mlir::tile::InputPrecision precision, llvm::SMLoc loc,
                           llvm::ArrayRef<llvm::SMLoc> argLocs = {});

  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  mlir::Location loc(llvm::SMLoc loc);
  mlir::LogicalResult error(llvm::SMLoc loc, const llvm::Twine &message);
  /// Constexpr argument helpers: report and fail when `v` is not of the kind.
  mlir::FailureOr<int64_t> requireInt(const std::optional<Val> &v,
                                      llvm::SMLoc loc, llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<int64_t, 4>>
  requireIntList(const std::optional<Val> &v, llvm::SMLoc loc,
                 llvm::StringRef what);
  mlir::FailureOr<ScalarType> requireDType(const std::optional<Val> &v,
                                           llvm::SMLoc loc,
                                           llvm::StringRef what);
  mlir::FailureOr<std::string> requireString(const std::optional<Val> &v,
                                             llvm::SMLoc loc,
                                             llvm::StringRef what);
  mlir::FailureOr<Val> requireRuntime(const Val &v, llvm::SMLoc loc,
                                      llvm::StringRef what);
  /// Report non-power-of-two or oversized block shapes.
  mlir::LogicalResult checkBlockShape(llvm::ArrayRef<int64_t> shape,
                                      llvm::SMLoc loc);
  /// Names defined in the current scope, the helpers and the built-ins.
  std::vector<std::string> visibleNames();

  mlir::ModuleOp module;
  const Module &ast;
  /// The module-level constants' values, evaluated on first use (every
  /// function of the module reads the same ones); `fn`'s module's, or none
  /// for a library helper.
  std::optional<llvm::StringMap<Val>> moduleConstantValues;
  const llvm::StringMap<Val> &moduleConstantsOf(const FunctionDef &fn);
  /// The module-level aliases being resolved (to report a cycle).
  llvm::StringSet<> resolvingAliases;
  DiagnosticEngine &diags;
  mlir::OpBuilder builder;
  std::string fileName;

  /// One inlined function: its variables and its return value.
  struct Frame {
    const FunctionDef *fn = nullptr;
    llvm::StringMap<Val> vars;
    /// Names that are out of scope here, with the reason ("defined only in
    /// one branch of the if at 12:5").
    llvm::StringMap<std::string> unavailable;
    /// Names a loop being generated cannot carry (None, a tuple): the error
    /// where its body assigns one (an assignment Triton's tracing never
    /// reaches, under a constexpr-false `if`, is no error).
    llvm::StringMap<std::string> fixedInLoop;
    std::optional<Val> returnValue;
    /// Depth of run-time control flow (scf ops) in this function.
    unsigned runtimeDepth = 0;
    /// What follows the run-time `if ...: return` being generated, and the
    /// ones around it: the rest of each enclosing statement list (index of
    /// the next statement), outermost first. A branch that does not
    /// return continues with them.
    std::vector<std::pair<const StmtList *, size_t>> rest;
    bool isKernel = false;
    /// Where this helper was called (invalid for the kernel).
    llvm::SMLoc callLoc;
  };
  std::deque<Frame> frames;
  Frame &frame() { return frames.back(); }
  const KernelInstance *instance = nullptr;
  /// Helper calls inlined into the current kernel so far. Helpers are
  /// inlined at every call, so a chain of helpers that each call the next
  /// twice grows exponentially; the budget stops it with an error.
  uint64_t inlinedCalls = 0;
  /// Argument numbers of pointer parameters the body tests against None
  /// (while `recordNoneTests`).
  llvm::SmallSetVector<unsigned, 4> noneTested;
  bool recordNoneTests = false;
  std::unique_ptr<Module> library;
  static constexpr uint64_t kMaxInlinedCalls = 100000;
};

} // namespace tilec

#endif // TILE_LIB_FRONTEND_GENERATOR_H
