//===- GridExpr.cpp - Launch-grid expressions of the metadata -------------===//

#include "tile/Runtime/GridExpr.h"
#include "tile/Support/IntegerDivision.h"

#include <cctype>

using namespace tile;

struct GridExpr::Node {
  enum Kind { Const, Arg, Add, Sub, Mul, FloorDiv, Mod, CDiv, Min, Max } kind;
  int64_t value = 0; // Const: the value; Arg: the argument index
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using NodePtr = std::shared_ptr<const GridExpr::Node>;
using Node = GridExpr::Node;

class Parser {
public:
  Parser(const std::string &text,
         const std::function<int(const std::string &)> &lookup)
      : text(text), lookup(lookup) {}

  NodePtr parseAll() {
    NodePtr n = parseSum();
    skipSpace();
    if (n && pos != text.size())
      return fail("unexpected '" + text.substr(pos, 1) + "'");
    return n;
  }
  std::string error;

private:
  NodePtr fail(const std::string &msg) {
    if (error.empty())
      error = "grid expression '" + text + "': " + msg;
    return nullptr;
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace((unsigned char)text[pos]))
      ++pos;
  }
  bool eat(const std::string &token) {
    skipSpace();
    if (text.compare(pos, token.size(), token) == 0) {
      pos += token.size();
      return true;
    }
    return false;
  }
  static NodePtr make(Node::Kind k, NodePtr l, NodePtr r) {
    auto n = std::make_shared<Node>();
    n->kind = k;
    n->lhs = std::move(l);
    n->rhs = std::move(r);
    return n;
  }
  NodePtr parseSum() {
    NodePtr l = parseProduct();
    while (l) {
      if (eat("+"))
        l = make(Node::Add, l, parseProduct());
      else if (eat("-"))
        l = make(Node::Sub, l, parseProduct());
      else
        break;
      if (!l->rhs)
        return nullptr;
    }
    return l;
  }
  NodePtr parseProduct() {
    NodePtr l = parseAtom();
    while (l) {
      if (eat("*"))
        l = make(Node::Mul, l, parseAtom());
      else if (eat("//"))
        l = make(Node::FloorDiv, l, parseAtom());
      else if (eat("%"))
        l = make(Node::Mod, l, parseAtom());
      else
        break;
      if (!l->rhs)
        return nullptr;
    }
    return l;
  }
  NodePtr parseAtom() {
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end");
    if (eat("(")) {
      NodePtr n = parseSum();
      if (n && !eat(")"))
        return fail("expected ')'");
      return n;
    }
    if (std::isdigit((unsigned char)text[pos])) {
      auto n = std::make_shared<Node>();
      n->kind = Node::Const;
      while (pos < text.size() && std::isdigit((unsigned char)text[pos])) {
        if (n->value > (INT64_MAX - 9) / 10)
          return fail("number too large");
        n->value = n->value * 10 + (text[pos++] - '0');
      }
      return n;
    }
    if (std::isalpha((unsigned char)text[pos]) || text[pos] == '_') {
      size_t start = pos;
      while (pos < text.size() &&
             (std::isalnum((unsigned char)text[pos]) || text[pos] == '_'))
        ++pos;
      std::string name = text.substr(start, pos - start);
      if (name == "cdiv" || name == "min" || name == "max") {
        if (!eat("("))
          return fail("expected '(' after " + name);
        NodePtr a = parseSum();
        if (!a || !eat(","))
          return a ? fail("expected ','") : nullptr;
        NodePtr b = parseSum();
        if (!b || !eat(")"))
          return b ? fail("expected ')'") : nullptr;
        return make(name == "cdiv" ? Node::CDiv
                    : name == "min" ? Node::Min
                                    : Node::Max,
                    a, b);
      }
      int index = lookup(name);
      if (index < 0)
        return fail("unknown name '" + name + "'");
      auto n = std::make_shared<Node>();
      n->kind = Node::Arg;
      n->value = index;
      return n;
    }
    return fail("unexpected '" + text.substr(pos, 1) + "'");
  }

  const std::string &text;
  const std::function<int(const std::string &)> &lookup;
  size_t pos = 0;
};

bool eval(const Node &n, const int64_t *values, int64_t &out) {
  if (n.kind == Node::Const) {
    out = n.value;
    return true;
  }
  if (n.kind == Node::Arg) {
    out = values[n.value];
    return true;
  }
  int64_t a, b;
  if (!eval(*n.lhs, values, a) || !eval(*n.rhs, values, b))
    return false;
  switch (n.kind) {
  case Node::Add: out = a + b; return true;
  case Node::Sub: out = a - b; return true;
  case Node::Mul: out = a * b; return true;
  case Node::Min: out = a < b ? a : b; return true;
  case Node::Max: out = a > b ? a : b; return true;
  case Node::FloorDiv:
  case Node::Mod:
  case Node::CDiv:
    if (b == 0)
      return false;
    if (n.kind == Node::FloorDiv)
      out = tilec::floorDiv(a, b);
    else if (n.kind == Node::Mod)
      out = tilec::floorMod(a, b);
    else
      out = tilec::ceilDiv(a, b);
    return true;
  default:
    return false;
  }
}

} // namespace

Expected<GridExpr>
GridExpr::parse(const std::string &text,
                const std::function<int(const std::string &)> &lookup) {
  Parser p(text, lookup);
  NodePtr root = p.parseAll();
  if (!root)
    return Status::error(p.error);
  GridExpr e;
  e.root = root;
  return e;
}

Expected<int64_t> GridExpr::evaluate(const int64_t *values) const {
  int64_t out;
  if (!eval(*root, values, out))
    return Status::error("division by zero in the launch grid");
  return out;
}
