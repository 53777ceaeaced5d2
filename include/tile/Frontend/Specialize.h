//===- Specialize.h - From command-line options to kernel instances -*- C++ -*-===//
//
// Decides which kernels to compile and with what: constexpr values from -D,
// @autotune configs and defaults; parameter types from annotations and
// --signature; num_warps/num_stages from options and configs. Also checks
// the decorators and renders the @grid expressions for the metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_SPECIALIZE_H
#define TILE_FRONTEND_SPECIALIZE_H

#include "tile/Frontend/MLIRGen.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilec {

struct SpecializeOptions {
  std::optional<std::string> kernel; // -k; none: every kernel
  std::vector<std::string> defines; // -D NAME=VALUE
  std::string signature;            // --signature "a=*fp16:16,M=i32"
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  bool allConfigs = false;
  /// Run-time arguments' values, read only by @heuristics (tilec --arg;
  /// the JIT and tile-run pass each launch's). A pointer is None when null
  /// and its dtype otherwise.
  std::vector<std::pair<std::string, Val>> argumentValues;
  /// The target's compute capability (the driver sets it from --arch).
  unsigned computeCapability = 90;
  /// The device's streaming multiprocessors, which `num_sms()` gives in
  /// @autotune configs (the JIT reads the device's; tilec --num-sms); 0:
  /// the architecture's flagship part (defaultNumSMs).
  unsigned numSMs = 0;
};

/// The SM count of the architecture's flagship part: 132 (H100 SXM, H200)
/// for sm_90, 108 (A100) for sm_80.
unsigned defaultNumSMs(unsigned computeCapability);

/// The SMs that `num_sms()` gives and a persistent launch counts on:
/// `options.numSMs`, or the flagship part's.
unsigned targetNumSMs(const SpecializeOptions &options);

/// One autotune config: constexpr bindings and launch options.
struct AutotuneConfig {
  std::vector<std::pair<std::string, Val>> constexprs;
  std::optional<unsigned> numWarps, numStages;
  /// Triton's `maxnreg`: registers per thread ptxas may use.
  std::optional<unsigned> maxRegisters;
  /// The pointer parameters the config's `pre_hook` zeroes before each
  /// launch (flash-attention's `pre_hook=init_to_zero("DQ")`).
  std::vector<std::string> zeroBeforeLaunch;
};

struct AutotuneSpec {
  std::vector<AutotuneConfig> configs;
  std::vector<std::string> key;
  /// Triton's `reset_to_zero` and `restore_value`: pointer parameters the
  /// kernel writes that timing a config must not leave changed.
  std::vector<std::string> resetToZero, restoreValue;
  /// prune_configs_by's early_config_prune, run where a launch's arguments
  /// are known (ConfigFilter.h); null without one.
  const FunctionDef *prune = nullptr;
};

/// A kernel instance plus what the metadata and launchers need.
struct PlannedKernel {
  KernelInstance instance;
  /// The @grid expressions with constexprs substituted (e.g.
  /// "cdiv(M, 128) * cdiv(N, 256)"); empty without @grid.
  std::vector<std::string> grid;
  /// The @grid expressions themselves, for launchers that evaluate them.
  std::vector<const Expr *> gridExprs;
  /// From the config and the @autotune (see AutotuneConfig, AutotuneSpec).
  std::vector<std::string> zeroBeforeLaunch, resetToZero, restoreValue;
};

/// Parse a `-D` value: an int, float, True/False, a dtype name, a quoted
/// string, a tuple; anything else is taken as a bare string. A value that
/// starts like a constant (a digit, a sign, a quote, '(' or '[') must be a
/// valid one: otherwise returns nullopt with `error` set (e.g. "integer
/// literal '99999999999999999999999' is too large").
std::optional<Val> parseDefineValue(llvm::StringRef text, std::string &error);

/// Parse a parameter type as written in --signature ("*fp16:16", "i32").
std::optional<ParamType> parseTypeString(llvm::StringRef text,
                                         std::string &error);

/// What a kernel's @jit(...) (Triton's keywords) asks of the JIT: the
/// run-time parameters not to specialize on their values (1, multiples of
/// 16) or addresses (16-byte alignment), and not on alignment only.
struct JitOptions {
  std::set<std::string> doNotSpecialize, doNotSpecializeOnAlignment;
  /// `debug=True`: the kernel keeps its device_asserts on the GPU.
  bool debug = false;
};

/// Read a function's @jit / @triton.jit keywords: `do_not_specialize` and
/// `do_not_specialize_on_alignment` (parameter names or positions) are
/// kept, and so is a constant `debug` (device_asserts on the GPU);
/// `noinline`, `repr`, `launch_metadata` and `version` are accepted (tilec
/// always inlines helpers and has no Python launcher to describe); anything
/// else is an error.
JitOptions readJitOptions(const FunctionDef &fn, DiagnosticEngine &diags,
                          bool &failed);

/// Read a kernel's @autotune decorator (nullopt if it has none); its
/// configs' `num_sms()` is `numSMs`. A filter of the configs
/// (`configs=list(filter(keep, configs))`) is applied here.
std::optional<AutotuneSpec> readAutotune(const FunctionDef &kernel,
                                         DiagnosticEngine &diags, bool &failed,
                                         unsigned numSMs);

/// Render a @grid expression with the constexprs of `instance` folded in.
std::optional<std::string> formatGridExpr(const Expr &expr,
                                          const FunctionDef &kernel,
                                          const KernelInstance &instance,
                                          DiagnosticEngine &diags);

/// Plan every kernel the options select. Reports errors and returns
/// nullopt when anything is wrong.
std::optional<std::vector<PlannedKernel>>
planKernels(const Module &ast, const SpecializeOptions &options,
            DiagnosticEngine &diags);

/// "*fp16", "i32", "constexpr" for the metadata.
std::string formatParamType(const ParamType &type);

} // namespace tilec

#endif // TILE_FRONTEND_SPECIALIZE_H
