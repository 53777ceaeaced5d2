//===- Diagnostics.h - Source-located errors for the frontend ---*- C++ -*-===//
//
// Every frontend error is reported as `file:line:col: error: message`
// followed by the source line and a caret (clang style), through
// llvm::SourceMgr. The engine remembers whether an error was reported so the
// drivers can exit with status 1.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_DIAGNOSTICS_H
#define TILE_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <vector>

namespace tilec {

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                            llvm::raw_ostream &os = llvm::errs())
      : sourceMgr(sourceMgr), os(os) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message);
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  /// Something tilec ignores that a user should know of; not an error.
  void warning(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error with no source position (e.g. a bad command-line option).
  void error(const llvm::Twine &message);

  /// Receives each located error and note instead of the stream (an
  /// editor's diagnostics: tile-lsp-server).
  using Handler = std::function<void(llvm::SMLoc, llvm::SourceMgr::DiagKind,
                                     const std::string &)>;
  void setHandler(Handler h) { handler = std::move(h); }

  /// An attempt that may be abandoned (a kernel version that need not
  /// compile): from hold() to release(), diagnostics are dropped, and
  /// release() restores the error count as it was.
  struct Held {
    Handler handler;
    unsigned errorCount;
  };
  Held hold() {
    Held held{std::move(handler), errorCount};
    handler = [](llvm::SMLoc, llvm::SourceMgr::DiagKind, const std::string &) {
    };
    return held;
  }
  void release(Held held) {
    handler = std::move(held.handler);
    errorCount = held.errorCount;
  }

  bool hadError() const { return errorCount != 0; }
  unsigned getErrorCount() const { return errorCount; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

  /// Line and column (1-based) of a location.
  std::pair<unsigned, unsigned> getLineAndColumn(llvm::SMLoc loc) const;
  /// Name of the buffer holding `loc`.
  llvm::StringRef getBufferName(llvm::SMLoc loc) const;

  /// After this many errors further ones are dropped.
  static constexpr unsigned kMaxErrors = 20;

private:
  /// A note or warning: no error, dropped past kMaxErrors.
  void report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
              const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  Handler handler;
  unsigned errorCount = 0;
};

/// The closest candidate to `name` within a small edit distance, or "".
std::string suggestName(llvm::StringRef name,
                        llvm::ArrayRef<std::string> candidates);

} // namespace tilec

#endif // TILE_FRONTEND_DIAGNOSTICS_H
