//===- Token.h - Tokens of the .tile language -------------------*- C++ -*-===//

#ifndef TILE_FRONTEND_TOKEN_H
#define TILE_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>
#include <string>

namespace tilec {

enum class TokenKind {
  Eof,
  Newline,
  Indent,
  Dedent,
  Name,
  Keyword,
  Int,
  Float,
  String,
  Op, // operators and punctuation, distinguished by text
  Error,
};

llvm::StringRef getTokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text; // the source spelling
  llvm::SMLoc loc;
  uint64_t intValue = 0;
  double floatValue = 0;
  std::string stringValue; // decoded string literal
  /// An f-string's text between its quotes, undecoded (the parser splits
  /// it into literal text and `{expressions}`); empty for other strings.
  llvm::StringRef formatBody;
  bool rawString = false; // r"..." (backslashes kept)
  bool isFormatString() const {
    return kind == TokenKind::String && formatBody.data();
  }

  bool is(TokenKind k) const { return kind == k; }
  bool isOp(llvm::StringRef op) const {
    return kind == TokenKind::Op && text == op;
  }
  bool isKeyword(llvm::StringRef kw) const {
    return kind == TokenKind::Keyword && text == kw;
  }
  bool isName(llvm::StringRef name) const {
    return kind == TokenKind::Name && text == name;
  }
};

} // namespace tilec

#endif // TILE_FRONTEND_TOKEN_H
