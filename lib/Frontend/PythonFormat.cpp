//===- PythonFormat.cpp - str(), repr() and format() on constexprs --------===//

#include "tile/Frontend/PythonFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace tilec;

/// Python's str() of a constexpr ("inf" for float('inf'), a string
/// unquoted, a dtype by its Triton name).
static std::string pythonStr(const Val &v) {
  switch (v.getKind()) {
  case Val::Kind::Str:
    return v.getString();
  case Val::Kind::Float: {
    double d = v.getFloat();
    if (std::isnan(d))
      return "nan";
    if (std::isinf(d))
      return d > 0 ? "inf" : "-inf";
    return v.repr();
  }
  case Val::Kind::Tuple: {
    // Python's str of a tuple shows its items' repr.
    std::string s = "(";
    for (auto [i, e] : llvm::enumerate(v.getElements())) {
      s += i ? ", " : "";
      s += e.getKind() == Val::Kind::Str ? "'" + e.getString() + "'"
                                         : pythonStr(e);
    }
    return s + (v.getElements().size() == 1 ? ",)" : ")");
  }
  default:
    return v.repr();
  }
}

namespace {
/// A parsed format spec.
struct FormatSpec {
  char fill = ' ';
  char align = 0; // '<', '>', '=', '^' or 0 for the type's default
  char sign = '-';
  bool alternate = false;
  unsigned width = 0;
  char grouping = 0; // ',' or '_'
  std::optional<unsigned> precision;
  char type = 0;
};
} // namespace

static bool isAlign(char c) {
  return c == '<' || c == '>' || c == '=' || c == '^';
}

static std::optional<FormatSpec> parseSpec(llvm::StringRef s,
                                           std::string &error) {
  FormatSpec spec;
  auto bad = [&] {
    error = "invalid format specifier '" + s.str() + "'";
    return std::nullopt;
  };
  llvm::StringRef rest = s;
  if (rest.size() >= 2 && isAlign(rest[1])) {
    spec.fill = rest[0];
    spec.align = rest[1];
    rest = rest.drop_front(2);
  } else if (!rest.empty() && isAlign(rest[0])) {
    spec.align = rest[0];
    rest = rest.drop_front();
  }
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-' || rest[0] == ' ')) {
    spec.sign = rest[0];
    rest = rest.drop_front();
  }
  if (rest.consume_front("#"))
    spec.alternate = true;
  if (rest.starts_with("0") && !spec.align) {
    spec.fill = '0';
    spec.align = '=';
  }
  size_t digits = rest.find_first_not_of("0123456789");
  llvm::StringRef width = rest.take_front(digits);
  rest = rest.drop_front(width.size());
  if (!width.empty() && width.getAsInteger(10, spec.width))
    return bad();
  if (!rest.empty() && (rest[0] == ',' || rest[0] == '_')) {
    spec.grouping = rest[0];
    rest = rest.drop_front();
  }
  if (rest.consume_front(".")) {
    size_t n = rest.find_first_not_of("0123456789");
    llvm::StringRef precision = rest.take_front(n);
    unsigned p;
    if (precision.empty() || precision.getAsInteger(10, p) || p > 100)
      return bad();
    spec.precision = p;
    rest = rest.drop_front(precision.size());
  }
  if (rest.size() > 1)
    return bad();
  if (!rest.empty()) {
    if (!llvm::StringRef("bcdeEfFgGnosxX%").contains(rest[0]))
      return bad();
    spec.type = rest[0];
  }
  if (spec.width > 1000)
    return bad();
  return spec;
}

/// Separators every three digits of the integer part of `digits`.
static std::string group(llvm::StringRef digits, char separator) {
  size_t end = digits.find_first_not_of("0123456789");
  if (end == llvm::StringRef::npos)
    end = digits.size();
  std::string out;
  for (size_t i = 0; i < end; ++i) {
    if (i && (end - i) % 3 == 0)
      out.push_back(separator);
    out.push_back(digits[i]);
  }
  return out + digits.drop_front(end).str();
}

/// Pads `sign` + `body` to the spec's width.
static std::string pad(const FormatSpec &spec, std::string sign,
                       std::string body, char defaultAlign) {
  char align = spec.align ? spec.align : defaultAlign;
  size_t len = sign.size() + body.size();
  if (len >= spec.width)
    return sign + body;
  std::string fill(spec.width - len, spec.fill);
  switch (align) {
  case '<':
    return sign + body + fill;
  case '=':
    return sign + fill + body;
  case '^': {
    size_t left = fill.size() / 2;
    return fill.substr(0, left) + sign + body + fill.substr(left);
  }
  default:
    return fill + sign + body;
  }
}

static std::string signOf(bool negative, char sign) {
  if (negative)
    return "-";
  return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

static std::string formatInt(int64_t value, const FormatSpec &spec) {
  bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value)
                                : static_cast<uint64_t>(value);
  std::string body, prefix;
  switch (spec.type) {
  case 'b':
  case 'o':
  case 'x':
  case 'X': {
    unsigned radix = spec.type == 'b' ? 2 : spec.type == 'o' ? 8 : 16;
    do {
      body.insert(body.begin(), "0123456789abcdef"[magnitude % radix]);
      magnitude /= radix;
    } while (magnitude);
    if (spec.type == 'X')
      body = llvm::StringRef(body).upper();
    if (spec.alternate)
      prefix = std::string("0") + spec.type;
    break;
  }
  default:
    body = llvm::utostr(magnitude);
    if (spec.grouping)
      body = group(body, spec.grouping);
  }
  return pad(spec, signOf(negative, spec.sign) + prefix, body, '>');
}

static std::string formatFloat(double value, const FormatSpec &spec) {
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);
  std::string body;
  char type = spec.type;
  if (std::isnan(value) || std::isinf(value)) {
    body = std::isnan(value) ? "nan" : "inf";
    if (type && llvm::isUpper(type))
      body = llvm::StringRef(body).upper();
    if (type == '%')
      body += "%";
    return pad(spec, signOf(negative && !std::isnan(value), spec.sign), body,
               '>');
  }
  if (!type && !spec.precision) {
    body = Val::floating(magnitude).repr();
  } else {
    if (type == '%')
      magnitude *= 100;
    char conv = !type || type == 'n' ? 'g' : type == '%' ? 'f' : type;
    unsigned precision = spec.precision.value_or(6);
    std::string fmt = std::string("%") + (spec.alternate ? "#" : "") + ".*" +
                      std::string(1, conv);
    llvm::raw_string_ostream os(body);
    os << llvm::format(fmt.c_str(), precision, magnitude);
    // Python's plain '.N' (no type) keeps one digit after the point.
    if (!type && body.find_first_of(".e") == std::string::npos)
      body += ".0";
    if (type == '%')
      body += "%";
  }
  if (spec.grouping)
    body = group(body, spec.grouping);
  return pad(spec, signOf(negative, spec.sign), body, '>');
}

/// Python's format(v, spec) of a constexpr; nullopt with `error` set when
/// the spec does not apply to the value.
static std::optional<std::string>
pythonFormat(const Val &v, llvm::StringRef specText, std::string &error) {
  std::optional<FormatSpec> spec = parseSpec(specText, error);
  if (!spec)
    return std::nullopt;
  auto cannot = [&](llvm::StringRef what) {
    error = "format specifier '" + specText.str() + "' does not apply to " +
            what.str();
    return std::nullopt;
  };
  switch (v.getKind()) {
  case Val::Kind::Bool:
    if (!spec->type && !spec->precision && !spec->grouping)
      return pad(*spec, "", pythonStr(v), '<');
    [[fallthrough]];
  case Val::Kind::Int:
    if (llvm::StringRef("eEfFgG%").contains(spec->type) && spec->type)
      return formatFloat(static_cast<double>(v.getInt()), *spec);
    if (spec->precision)
      return cannot("an integer (precision)");
    if (spec->type == 'c' || spec->type == 's')
      return cannot("an integer");
    return formatInt(v.getInt(), *spec);
  case Val::Kind::Float:
    if (spec->type && !llvm::StringRef("eEfFgGn%").contains(spec->type))
      return cannot("a float");
    return formatFloat(v.getFloat(), *spec);
  case Val::Kind::Str: {
    if ((spec->type && spec->type != 's') || spec->grouping ||
        spec->sign != '-' || spec->align == '=')
      return cannot("a string");
    std::string s = v.getString();
    if (spec->precision && s.size() > *spec->precision)
      s.resize(*spec->precision);
    return pad(*spec, "", s, '<');
  }
  default:
    if (!specText.empty())
      return cannot(v.describe());
    return pythonStr(v);
  }
}

bool tilec::isPythonStringBuiltin(llvm::StringRef name) {
  return name == "str" || name == "repr" || name == "format";
}

std::optional<Val>
tilec::callPythonStringBuiltin(llvm::StringRef name, llvm::ArrayRef<Val> args,
                               std::string &error,
                               std::optional<size_t> &badArg) {
  size_t maxArgs = name == "format" ? 2 : 1;
  if (args.empty() || args.size() > maxArgs) {
    error = "'" + name.str() + "' takes " +
            (maxArgs == 2 ? "1 or 2 arguments" : "exactly one argument");
    return std::nullopt;
  }
  for (auto [i, a] : llvm::enumerate(args))
    if (!a.isConstexpr()) {
      badArg = i;
      error = name.str() +
              "() needs a compile-time value (f-strings are "
              "evaluated when the kernel is compiled, as in "
              "Triton), got " +
              a.describe();
      return std::nullopt;
    }
  if (name == "str")
    return Val::string(pythonStr(args[0]));
  if (name == "repr") {
    if (args[0].getKind() == Val::Kind::Str)
      return Val::string("'" + args[0].getString() + "'");
    return Val::string(pythonStr(args[0]));
  }
  llvm::StringRef spec;
  if (args.size() == 2) {
    if (args[1].getKind() != Val::Kind::Str) {
      badArg = 1;
      error = "format()'s spec must be a string, got " + args[1].describe();
      return std::nullopt;
    }
    spec = args[1].getString();
  }
  std::optional<std::string> s = pythonFormat(args[0], spec, error);
  if (!s) {
    badArg = 0;
    return std::nullopt;
  }
  return Val::string(*s);
}
