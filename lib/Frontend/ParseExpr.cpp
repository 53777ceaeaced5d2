//===- ParseExpr.cpp - Expressions of the tile language ------------------===//
//
// Python's expression grammar as the language uses it: precedence
// climbing from lambdas and conditional expressions down to atoms,
// calls, subscripts, comprehensions and string literals.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"

#include "ParserUtil.h"
#include "tile/Frontend/Lexer.h"

using namespace tilec;

ExprPtr Parser::parseStandaloneExpr() {
  ExprPtr e = parseExprList();
  if (!e)
    return nullptr;
  while (peek().is(TokenKind::Newline))
    consume();
  if (!peek().is(TokenKind::Eof)) {
    fail(peek(), "unexpected " + describe(peek()) + " after the expression");
    return nullptr;
  }
  return e;
}

ExprPtr Parser::parseExprList() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseExpr();
  if (!first || !peek().isOp(","))
    return first;
  std::vector<ExprPtr> elements;
  elements.push_back(std::move(first));
  while (consumeIfOp(",")) {
    const Token &t = peek();
    if (t.is(TokenKind::Newline) || t.is(TokenKind::Eof) || t.isOp("=") ||
        t.isOp(")") || t.isOp(";") || augmentedOp(t))
      break;
    ExprPtr e = parseExpr();
    if (!e)
      return nullptr;
    elements.push_back(std::move(e));
  }
  return std::make_unique<TupleExpr>(loc, std::move(elements));
}

ExprPtr Parser::parseExpr() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  if (peek().isKeyword("lambda"))
    return parseLambda();
  ExprPtr value = parseOr();
  if (!value || !peek().isKeyword("if"))
    return value;
  llvm::SMLoc loc = consume().loc;
  ExprPtr cond = parseOr();
  if (!cond)
    return nullptr;
  if (!consumeIfKeyword("else")) {
    fail(peek(), "expected 'else' in conditional expression, found " +
                     describe(peek()));
    return nullptr;
  }
  ExprPtr other = parseExpr();
  if (!other)
    return nullptr;
  return std::make_unique<IfExpExpr>(loc, std::move(cond), std::move(value),
                                     std::move(other));
}

/// `lambda a, b: body` (the values of @heuristics).
ExprPtr Parser::parseLambda() {
  llvm::SMLoc loc = consume().loc;
  std::vector<std::string> params;
  while (!peek().isOp(":")) {
    const Token &t = peek();
    if (!t.is(TokenKind::Name)) {
      fail(t,
           "expected a parameter name or ':' in lambda, found " + describe(t));
      return nullptr;
    }
    params.push_back(consume().text.str());
    if (!consumeIfOp(","))
      break;
  }
  if (!expectOp(":", "after the lambda's parameters"))
    return nullptr;
  ExprPtr body = parseExpr();
  if (!body)
    return nullptr;
  return std::make_unique<LambdaExpr>(loc, std::move(params), std::move(body));
}

ExprPtr Parser::parseOr() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseAnd();
  if (!first || !peek().isKeyword("or"))
    return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consumeIfKeyword("or")) {
    ExprPtr e = parseAnd();
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc, false, std::move(values));
}

ExprPtr Parser::parseAnd() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseNot();
  if (!first || !peek().isKeyword("and"))
    return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consumeIfKeyword("and")) {
    ExprPtr e = parseNot();
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc, true, std::move(values));
}

ExprPtr Parser::parseNot() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  if (peek().isKeyword("not")) {
    llvm::SMLoc loc = consume().loc;
    ExprPtr operand = parseNot();
    if (!operand)
      return nullptr;
    return std::make_unique<UnaryExpr>(loc, UnaryOp::Not, std::move(operand));
  }
  return parseComparison();
}

ExprPtr Parser::parseComparison() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseBitOr();
  if (!first)
    return nullptr;
  std::unique_ptr<CompareExpr> cmp;
  while (true) {
    const Token &t = peek();
    std::optional<CompareOp> op;
    if (t.isOp("<"))
      op = CompareOp::Lt;
    else if (t.isOp(">"))
      op = CompareOp::Gt;
    else if (t.isOp("<="))
      op = CompareOp::Le;
    else if (t.isOp(">="))
      op = CompareOp::Ge;
    else if (t.isOp("=="))
      op = CompareOp::Eq;
    else if (t.isOp("!="))
      op = CompareOp::Ne;
    else if (t.isKeyword("in"))
      op = CompareOp::In;
    else if (t.isKeyword("is"))
      op = peek(1).isKeyword("not") ? CompareOp::IsNot : CompareOp::Is;
    else if (t.isKeyword("not") && peek(1).isKeyword("in"))
      op = CompareOp::NotIn;
    if (!op)
      break;
    consume();
    if (*op == CompareOp::IsNot || *op == CompareOp::NotIn)
      consume();
    ExprPtr rhs = parseBitOr();
    if (!rhs)
      return nullptr;
    if (!cmp)
      cmp = std::make_unique<CompareExpr>(loc, std::move(first));
    cmp->rest.emplace_back(*op, std::move(rhs));
  }
  if (cmp)
    return cmp;
  return first;
}

#define TILE_BINARY_LEVEL(NAME, NEXT, ...)                                     \
  ExprPtr Parser::NAME() {                                                     \
    static const std::pair<const char *, BinaryOp> ops[] = {__VA_ARGS__};      \
    ExprPtr lhs = NEXT();                                                      \
    for (unsigned length = 0; lhs; ++length) {                                 \
      std::optional<BinaryOp> op;                                              \
      for (auto &[spelling, kind] : ops)                                       \
        if (peek().isOp(spelling))                                             \
          op = kind;                                                           \
      if (!op)                                                                 \
        break;                                                                 \
      if (length > kMaxChain) {                                                \
        fail(peek(), "expression is too long");                                \
        return nullptr;                                                        \
      }                                                                        \
      llvm::SMLoc loc = consume().loc;                                         \
      ExprPtr rhs = NEXT();                                                    \
      if (!rhs)                                                                \
        return nullptr;                                                        \
      lhs = std::make_unique<BinaryExpr>(loc, *op, std::move(lhs),             \
                                         std::move(rhs));                      \
    }                                                                          \
    return lhs;                                                                \
  }

TILE_BINARY_LEVEL(parseBitOr, parseBitXor, {"|", BinaryOp::BitOr})
TILE_BINARY_LEVEL(parseBitXor, parseBitAnd, {"^", BinaryOp::BitXor})
TILE_BINARY_LEVEL(parseBitAnd, parseShift, {"&", BinaryOp::BitAnd})
TILE_BINARY_LEVEL(parseShift, parseArith, {"<<", BinaryOp::Shl},
                  {">>", BinaryOp::Shr})
TILE_BINARY_LEVEL(parseArith, parseTerm, {"+", BinaryOp::Add},
                  {"-", BinaryOp::Sub})
TILE_BINARY_LEVEL(parseTerm, parseFactor, {"*", BinaryOp::Mul},
                  {"/", BinaryOp::Div}, {"//", BinaryOp::FloorDiv},
                  {"%", BinaryOp::Mod}, {"@", BinaryOp::MatMul})
#undef TILE_BINARY_LEVEL

ExprPtr Parser::parseFactor() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  const Token &t = peek();
  std::optional<UnaryOp> op;
  if (t.isOp("-"))
    op = UnaryOp::Neg;
  else if (t.isOp("+"))
    op = UnaryOp::Pos;
  else if (t.isOp("~"))
    op = UnaryOp::Invert;
  if (!op)
    return parsePower();
  llvm::SMLoc loc = consume().loc;
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc, *op, std::move(operand));
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!base || !peek().isOp("**"))
    return base;
  llvm::SMLoc loc = consume().loc;
  ExprPtr exponent = parseFactor(); // right-associative, binds unary minus
  if (!exponent)
    return nullptr;
  return std::make_unique<BinaryExpr>(loc, BinaryOp::Pow, std::move(base),
                                      std::move(exponent));
}

bool Parser::parseCallArgs(std::vector<ExprPtr> &args,
                           std::vector<KeywordArg> &keywords) {
  // '(' already consumed.
  while (!peek().isOp(")")) {
    const Token &t = peek();
    if (t.isOp("*") || t.isOp("**"))
      return fail(t, "argument unpacking is not supported");
    if (t.is(TokenKind::Name) && peek(1).isOp("=")) {
      KeywordArg kw;
      kw.name = t.text.str();
      kw.loc = t.loc;
      consume();
      consume();
      for (const KeywordArg &other : keywords)
        if (other.name == kw.name)
          return fail(t, "keyword argument '" + kw.name + "' repeated");
      kw.value = parseExpr();
      if (!kw.value)
        return false;
      keywords.push_back(std::move(kw));
    } else {
      if (!keywords.empty())
        return fail(t, "positional argument follows keyword argument");
      ExprPtr e = parseExpr();
      if (!e)
        return false;
      // A generator as the only argument (`all(k % B == 0 for k in ks)`):
      // evaluated as the list it yields, which every consumer of an
      // iterable (all, any, sum, min, max, tuple, list) reads alike.
      if (peek().isKeyword("for")) {
        if (!args.empty())
          return fail(peek(), "a generator expression must be the only "
                              "argument unless parenthesized");
        llvm::SMLoc at = e->getLoc();
        e = parseListComprehension(at, std::move(e), /*close=*/"");
        if (!e)
          return false;
        args.push_back(std::move(e));
        if (!peek().isOp(")"))
          return fail(peek(), "a generator expression must be the only "
                              "argument unless parenthesized");
        break;
      }
      args.push_back(std::move(e));
    }
    if (!consumeIfOp(","))
      break;
  }
  return expectOp(")", "to close the argument list");
}

ExprPtr Parser::parseSubscriptItem() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr lower, upper, step;
  auto atItemEnd = [&] { return peek().isOp(",") || peek().isOp("]"); };
  if (!peek().isOp(":")) {
    lower = parseExpr();
    if (!lower || !peek().isOp(":"))
      return lower;
  }
  consume(); // ':'
  if (!atItemEnd() && !peek().isOp(":")) {
    upper = parseExpr();
    if (!upper)
      return nullptr;
  }
  if (consumeIfOp(":") && !atItemEnd()) {
    step = parseExpr();
    if (!step)
      return nullptr;
  }
  return std::make_unique<SliceExpr>(loc, std::move(lower), std::move(upper),
                                     std::move(step));
}

ExprPtr Parser::parsePrimary() {
  ExprPtr e = parseAtom();
  for (unsigned length = 0; e; ++length) {
    if (length > kMaxChain) {
      fail(peek(), "expression is too long");
      return nullptr;
    }
    if (peek().isOp("(")) {
      // A call is located at the start of its callee (the 't' of
      // 'tl.load(...)'), as in Python; arguments have their own locations.
      consume();
      llvm::SMLoc loc = e->getLoc();
      std::vector<ExprPtr> args;
      std::vector<KeywordArg> keywords;
      if (!parseCallArgs(args, keywords))
        return nullptr;
      e = std::make_unique<CallExpr>(loc, std::move(e), std::move(args),
                                     std::move(keywords));
    } else if (peek().isOp("[")) {
      llvm::SMLoc loc = consume().loc;
      std::vector<ExprPtr> indices;
      while (!peek().isOp("]")) {
        ExprPtr item = parseSubscriptItem();
        if (!item)
          return nullptr;
        indices.push_back(std::move(item));
        if (!consumeIfOp(","))
          break;
      }
      if (indices.empty()) {
        fail(peek(), "expected an index inside '[]'");
        return nullptr;
      }
      if (!expectOp("]", "to close the subscript"))
        return nullptr;
      e = std::make_unique<SubscriptExpr>(loc, std::move(e),
                                          std::move(indices));
    } else if (peek().isOp(".")) {
      consume();
      const Token &name = peek();
      if (!name.is(TokenKind::Name)) {
        fail(name,
             "expected an attribute name after '.', found " + describe(name));
        return nullptr;
      }
      consume();
      llvm::SMLoc loc = e->getLoc();
      e = std::make_unique<AttributeExpr>(loc, std::move(e), name.text.str(),
                                          name.loc);
    } else {
      break;
    }
  }
  return e;
}

/// The clauses of `[element for ... in ... if ... ...]` after `element`,
/// and the closing bracket. As in Python, an iterable or a condition is an
/// `or` expression, so that `if` after it starts a filter.
ExprPtr Parser::parseListComprehension(llvm::SMLoc loc, ExprPtr element,
                                       llvm::StringRef close) {
  std::vector<ListCompExpr::Clause> clauses;
  while (peek().isKeyword("for")) {
    ListCompExpr::Clause clause;
    clause.loc = consume().loc;
    clause.target = parseForTarget();
    if (!clause.target)
      return nullptr;
    clause.iter = parseOr();
    if (!clause.iter)
      return nullptr;
    while (peek().isKeyword("if")) {
      consume();
      ExprPtr cond = parseOr();
      if (!cond)
        return nullptr;
      clause.conditions.push_back(std::move(cond));
    }
    clauses.push_back(std::move(clause));
  }
  if (!close.empty() &&
      !expectOp(close, close == "]" ? "to close the list comprehension"
                                    : "to close the generator expression"))
    return nullptr;
  return std::make_unique<ListCompExpr>(loc, std::move(element),
                                        std::move(clauses));
}

/// Adjacent string literals, concatenated as in Python. An f-string's
/// `{expr!c:spec}` fields become `format(expr, "spec")` (with `str()` or
/// `repr()` for `!s` / `!r`) joined by `+`, which is what Python computes;
/// Triton evaluates them while tracing, so they need compile-time values.
ExprPtr Parser::parseStrings() {
  llvm::SMLoc loc = peek().loc;
  std::vector<ExprPtr> parts;
  std::string literal;
  auto flushLiteral = [&] {
    if (!literal.empty())
      parts.push_back(std::make_unique<StrExpr>(loc, std::move(literal)));
    literal.clear();
  };
  while (peek().is(TokenKind::String)) {
    const Token &tok = consume();
    if (!tok.isFormatString()) {
      literal += tok.stringValue;
      continue;
    }
    llvm::StringRef body = tok.formatBody;
    auto failAt = [&](const char *at, const llvm::Twine &message) {
      Token where = tok;
      where.loc = llvm::SMLoc::getFromPointer(at);
      fail(where, message);
      return nullptr;
    };
    size_t textStart = 0;
    auto addText = [&](size_t end) {
      llvm::StringRef text = body.slice(textStart, end);
      literal += tok.rawString ? text.str() : decodeStringEscapes(text);
    };
    for (size_t i = 0; i < body.size(); ++i) {
      char c = body[i];
      if (c == '\\' && !tok.rawString) {
        ++i;
        continue;
      }
      if (c == '}') {
        if (i + 1 < body.size() && body[i + 1] == '}') {
          addText(i + 1);
          textStart = ++i + 1;
          continue;
        }
        return failAt(body.data() + i, "f-string: single '}' is not allowed");
      }
      if (c != '{')
        continue;
      if (i + 1 < body.size() && body[i + 1] == '{') {
        addText(i + 1);
        textStart = ++i + 1;
        continue;
      }
      addText(i);
      // The field: an expression up to a top-level '!', ':' or '}'.
      size_t exprStart = i + 1, exprEnd = llvm::StringRef::npos;
      size_t fieldEnd = llvm::StringRef::npos;
      char conversion = 0;
      llvm::StringRef spec;
      int nesting = 0;
      char quote = 0;
      for (size_t j = exprStart; j < body.size(); ++j) {
        char d = body[j];
        if (quote) {
          quote = d == quote ? 0 : quote;
          continue;
        }
        if (d == '\'' || d == '"') {
          quote = d;
        } else if (d == '(' || d == '[' || d == '{') {
          ++nesting;
        } else if ((d == ')' || d == ']' || d == '}') && nesting > 0) {
          --nesting;
        } else if (nesting == 0 &&
                   (d == '}' || d == ':' ||
                    (d == '!' && j + 1 < body.size() && body[j + 1] != '='))) {
          exprEnd = j;
          if (d == '!') {
            conversion = j + 1 < body.size() ? body[j + 1] : 0;
            if (conversion != 's' && conversion != 'r' && conversion != 'a')
              return failAt(body.data() + j,
                            "f-string: expected 's', 'r' or 'a' after '!'");
            j += 2;
            d = j < body.size() ? body[j] : 0;
            if (d != ':' && d != '}')
              return failAt(body.data() + j,
                            "f-string: expected ':' or '}' after the "
                            "conversion");
          }
          if (d == ':') {
            size_t close = body.find('}', j + 1);
            if (close == llvm::StringRef::npos)
              break;
            spec = body.slice(j + 1, close);
            if (spec.contains('{'))
              return failAt(spec.data(), "f-string: nested fields in a format "
                                         "specifier are not supported");
            j = close;
          }
          fieldEnd = j;
          break;
        }
      }
      if (fieldEnd == llvm::StringRef::npos)
        return failAt(body.data() + i, "f-string: expecting '}'");
      llvm::StringRef exprText =
          body.slice(exprStart, exprEnd).rtrim(" \t\n\r");
      // `{x=}` shows the expression's text, then its repr.
      if (exprText.ends_with("=") && !exprText.ends_with("==") &&
          !exprText.ends_with("!=") && !exprText.ends_with("<=") &&
          !exprText.ends_with(">=")) {
        literal += body.slice(exprStart, exprEnd).str();
        exprText = exprText.drop_back().rtrim(" \t\n\r");
        if (!conversion && spec.empty())
          conversion = 'r';
      }
      exprText = exprText.ltrim(" \t\n\r");
      if (exprText.empty())
        return failAt(body.data() + i,
                      "f-string: empty expression not allowed");
      llvm::SMLoc exprLoc = llvm::SMLoc::getFromPointer(exprText.data());
      flushLiteral();
      Parser sub(Lexer(exprText, diags).lexAll(), diags);
      ExprPtr value = sub.parseStandaloneExpr();
      if (!value) {
        failed = true;
        return nullptr;
      }
      if (conversion) {
        std::vector<ExprPtr> args;
        args.push_back(std::move(value));
        value = std::make_unique<CallExpr>(
            exprLoc,
            std::make_unique<NameExpr>(exprLoc,
                                       conversion == 's' ? "str" : "repr"),
            std::move(args), std::vector<KeywordArg>());
      }
      std::vector<ExprPtr> args;
      args.push_back(std::move(value));
      args.push_back(std::make_unique<StrExpr>(exprLoc, spec.str()));
      parts.push_back(std::make_unique<CallExpr>(
          exprLoc, std::make_unique<NameExpr>(exprLoc, "format"),
          std::move(args), std::vector<KeywordArg>()));
      i = fieldEnd;
      textStart = fieldEnd + 1;
    }
    addText(body.size());
  }
  flushLiteral();
  if (parts.empty())
    return std::make_unique<StrExpr>(loc, "");
  ExprPtr joined = std::move(parts.front());
  for (size_t i = 1; i < parts.size(); ++i)
    joined = std::make_unique<BinaryExpr>(loc, BinaryOp::Add, std::move(joined),
                                          std::move(parts[i]));
  return joined;
}

ExprPtr Parser::parseAtom() {
  const Token &t = peek();
  llvm::SMLoc loc = t.loc;
  switch (t.kind) {
  case TokenKind::Name:
    consume();
    return std::make_unique<NameExpr>(loc, t.text.str());
  case TokenKind::Int:
    consume();
    return std::make_unique<IntExpr>(loc, t.intValue);
  case TokenKind::Float:
    consume();
    return std::make_unique<FloatExpr>(loc, t.floatValue);
  case TokenKind::String:
    return parseStrings();
  case TokenKind::Keyword:
    if (t.text == "True" || t.text == "False") {
      consume();
      return std::make_unique<BoolExpr>(loc, t.text == "True");
    }
    if (t.text == "None") {
      consume();
      return std::make_unique<NoneExpr>(loc);
    }
    fail(t, "unexpected keyword '" + t.text + "' in expression");
    return nullptr;
  case TokenKind::Op:
    if (t.isOp("(")) {
      consume();
      if (consumeIfOp(")"))
        return std::make_unique<TupleExpr>(loc, std::vector<ExprPtr>{});
      ExprPtr first = parseExpr();
      if (!first)
        return nullptr;
      // `(e for x in xs)`: the list it yields (see the call arguments).
      if (peek().isKeyword("for"))
        return parseListComprehension(loc, std::move(first), ")");
      if (consumeIfOp(")"))
        return first;
      std::vector<ExprPtr> elements;
      elements.push_back(std::move(first));
      while (consumeIfOp(",")) {
        if (peek().isOp(")"))
          break;
        ExprPtr e = parseExpr();
        if (!e)
          return nullptr;
        elements.push_back(std::move(e));
      }
      if (!expectOp(")", "to close the parenthesis"))
        return nullptr;
      return std::make_unique<TupleExpr>(loc, std::move(elements));
    }
    if (t.isOp("[")) {
      consume();
      std::vector<ExprPtr> elements;
      // `[a, *more(), b]` (triton.ops.matmul's configs) reads as
      // `[a] + more() + [b]`.
      ExprPtr spliced;
      auto append = [&](llvm::SMLoc at, ExprPtr part) {
        spliced = spliced ? std::make_unique<BinaryExpr>(at, BinaryOp::Add,
                                                         std::move(spliced),
                                                         std::move(part))
                          : std::move(part);
      };
      auto flush = [&](llvm::SMLoc at) {
        if (!elements.empty())
          append(at, std::make_unique<ListExpr>(at, std::move(elements)));
        elements.clear();
      };
      while (!peek().isOp("]")) {
        if (peek().isOp("*")) {
          llvm::SMLoc at = consume().loc;
          ExprPtr rest = parseExpr();
          if (!rest)
            return nullptr;
          flush(at);
          append(at, std::move(rest));
          if (!consumeIfOp(","))
            break;
          continue;
        }
        ExprPtr e = parseExpr();
        if (!e)
          return nullptr;
        if (elements.empty() && !spliced && peek().isKeyword("for"))
          return parseListComprehension(loc, std::move(e));
        elements.push_back(std::move(e));
        if (!consumeIfOp(","))
          break;
      }
      if (!expectOp("]", "to close the list"))
        return nullptr;
      if (!spliced)
        return std::make_unique<ListExpr>(loc, std::move(elements));
      flush(loc);
      return spliced;
    }
    if (t.isOp("{")) {
      // A dict of simple entries (triton.Config's constexprs).
      llvm::SMLoc loc = consume().loc;
      std::vector<ExprPtr> keys, values;
      while (!peek().isOp("}")) {
        ExprPtr key = parseExpr();
        if (!key)
          return nullptr;
        if (!expectOp(":", "after a dict key (set literals are not "
                           "supported)"))
          return nullptr;
        ExprPtr value = parseExpr();
        if (!value)
          return nullptr;
        keys.push_back(std::move(key));
        values.push_back(std::move(value));
        if (!consumeIfOp(","))
          break;
      }
      if (!expectOp("}", "to close the dict"))
        return nullptr;
      return std::make_unique<DictExpr>(loc, std::move(keys),
                                        std::move(values));
    }
    if (t.isOp("...")) {
      fail(t, "'...' is not supported");
      return nullptr;
    }
    fail(t, "expected an expression, found " + describe(t));
    return nullptr;
  default:
    fail(t, "expected an expression, found " + describe(t));
    return nullptr;
  }
}
