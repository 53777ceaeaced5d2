//===- ParserUtil.h - Helpers shared by the parser's files ---------------===//
//
// Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_PARSERUTIL_H
#define TILE_LIB_FRONTEND_PARSERUTIL_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Token.h"

#include "llvm/ADT/StringSwitch.h"

#include <optional>

namespace tilec {

/// Counts nesting depth for the lifetime of a parse function.
struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
};

/// The operator of an augmented assignment (`+=`, `<<=`, ...).
inline std::optional<BinaryOp> augmentedOp(const Token &tok) {
  if (tok.kind != TokenKind::Op)
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BinaryOp>>(tok.text)
      .Case("+=", BinaryOp::Add)
      .Case("-=", BinaryOp::Sub)
      .Case("*=", BinaryOp::Mul)
      .Case("/=", BinaryOp::Div)
      .Case("//=", BinaryOp::FloorDiv)
      .Case("%=", BinaryOp::Mod)
      .Case("**=", BinaryOp::Pow)
      .Case("&=", BinaryOp::BitAnd)
      .Case("|=", BinaryOp::BitOr)
      .Case("^=", BinaryOp::BitXor)
      .Case("<<=", BinaryOp::Shl)
      .Case(">>=", BinaryOp::Shr)
      .Case("@=", BinaryOp::MatMul)
      .Default(std::nullopt);
}

/// How a token changes the nesting of brackets: +1 opening, -1 closing.
inline int bracketDelta(const Token &t) {
  if (t.isOp("(") || t.isOp("[") || t.isOp("{"))
    return 1;
  if (t.isOp(")") || t.isOp("]") || t.isOp("}"))
    return -1;
  return 0;
}

} // namespace tilec

#endif // TILE_LIB_FRONTEND_PARSERUTIL_H
