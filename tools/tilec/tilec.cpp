#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
using namespace tilec;
static llvm::cl::opt<std::string> input(llvm::cl::Positional, llvm::cl::Required);
static llvm::cl::opt<std::string> emit("emit", llvm::cl::init("ast"));
int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv);
  auto buf = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!buf) return 1;
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
  DiagnosticEngine diags(sm);
  llvm::StringRef text = sm.getMemoryBuffer(id)->getBuffer();
  if (emit == "tokens") {
    Lexer lexer(text, diags);
    for (auto &t : lexer.lexAll()) {
      auto [l, c] = sm.getLineAndColumn(t.loc);
      llvm::outs() << l << ":" << c << " " << getTokenKindName(t.kind) << " '" << t.text << "'\n";
    }
    return diags.hadError();
  }
  auto m = parseSource(text, diags);
  if (!m) return 1;
  printAST(*m, llvm::outs());
  return 0;
}
