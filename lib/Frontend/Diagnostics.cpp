//===- Diagnostics.cpp - Source-located errors ----------------------------===//

#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  if (++errorCount > kMaxErrors)
    return;
  if (handler)
    return handler(loc, llvm::SourceMgr::DK_Error, message.str());
  sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Error, message, {}, {},
                         /*ShowColors=*/false);
  if (errorCount == kMaxErrors)
    os << "note: too many errors; stopping here\n";
}

void DiagnosticEngine::report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                              const llvm::Twine &message) {
  if (errorCount > kMaxErrors)
    return;
  if (handler)
    return handler(loc, kind, message.str());
  sourceMgr.PrintMessage(os, loc, kind, message, {}, {},
                         /*ShowColors=*/false);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  report(loc, llvm::SourceMgr::DK_Note, message);
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message) {
  report(loc, llvm::SourceMgr::DK_Warning, message);
}

void DiagnosticEngine::error(const llvm::Twine &message) {
  ++errorCount;
  if (handler)
    return handler(llvm::SMLoc(), llvm::SourceMgr::DK_Error, message.str());
  os << "error: " << message << "\n";
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}

llvm::StringRef DiagnosticEngine::getBufferName(llvm::SMLoc loc) const {
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  if (!id)
    return "<unknown>";
  return sourceMgr.getMemoryBuffer(id)->getBufferIdentifier();
}

std::string tilec::suggestName(llvm::StringRef name,
                               llvm::ArrayRef<std::string> candidates) {
  std::string best;
  unsigned bestDistance = std::max<unsigned>(1, name.size() / 3) + 1;
  for (const std::string &candidate : candidates) {
    if (candidate == name)
      continue;
    unsigned d = name.edit_distance(candidate, /*AllowReplacements=*/true,
                                    bestDistance);
    // Case-only differences count as close.
    if (llvm::StringRef(candidate).equals_insensitive(name))
      d = 1;
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}
