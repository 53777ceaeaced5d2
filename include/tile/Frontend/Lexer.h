//===- Lexer.h - Tokenizer with Python indentation ---------------*- C++ -*-===//
//
// Turns a .tile buffer into tokens. Indentation becomes Indent/Dedent tokens,
// line breaks inside brackets and after `\` are joined, and comments vanish,
// as in Python. Errors (tabs in indentation, bad dedents, unterminated
// strings, stray characters) are reported to the DiagnosticEngine and the
// lexer recovers by skipping.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_LEXER_H
#define TILE_FRONTEND_LEXER_H

#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Token.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace tilec {

class Lexer {
public:
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diags);

  /// Lex the whole buffer. The last token is always Eof.
  std::vector<Token> lexAll();

private:
  Token next();
  void lexLineStart(std::vector<Token> &out);
  Token lexNumber();
  Token lexString();
  Token lexNameOrKeyword();
  Token lexOperator();
  Token make(TokenKind kind, const char *start);
  void error(const char *at, const llvm::Twine &message);

  llvm::StringRef buffer;
  const char *cur;
  DiagnosticEngine &diags;
  llvm::SmallVector<unsigned, 8> indentStack{0};
  llvm::SmallVector<const char *, 8> openBrackets;
  bool atLineStart = true;
};

bool isKeyword(llvm::StringRef word);

/// A string literal's text with Python's escapes (`\n`, `\t`, `\r`, `\0`,
/// `\\`, quotes, a backslash-newline) decoded; other escapes keep their
/// backslash.
std::string decodeStringEscapes(llvm::StringRef body);

} // namespace tilec

#endif // TILE_FRONTEND_LEXER_H
