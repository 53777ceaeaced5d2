//===- tile-fuzz.cpp - libFuzzer target for the whole pipeline ------------===//
//
// Feeds each input, as a .tile source, through every stage of a
// CompilerSession up to PTX, in process (lexer, parser, specialization,
// MLIRGen, the tile and gpu passes, LLVM IR and the NVPTX back end).
// Diagnostics go to a string, never to the terminal.
//
// Besides crashes, hangs and sanitizer reports, the target treats as
// findings what the compiler promises not to do (see Compiler.h):
//   - a stage that fails without reporting an error;
//   - an internal error (a compiler bug, not a user error): a message that
//     says "internal error", "failed without a diagnostic", "does not
//     verify" or "failed to legalize";
//   - a successful compilation that produces no PTX.
// Set TILE_FUZZ_ALLOW_INTERNAL_ERRORS=1 to ignore internal errors.
//
// Most kernels take constexpr block sizes without defaults. When the first
// attempt fails only because some have no value, a second one binds every
// such parameter: common names (BLOCK, BLOCK_M, ...) to the sizes of the
// examples, any other name to 16, so that mutations of those kernels reach
// the back end too.
//
// Built only with -DTILE_FUZZ=ON and clang; bench/fuzz.sh builds and runs it.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compiler.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace tilec;

namespace {

/// The value the second attempt binds to a constexpr parameter `name`.
std::string defaultConstexprValue(llvm::StringRef name) {
  static const llvm::StringMap<const char *> known = {
      {"BLOCK", "64"},      {"BLOCK_SIZE", "64"}, {"BLOCK_M", "32"},
      {"BLOCK_N", "32"},    {"BLOCK_K", "16"},    {"GROUP_M", "8"},
      {"GROUP_SIZE_M", "8"}, {"BLOCK_SIZE_M", "32"}, {"BLOCK_SIZE_N", "32"},
      {"BLOCK_SIZE_K", "16"}, {"ACTIVATION", "\"\""}};
  auto it = known.find(name);
  return it != known.end() ? it->second : "16";
}

[[noreturn]] void finding(llvm::StringRef what, llvm::StringRef diagnostics) {
  llvm::errs() << "tile-fuzz: " << what << "\n--- diagnostics ---\n"
               << diagnostics << "--- end of diagnostics ---\n";
  llvm::errs().flush();
  abort();
}

/// Whether `line` is a diagnostic's first line: a location (or none) and
/// the severity. Those with a source location are followed by the source
/// line they point at, which may say anything.
bool isDiagnosticHeader(llvm::StringRef line) {
  static const llvm::Regex header(
      "^([^ :]+:[0-9]+:[0-9]+: |<unknown>:[0-9]+: )?(error|warning|note): ");
  return header.match(line);
}

/// Whether an error message (not an echoed source line, whatever that line
/// says: the fuzzer's sources hold "error: " and "failed to legalize" too)
/// says the compiler itself went wrong.
bool hasInternalError(llvm::StringRef diagnostics) {
  llvm::SmallVector<llvm::StringRef> lines;
  diagnostics.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!isDiagnosticHeader(line))
      continue;
    size_t at = line.find("error: ");
    if (at == llvm::StringRef::npos)
      continue;
    llvm::StringRef message = line.drop_front(at);
    for (const char *sign :
         {"internal error", "failed without a diagnostic", "does not verify",
          "failed to legalize"})
      if (message.contains(sign))
        return true;
  }
  return false;
}

/// Compile `source` to PTX with `defines`. Returns whether it succeeded;
/// the diagnostics are left in `diagnostics` and the constexpr parameters
/// without a value or default in `unbound`.
bool compile(llvm::StringRef source, const std::vector<std::string> &defines,
             std::string &diagnostics, std::set<std::string> *unbound) {
  CompileOptions options;
  // A pass that breaks the IR is caught at that pass.
  options.verifyEachPass = true;
  options.specialize.defines = defines;
  llvm::raw_string_ostream os(diagnostics);
  CompilerSession session(options, os);
  session.loadSource("fuzz.tile", source);
  DiagnosticEngine &diags = session.getDiagnostics();
  auto check = [&](bool ok, llvm::StringRef stage) {
    if (!ok && !diags.hadError())
      finding(("the " + stage + " stage failed without an error").str(),
              diagnostics);
    if (hasInternalError(diagnostics) &&
        !getenv("TILE_FUZZ_ALLOW_INTERNAL_ERRORS"))
      finding("an internal error was reported", diagnostics);
    return ok;
  };

  bool ok = check(session.generate(), "generate");
  if (!ok && unbound) {
    if (const Module *ast = session.parse())
      for (const auto &f : ast->functions)
        if (f->isKernel)
          for (const Param &p : f->params)
            if (p.isConstexpr() && !p.defaultValue)
              unbound->insert(p.name);
  }
  if (!ok)
    return false;
  if (!check(session.lowerToGPU(), "lowerToGPU"))
    return false;
  if (!check(session.lowerToLLVM(), "lowerToLLVM"))
    return false;
  std::optional<std::string> ptx = session.emitPTX();
  if (!check(ptx.has_value(), "emitPTX"))
    return false;
  if (ptx->empty())
    finding("compilation succeeded with empty PTX", diagnostics);
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  std::string diagnostics;
  std::set<std::string> unbound;
  if (compile(source, {}, diagnostics, &unbound))
    return 0;
  if (unbound.empty() ||
      !llvm::StringRef(diagnostics).contains("has no value; pass -D"))
    return 0;
  std::vector<std::string> defines;
  for (const std::string &name : unbound)
    defines.push_back(name + "=" + defaultConstexprValue(name));
  diagnostics.clear();
  compile(source, defines, diagnostics, nullptr);
  return 0;
}
