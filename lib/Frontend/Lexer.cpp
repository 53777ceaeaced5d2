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
  if (c == '"' || c == '\'')
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

Token Lexer::lexNumber() {
  const char *start = cur;
  bool isFloat = false;
  auto digits = [&](auto pred) {
    while (cur < buffer.end() && (pred(*cur) || *cur == '_'))
      ++cur;
  };
  auto isDec = [](char ch) { return isdigit(static_cast<unsigned char>(ch)); };
  auto isHex = [](char ch) { return isxdigit(static_cast<unsigned char>(ch)); };
  auto isBin = [](char ch) { return ch == '0' || ch == '1'; };
  auto isOct = [](char ch) { return ch >= '0' && ch <= '7'; };
  unsigned radix = 10;
  if (*cur == '0' && cur + 1 < buffer.end() &&
      (cur[1] == 'x' || cur[1] == 'X' || cur[1] == 'b' || cur[1] == 'B' ||
       cur[1] == 'o' || cur[1] == 'O')) {
    char p = cur[1] | 0x20;
    cur += 2;
    radix = p == 'x' ? 16 : p == 'b' ? 2 : 8;
    if (radix == 16)
      digits(isHex);
    else if (radix == 2)
      digits(isBin);
    else
      digits(isOct);
  } else {
    digits(isDec);
    if (cur < buffer.end() && *cur == '.') {
      isFloat = true;
      ++cur;
      digits(isDec);
    }
    if (cur < buffer.end() && (*cur == 'e' || *cur == 'E')) {
      const char *save = cur;
      ++cur;
      if (cur < buffer.end() && (*cur == '+' || *cur == '-'))
        ++cur;
      if (cur < buffer.end() && isDec(*cur)) {
        isFloat = true;
        digits(isDec);
      } else {
        cur = save;
      }
    }
  }
  if (cur < buffer.end() &&
      (isalnum(static_cast<unsigned char>(*cur)) || *cur == '_')) {
    while (cur < buffer.end() &&
           (isalnum(static_cast<unsigned char>(*cur)) || *cur == '_'))
      ++cur;
    error(start, "invalid number literal '" +
                     llvm::StringRef(start, cur - start) + "'");
    return make(TokenKind::Error, start);
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
  if (body.empty() || body.getAsInteger(radix, tok.intValue)) {
    error(start, "integer literal '" + tok.text + "' is too large");
    tok.kind = TokenKind::Error;
  }
  return tok;
}

Token Lexer::lexString() {
  const char *start = cur;
  char quote = *cur;
  bool triple = cur + 2 < buffer.end() && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  std::string value;
  while (true) {
    if (cur >= buffer.end() || (!triple && (*cur == '\n' || *cur == '\r'))) {
      error(start, "unterminated string literal");
      return make(TokenKind::Error, start);
    }
    char c = *cur;
    if (c == quote) {
      if (!triple) {
        ++cur;
        break;
      }
      if (cur + 2 < buffer.end() && cur[1] == quote && cur[2] == quote) {
        cur += 3;
        break;
      }
    }
    if (c == '\\' && cur + 1 < buffer.end()) {
      char e = cur[1];
      cur += 2;
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
      continue;
    }
    value.push_back(c);
    ++cur;
  }
  Token tok = make(TokenKind::String, start);
  tok.stringValue = std::move(value);
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
