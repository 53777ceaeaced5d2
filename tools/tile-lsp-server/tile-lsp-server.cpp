//===- tile-lsp-server.cpp - Language server for .tile files --------------===//
//
// An LSP server on LLVM's LSP support library. Each open document is run
// through the compiler's front end (parse, specialization at the first
// @autotune config, MLIRGen and the tile-level passes), which gives:
//   - diagnostics: the compiler's own errors and notes, each over the
//     token at its location;
//   - hover: for a variable, what MLIRGen had for it at that point (its
//     type and shape, or its constexpr value), for a helper its signature,
//     for a tl.* name that it is a built-in;
//   - definition: helpers, parameters and variables (the assignment that
//     reaches the use, as MLIRGen saw it);
//   - completion: tl.* built-ins after `tl.`, otherwise helpers, variables
//     and keywords.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compiler.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Sema.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/Program.h"

#include <map>
#include <set>

using namespace llvm;
using namespace llvm::lsp;

namespace {

/// One occurrence of a variable as MLIRGen met it.
struct NameUse {
  unsigned offset; // in the document
  std::string name;
  bool assigned;
  std::string description;
};

/// What the front end says about one version of a document.
struct Analysis {
  std::vector<lsp::Diagnostic> diagnostics;
  std::vector<NameUse> uses; // sorted by offset
  /// Helpers and kernels, parameters: name -> (offset of the name, text).
  std::vector<std::tuple<std::string, unsigned, std::string>> functions;
  std::vector<std::tuple<std::string, unsigned, unsigned>>
      params; // name, offset, function offset
  /// Name tokens of the document, as (offset, length); the compiler's
  /// buffer they came from is gone after the analysis.
  std::vector<std::pair<unsigned, unsigned>> names;
  std::vector<unsigned> lineStarts;
};

std::vector<unsigned> lineStartsOf(StringRef text) {
  std::vector<unsigned> starts{0};
  for (unsigned i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      starts.push_back(i + 1);
  return starts;
}

lsp::Position positionOf(const Analysis &a, unsigned offset) {
  auto it = std::upper_bound(a.lineStarts.begin(), a.lineStarts.end(), offset);
  unsigned line = std::distance(a.lineStarts.begin(), it) - 1;
  return lsp::Position(line, offset - a.lineStarts[line]);
}

unsigned offsetOf(const Analysis &a, const lsp::Position &pos, size_t size) {
  if (pos.line < 0 || unsigned(pos.line) >= a.lineStarts.size())
    return size;
  return std::min<size_t>(a.lineStarts[pos.line] + pos.character, size);
}

/// The name token covering `offset`, as (offset, length).
std::optional<std::pair<unsigned, unsigned>> nameAt(const Analysis &a,
                                                    unsigned offset) {
  for (auto [start, length] : a.names)
    if (offset >= start && offset < start + length)
      return std::make_pair(start, length);
  return std::nullopt;
}

class Server {
public:
  void onInitialize(const InitializeParams &, Callback<json::Value> reply) {
    json::Object capabilities{
        {"textDocumentSync",
         json::Object{{"openClose", true}, {"change", 1}, {"save", true}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"completionProvider",
         json::Object{{"triggerCharacters", json::Array{"."}},
                      {"resolveProvider", false}}},
    };
    reply(json::Object{{"capabilities", std::move(capabilities)},
                       {"serverInfo", json::Object{{"name", "tile-lsp-server"},
                                                   {"version", "0.1.0"}}}});
  }
  void onInitialized(const InitializedParams &) {}
  void onShutdown(const NoParams &, Callback<std::nullptr_t> reply) {
    reply(nullptr);
  }
  void onExit(const NoParams &) {}

  void onOpen(const DidOpenTextDocumentParams &params) {
    update(params.textDocument.uri, params.textDocument.text,
           params.textDocument.version);
  }
  void onChange(const DidChangeTextDocumentParams &params) {
    std::string &text = documents[params.textDocument.uri.uri().str()];
    if (failed(TextDocumentContentChangeEvent::applyTo(params.contentChanges,
                                                       text)))
      return;
    update(params.textDocument.uri, std::string(text),
           params.textDocument.version);
  }
  void onClose(const DidCloseTextDocumentParams &params) {
    documents.erase(params.textDocument.uri.uri().str());
    analyses.erase(params.textDocument.uri.uri().str());
    publish(PublishDiagnosticsParams(params.textDocument.uri, 0));
  }

  void onHover(const TextDocumentPositionParams &params,
               Callback<std::optional<Hover>> reply) {
    std::string key = params.textDocument.uri.uri().str();
    auto doc = documents.find(key);
    if (doc == documents.end())
      return reply(std::nullopt);
    const Analysis &a = analyses[key];
    unsigned offset = offsetOf(a, params.position, doc->second.size());
    auto token = nameAt(a, offset);
    if (!token)
      return reply(std::nullopt);
    auto [start, length] = *token;
    std::string name = doc->second.substr(start, length);
    std::vector<std::string> lines;
    std::set<std::string> seen;
    for (const NameUse &use : a.uses)
      if (use.offset == start && seen.insert(use.description).second)
        lines.push_back(name + ": " + use.description);
    if (lines.empty())
      for (auto &[fn, at, text] : a.functions)
        if (fn == name)
          lines.push_back(text);
    if (lines.empty() && start >= 3 &&
        doc->second.compare(start - 3, 3, "tl.") == 0 &&
        tilec::isBuiltinName(name))
      lines.push_back("built-in tl." + name);
    if (lines.empty())
      return reply(std::nullopt);
    Hover hover(
        lsp::Range(positionOf(a, start), positionOf(a, start + length)));
    std::string text = "```tile\n";
    for (const std::string &line : lines)
      text += line + "\n";
    hover.contents.value = text + "```";
    reply(std::move(hover));
  }

  void onDefinition(const TextDocumentPositionParams &params,
                    Callback<std::vector<Location>> reply) {
    std::string key = params.textDocument.uri.uri().str();
    auto doc = documents.find(key);
    if (doc == documents.end())
      return reply(std::vector<Location>{});
    const Analysis &a = analyses[key];
    unsigned offset = offsetOf(a, params.position, doc->second.size());
    auto token = nameAt(a, offset);
    if (!token)
      return reply(std::vector<Location>{});
    auto [start, length] = *token;
    std::string name = doc->second.substr(start, length);
    auto location = [&](unsigned at) {
      return Location{
          params.textDocument.uri,
          lsp::Range(positionOf(a, at), positionOf(a, at + name.size()))};
    };
    for (auto &[fn, at, text] : a.functions)
      if (fn == name)
        return reply(std::vector<Location>{location(at)});
    // The function holding the use: the last one starting before it.
    unsigned fnStart = 0;
    for (auto &[fn, at, text] : a.functions)
      if (at <= start)
        fnStart = std::max(fnStart, at);
    // The last assignment before the use in that function, else its
    // parameter.
    std::optional<unsigned> best;
    for (const NameUse &use : a.uses)
      if (use.assigned && use.name == name && use.offset >= fnStart &&
          use.offset <= start && (!best || use.offset > *best))
        best = use.offset;
    if (!best)
      for (auto &[param, at, owner] : a.params)
        if (param == name && owner == fnStart)
          best = at;
    if (!best)
      return reply(std::vector<Location>{});
    reply(std::vector<Location>{location(*best)});
  }

  void onCompletion(const CompletionParams &params,
                    Callback<CompletionList> reply) {
    std::string key = params.textDocument.uri.uri().str();
    auto doc = documents.find(key);
    CompletionList list;
    if (doc == documents.end())
      return reply(std::move(list));
    const Analysis &a = analyses[key];
    StringRef text = doc->second;
    unsigned offset = offsetOf(a, params.position, text.size());
    StringRef before = text.take_front(offset);
    StringRef word = before.take_back(
        before.size() -
        before.find_last_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") -
        1);
    bool member = before.drop_back(word.size()).ends_with("tl.");
    if (member) {
      learnBuiltinSignatures();
      for (const std::string &name : tilec::getBuiltinNames()) {
        CompletionItem item(name, CompletionItemKind::Function);
        std::optional<std::string> params = tilec::getBuiltinSignature(name);
        item.detail = params ? "tl." + name + "(" + *params + ")"
                             : "tl." + name + " (built-in)";
        list.items.push_back(std::move(item));
      }
      return reply(std::move(list));
    }
    std::set<std::string> names;
    for (auto &[fn, at, sig] : a.functions) {
      if (names.insert(fn).second) {
        CompletionItem item(fn, CompletionItemKind::Function);
        item.detail = sig;
        list.items.push_back(std::move(item));
      }
    }
    for (const NameUse &use : a.uses)
      if (names.insert(use.name).second) {
        CompletionItem item(use.name, CompletionItemKind::Variable);
        item.detail = use.description;
        list.items.push_back(std::move(item));
      }
    for (const char *kw : {"def", "kernel", "if", "elif", "else", "for",
                           "while", "return", "in", "range", "tl"})
      if (names.insert(kw).second)
        list.items.push_back(CompletionItem(kw, CompletionItemKind::Keyword));
    reply(std::move(list));
  }

  OutgoingNotification<PublishDiagnosticsParams> publish;

private:
  /// The compiler records a built-in's parameters where it binds a call of
  /// it; a call of each without arguments, then with a block (for those
  /// that look at their first argument before binding the rest), compiled
  /// once and rejected, teaches it all of them.
  void learnBuiltinSignatures() {
    if (learnedSignatures)
      return;
    learnedSignatures = true;
    for (const char *args : {"", "tl.zeros([16], dtype=tl.float32)"})
      for (const std::string &name : tilec::getBuiltinNames()) {
        if (tilec::getBuiltinSignature(name))
          continue;
        tilec::CompilerSession session(tilec::CompileOptions(), nulls());
        session.loadSource("probe.tile", "kernel probe():\n    tl." + name +
                                             "(" + args + ")\n");
        if (session.parse())
          session.generate();
      }
  }
  bool learnedSignatures = false;

  void update(const URIForFile &uri, std::string text, int64_t version) {
    std::string key = uri.uri().str();
    documents[key] = std::move(text);
    analyses[key] = analyze(documents[key]);
    PublishDiagnosticsParams params(uri, version);
    params.diagnostics = analyses[key].diagnostics;
    publish(params);
  }

  Analysis analyze(const std::string &text) {
    Analysis a;
    a.lineStarts = lineStartsOf(text);
    const char *base = nullptr;
    tilec::CompileOptions options;
    std::vector<NameUse> *uses = &a.uses;
    options.nameObserver = [&base, uses](SMLoc loc, StringRef name,
                                         bool assigned, const tilec::Val &v) {
      if (!base || !loc.isValid())
        return;
      std::string description =
          v.isConstexpr() && v.getKind() != tilec::Val::Kind::Tuple
              ? "constexpr = " + v.repr()
              : v.describe();
      uses->push_back({unsigned(loc.getPointer() - base), name.str(), assigned,
                       description});
    };
    tilec::CompilerSession session(std::move(options), nulls());
    session.loadSource("document.tile", text);
    StringRef source = session.getSource();
    base = source.data();
    session.getDiagnostics().setHandler(
        [&](SMLoc loc, SourceMgr::DiagKind kind, const std::string &message) {
          lsp::Diagnostic d;
          d.source = "tilec";
          d.message = message;
          d.severity = kind == SourceMgr::DK_Error
                           ? lsp::DiagnosticSeverity::Error
                       : kind == SourceMgr::DK_Warning
                           ? lsp::DiagnosticSeverity::Warning
                           : lsp::DiagnosticSeverity::Information;
          unsigned at = loc.isValid() ? loc.getPointer() - base : 0;
          unsigned end = at + 1;
          if (auto token = nameAt(a, at))
            end = token->first + token->second;
          d.range = lsp::Range(positionOf(a, at), positionOf(a, end));
          a.diagnostics.push_back(std::move(d));
        });
    // Tokens first (their own errors are the lexer's), then the rest.
    {
      tilec::DiagnosticEngine quiet(session.getDiagnostics().getSourceMgr(),
                                    nulls());
      tilec::Lexer lexer(source, quiet);
      for (const tilec::Token &t : lexer.lexAll())
        if (t.kind == tilec::TokenKind::Name)
          a.names.emplace_back(t.loc.getPointer() - base, t.text.size());
    }
    if (const tilec::Module *ast = session.parse()) {
      for (const auto &fn : ast->functions) {
        unsigned fnAt = fn->loc.isValid() ? fn->loc.getPointer() - base : 0;
        // The name follows `def`/`kernel`: find it in the tokens.
        for (auto [at, length] : a.names)
          if (at >= fnAt && source.substr(at, length) == fn->name) {
            fnAt = at;
            break;
          }
        std::string sig = (fn->isKernel ? "kernel " : "def ") + fn->name + "(";
        for (auto [i, p] : llvm::enumerate(fn->params)) {
          sig += (i ? ", " : "") + p.name;
          if (p.type)
            sig += ": " + tilec::formatParamType(*p.type);
          if (p.loc.isValid())
            a.params.emplace_back(p.name, unsigned(p.loc.getPointer() - base),
                                  fnAt);
        }
        a.functions.emplace_back(fn->name, fnAt, sig + ")");
      }
      session.generate();
    }
    llvm::sort(a.uses, [](const NameUse &x, const NameUse &y) {
      return x.offset < y.offset;
    });
    return a;
  }

  std::map<std::string, std::string> documents;
  std::map<std::string, Analysis> analyses;
};

} // namespace

int main(int argc, char **argv) {
  cl::opt<bool> litTest("lit-test",
                        cl::desc("Delimited input, pretty output, test:// "
                                 "URIs (for lit tests)"));
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-lsp-server: .tile language server\n");
  if (litTest)
    URIForFile::registerSupportedScheme("test");
  Logger::setLogLevel(Logger::Level::Error);
  llvm::sys::ChangeStdinToBinary();
  JSONTransport transport(stdin, outs(),
                          litTest ? JSONStreamStyle::Delimited
                                  : JSONStreamStyle::Standard,
                          /*PrettyOutput=*/litTest);
  MessageHandler handler(transport);
  Server server;
  handler.method("initialize", &server, &Server::onInitialize);
  handler.notification("initialized", &server, &Server::onInitialized);
  handler.method("shutdown", &server, &Server::onShutdown);
  handler.notification("textDocument/didOpen", &server, &Server::onOpen);
  handler.notification("textDocument/didChange", &server, &Server::onChange);
  handler.notification("textDocument/didClose", &server, &Server::onClose);
  handler.method("textDocument/hover", &server, &Server::onHover);
  handler.method("textDocument/definition", &server, &Server::onDefinition);
  handler.method("textDocument/completion", &server, &Server::onCompletion);
  server.publish = handler.outgoingNotification<PublishDiagnosticsParams>(
      "textDocument/publishDiagnostics");
  if (Error e = transport.run(handler)) {
    // The client closing the input after `exit` ends the session.
    consumeError(std::move(e));
  }
  return 0;
}
