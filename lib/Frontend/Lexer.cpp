//===- Lexer.cpp - Tokenizer with Python indentation ----------------------===//

#include "tile/Frontend/Lexer.h"

#include "llvm/ADT/StringSwitch.h"
#include <cerrno>
#include <cstdlib>

using namespace tilec;

llvm::StringRef tilec::getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "EOF";
  case TokenKind::Newline:
    return "NEWLINE";
  case TokenKind::Indent:
    return "INDENT";
  case TokenKind::Dedent:
    return "DEDENT";
  case TokenKind::Name:
    return "NAME";
  case TokenKind::Keyword:
    return "KEYWORD";
  case TokenKind::Int:
    return "INT";
  case TokenKind::Float:
    return "FLOAT";
  case TokenKind::String:
    return "STRING";
  case TokenKind::Op:
    return "OP";
  case TokenKind::Error:
    return "ERROR";
  }
  return "?";
}

bool tilec::isKeyword(llvm::StringRef word) {
  return llvm::StringSwitch<bool>(word)
      .Cases({"def", "if", "elif", "else", "for", "in", "while", "return"},
             true)
      .Cases({"pass", "and", "or", "not", "is", "None", "True", "False"},
             true)
      .Cases({"import", "from", "as", "break", "continue", "lambda", "assert"},
             true)
      .Cases({"global", "nonlocal", "class", "with", "try", "except",
              "finally", "raise"},
             true)
      .Cases({"yield", "del", "async", "await"}, true)
      .Default(false);
}

/// The prefix letters of a string literal (r, f, u, b and the pairs of r
/// with f or b, any case) when `at` starts one.
static size_t stringPrefixLength(const char *at, const char *end) {
  for (size_t n = 1; n <= 2 && at + n < end; ++n) {
    llvm::StringRef prefix(at, n);
    if (at[n] != '"' && at[n] != '\'')
      continue;
    std::string lower = prefix.lower();
    if (llvm::is_contained({"r", "f", "u", "b", "rf", "fr", "rb", "br"}, lower))
      return n;
    return 0;
  }
  return 0;
}

Lexer::Lexer(llvm::StringRef buffer, DiagnosticEngine &diags)
    : buffer(buffer), cur(buffer.begin()), diags(diags) {}

void Lexer::error(const char *at, const llvm::Twine &message) {
  diags.error(llvm::SMLoc::getFromPointer(at), message);
}

Token Lexer::make(TokenKind kind, const char *start) {
  Token tok;
  tok.kind = kind;
  tok.text = llvm::StringRef(start, cur - start);
  tok.loc = llvm::SMLoc::getFromPointer(start);
  return tok;
}

std::vector<Token> Lexer::lexAll() {
  std::vector<Token> tokens;
  while (true) {
    if (atLineStart && openBrackets.empty()) {
      lexLineStart(tokens);
      atLineStart = false;
    }
    Token tok = next();
    if (tok.is(TokenKind::Eof)) {
      if (!openBrackets.empty()) {
        error(openBrackets.back(),
              "'" + llvm::StringRef(openBrackets.back(), 1) + "' was never closed");
        openBrackets.clear();
      }
      // Close the last logical line and every open block.
      if (!tokens.empty() && !tokens.back().is(TokenKind::Newline) &&
          !tokens.back().is(TokenKind::Dedent)) {
        Token nl = tok;
        nl.kind = TokenKind::Newline;
        nl.text = "";
        tokens.push_back(nl);
      }
      while (indentStack.size() > 1) {
        indentStack.pop_back();
        Token d = tok;
        d.kind = TokenKind::Dedent;
        d.text = "";
        tokens.push_back(d);
      }
      tokens.push_back(tok);
      return tokens;
    }
    if (tok.is(TokenKind::Error))
      continue;
    tokens.push_back(tok);
  }
}

/// Measure the indentation of the next non-blank line and emit
/// Indent/Dedent tokens for it.
void Lexer::lexLineStart(std::vector<Token> &out) {
  while (true) {
    const char *lineStart = cur;
    unsigned width = 0;
    bool sawTab = false;
    const char *tabAt = nullptr;
    while (cur < buffer.end() && (*cur == ' ' || *cur == '\t' || *cur == '\f')) {
      if (*cur == '\t' && !sawTab) {
        sawTab = true;
        tabAt = cur;
      }
      ++width;
      ++cur;
    }
    if (cur >= buffer.end())
      return;
    if (*cur == '#') {
      while (cur < buffer.end() && *cur != '\n')
        ++cur;
    }
    if (cur < buffer.end() && (*cur == '\n' || *cur == '\r')) {
      // A blank (or comment-only) line does not affect indentation.
      if (*cur == '\r' && cur + 1 < buffer.end() && cur[1] == '\n')
        ++cur;
      ++cur;
      continue;
    }
    if (cur >= buffer.end())
      return;
    if (sawTab)
      error(tabAt, "tab character in indentation; indent with spaces");
    (void)lineStart;
    llvm::SMLoc loc = llvm::SMLoc::getFromPointer(cur);
    if (width > indentStack.back()) {
      indentStack.push_back(width);
      Token t;
      t.kind = TokenKind::Indent;
      t.loc = loc;
      out.push_back(t);
    } else {
      while (width < indentStack.back()) {
        indentStack.pop_back();
        Token t;
        t.kind = TokenKind::Dedent;
        t.loc = loc;
        out.push_back(t);
      }
      if (width != indentStack.back()) {
        error(cur, "unindent does not match any outer indentation level");
        // Recover by treating this as the enclosing level.
        indentStack.push_back(width);
      }
    }
    return;
  }
}

Token Lexer::next() {
  // Skip spaces, comments and joined lines.
  while (cur < buffer.end()) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\f') {
      ++cur;
    } else if (c == '#') {
      while (cur < buffer.end() && *cur != '\n')
        ++cur;
    } else if (c == '\\' && cur + 1 < buffer.end() &&
               (cur[1] == '\n' || cur[1] == '\r')) {
      cur += 2;
      if (cur < buffer.end() && cur[-1] == '\r' && *cur == '\n')
        ++cur;
    } else if (c == '\n' || c == '\r') {
      const char *start = cur;
      if (c == '\r' && cur + 1 < buffer.end() && cur[1] == '\n')
        ++cur;
      ++cur;
      if (!openBrackets.empty())
        continue;
      atLineStart = true;
      Token t = make(TokenKind::Newline, start);
      t.text = "";
      return t;
    } else {
      break;
    }
  }
  if (cur >= buffer.end())
    return make(TokenKind::Eof, cur);

  char c = *cur;
  if (isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && cur + 1 < buffer.end() &&
       isdigit(static_cast<unsigned char>(cur[1]))))
    return lexNumber();
  if (c == '"' || c == '\'' || stringPrefixLength(cur, buffer.end()))
    return lexString();
  if (isalpha(static_cast<unsigned char>(c)) || c == '_')
    return lexNameOrKeyword();
  if (static_cast<unsigned char>(c) >= 0x80) {
    const char *start = cur;
    // Skip the whole UTF-8 sequence.
    ++cur;
    while (cur < buffer.end() && (static_cast<unsigned char>(*cur) & 0xC0) == 0x80)
      ++cur;
    error(start, "non-ASCII character outside a string or comment");
    return make(TokenKind::Error, start);
  }
  return lexOperator();
}

/// Numbers follow Python's grammar: '_' may only separate two digits (also
/// right after a 0x/0o/0b prefix), decimal integers other than zero have no
/// leading zeros, and a literal may not run into letters.
Token Lexer::lexNumber() {
  const char *start = cur;
  auto isDec = [](char ch) { return isdigit(static_cast<unsigned char>(ch)); };
  auto isWordChar = [](char ch) {
    return isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  auto at = [&](size_t i) { return cur + i < buffer.end() ? cur[i] : '\0'; };
  // Report the literal (up to the end of its word) as invalid.
  auto fail = [&](const llvm::Twine &message) {
    while (cur < buffer.end() && (isWordChar(*cur) || *cur == '.'))
      ++cur;
    error(start, message);
    return make(TokenKind::Error, start);
  };
  auto literal = [&] {
    const char *end = cur;
    while (end < buffer.end() && (isWordChar(*end) || *end == '.'))
      ++end;
    return "'" + llvm::StringRef(start, end - start).str() + "'";
  };
  // Digits with single '_' between them; false if a '_' is not followed by
  // a digit (the caller reports it).
  auto digits = [&](auto isDigit, bool leadingUnderscore) {
    bool any = false;
    while (true) {
      if (at(0) == '_' && (any || leadingUnderscore)) {
        if (!isDigit(at(1)))
          return false;
        ++cur;
      }
      if (!isDigit(at(0)))
        return true;
      ++cur;
      any = true;
    }
  };

  bool isFloat = false;
  unsigned radix = 10;
  char p = static_cast<char>(at(1) | 0x20);
  if (at(0) == '0' && (p == 'x' || p == 'b' || p == 'o')) {
    radix = p == 'x' ? 16 : p == 'b' ? 2 : 8;
    const char *kind = p == 'x' ? "hexadecimal" : p == 'b' ? "binary" : "octal";
    auto isDigit = [radix](char ch) {
      if (radix == 16)
        return isxdigit(static_cast<unsigned char>(ch)) != 0;
      return ch >= '0' && ch < static_cast<char>('0' + radix);
    };
    cur += 2;
    const char *body = cur;
    bool ok = digits(isDigit, /*leadingUnderscore=*/true);
    if (ok && isDec(at(0)))
      return fail("invalid digit '" + llvm::StringRef(cur, 1) + "' in " + kind +
                  " literal " + literal());
    if (!ok || cur == body || isWordChar(at(0)))
      return fail(llvm::Twine("invalid ") + kind + " literal " + literal());
  } else {
    bool ok = digits(isDec, /*leadingUnderscore=*/false);
    if (ok && at(0) == '.') {
      isFloat = true;
      ++cur;
      // "1." is a float; "1._5" is not.
      if (at(0) == '_')
        ok = false;
      else
        ok = digits(isDec, /*leadingUnderscore=*/false);
    }
    if (ok && (at(0) == 'e' || at(0) == 'E')) {
      size_t sign = at(1) == '+' || at(1) == '-' ? 1 : 0;
      if (isDec(at(1 + sign))) {
        isFloat = true;
        cur += 1 + sign;
        ok = digits(isDec, /*leadingUnderscore=*/false);
      }
    }
    if (!ok)
      return fail("invalid decimal literal " + literal() +
                  "; '_' may only separate digits");
    if (isWordChar(at(0)))
      return fail("invalid number literal " + literal());
    // Python forbids leading zeros in decimal integers (but allows 00).
    if (!isFloat && *start == '0' &&
        llvm::StringRef(start, cur - start).find_first_not_of("0_") !=
            llvm::StringRef::npos) {
      error(start, "leading zeros in decimal integer literals are not "
                   "permitted; use an 0o prefix for octal integers");
      return make(TokenKind::Error, start);
    }
  }
  Token tok = make(isFloat ? TokenKind::Float : TokenKind::Int, start);
  std::string clean;
  for (char ch : tok.text)
    if (ch != '_')
      clean.push_back(ch);
  if (isFloat) {
    tok.floatValue = strtod(clean.c_str(), nullptr);
    return tok;
  }
  llvm::StringRef body = clean;
  if (radix != 10)
    body = body.drop_front(2);
  if (body.getAsInteger(radix, tok.intValue)) {
    error(start, "integer literal '" + tok.text + "' is too large");
    tok.kind = TokenKind::Error;
  }
  return tok;
}

std::string tilec::decodeStringEscapes(llvm::StringRef body) {
  std::string value;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      value.push_back(c);
      continue;
    }
    char e = body[++i];
    switch (e) {
    case 'n':
      value.push_back('\n');
      break;
    case 't':
      value.push_back('\t');
      break;
    case 'r':
      value.push_back('\r');
      break;
    case '0':
      value.push_back('\0');
      break;
    case '\n':
      break;
    default:
      // Unknown escapes keep the backslash, as Python does.
      if (e != '\\' && e != '\'' && e != '"')
        value.push_back('\\');
      value.push_back(e);
    }
  }
  return value;
}

Token Lexer::lexString() {
  const char *start = cur;
  bool raw = false, format = false;
  while (*cur != '"' && *cur != '\'') {
    raw |= *cur == 'r' || *cur == 'R';
    format |= *cur == 'f' || *cur == 'F';
    ++cur;
  }
  char quote = *cur;
  bool triple = cur + 2 < buffer.end() && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  const char *bodyStart = cur;
  const char *bodyEnd;
  while (true) {
    if (cur >= buffer.end() || (!triple && (*cur == '\n' || *cur == '\r'))) {
      error(start, "unterminated string literal");
      return make(TokenKind::Error, start);
    }
    char c = *cur;
    if (c == quote) {
      if (!triple) {
        bodyEnd = cur++;
        break;
      }
      if (cur + 2 < buffer.end() && cur[1] == quote && cur[2] == quote) {
        bodyEnd = cur;
        cur += 3;
        break;
      }
    }
    // A backslash always takes the next character with it, raw or not.
    cur += c == '\\' && cur + 1 < buffer.end() ? 2 : 1;
  }
  Token tok = make(TokenKind::String, start);
  llvm::StringRef body(bodyStart, bodyEnd - bodyStart);
  if (format) {
    tok.formatBody = body;
    tok.rawString = raw;
  } else {
    tok.stringValue = raw ? body.str() : decodeStringEscapes(body);
  }
  return tok;
}

Token Lexer::lexNameOrKeyword() {
  const char *start = cur;
  while (cur < buffer.end() &&
         (isalnum(static_cast<unsigned char>(*cur)) || *cur == '_'))
    ++cur;
  Token tok = make(TokenKind::Name, start);
  if (isKeyword(tok.text))
    tok.kind = TokenKind::Keyword;
  return tok;
}

Token Lexer::lexOperator() {
  const char *start = cur;
  static const char *const ops[] = {
      "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>",
      "<=",  ">=",  "==",  "!=",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=",
      "^=",  "@=",  "+",   "-",   "*",   "/",  "%",  "@",  "&",  "|",  "^",
      "~",   "<",   ">",   "(",   ")",   "[",  "]",  "{",  "}",  ",",  ":",
      ".",   ";",   "=",   "!"};
  llvm::StringRef rest(cur, buffer.end() - cur);
  for (const char *op : ops) {
    if (!rest.starts_with(op))
      continue;
    cur += strlen(op);
    Token tok = make(TokenKind::Op, start);
    if (tok.text == "(" || tok.text == "[" || tok.text == "{") {
      openBrackets.push_back(start);
    } else if (tok.text == ")" || tok.text == "]" || tok.text == "}") {
      if (openBrackets.empty()) {
        error(start, "unmatched '" + tok.text + "'");
        return make(TokenKind::Error, start);
      }
      char open = *openBrackets.back();
      char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (tok.text[0] != expected) {
        error(start, "closing '" + tok.text + "' does not match '" +
                         llvm::StringRef(&open, 1) + "'");
        return make(TokenKind::Error, start);
      }
      openBrackets.pop_back();
    } else if (tok.text == "!") {
      error(start, "'!' is not an operator; use 'not' or '!='");
      return make(TokenKind::Error, start);
    }
    return tok;
  }
  ++cur;
  error(start, "unexpected character '" + llvm::StringRef(start, 1) + "'");
  return make(TokenKind::Error, start);
}
