//===- Value.cpp - Values during kernel elaboration -----------------------===//

#include "tile/Frontend/Value.h"
#include "tile/Frontend/Sema.h"

#include "llvm/Support/Format.h"
#include <cstdlib>
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

std::string TileType::str() const {
  std::string elem = (isPointer ? "*" : "") + getName(element).str();
  if (isDescriptor)
    return "tensor_descriptor<" + formatShape(shape) + "x" + elem + ">";
  if (isBlockPointer)
    return "block_ptr<" + formatShape(shape) + "x" + elem + ">";
  if (shape.empty())
    return elem;
  return "block<" + formatShape(shape) + "x" + elem + ">";
}

bool Val::allConstexpr() const {
  for (const Val &e : elements)
    if (!e.isConstexpr())
      return false;
  return true;
}

bool Val::truthy() const {
  switch (kind) {
  case Kind::None:
    return false;
  case Kind::Bool:
  case Kind::Int:
    return intValue != 0;
  case Kind::Float:
    return floatValue != 0;
  case Kind::Str:
    return !text.empty();
  case Kind::Tuple:
    return !elements.empty();
  default:
    return true;
  }
}

bool Val::equals(const Val &other) const {
  if (isNumber() && other.isNumber()) {
    if (kind == Kind::Float || other.kind == Kind::Float)
      return getFloat() == other.getFloat();
    return intValue == other.intValue;
  }
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::None:
    return true;
  case Kind::Str:
    return text == other.text;
  case Kind::DType:
    return type.element == other.type.element &&
           type.isPointer == other.type.isPointer;
  case Kind::Tuple:
    if (elements.size() != other.elements.size())
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].equals(other.elements[i]))
        return false;
    return true;
  default:
    return false;
  }
}

std::string Val::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "bool constexpr";
  case Kind::Int:
    return "int constexpr";
  case Kind::Float:
    return "float constexpr";
  case Kind::Str:
    return "string constexpr";
  case Kind::DType:
    return "dtype";
  case Kind::Tuple:
    return "tuple";
  case Kind::Runtime:
    if (type.isBlockPointer)
      return type.str();
    if (type.isScalar())
      return "scalar " + type.str();
    return type.str();
  case Kind::Function:
    return "function";
  case Kind::Builtin:
    return "built-in function '" + text + "'";
  case Kind::Namespace:
    return "module '" + text + "'";
  case Kind::Slice:
    return "slice";
  }
  return "value";
}

std::string Val::repr() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  switch (kind) {
  case Kind::None:
    os << "None";
    break;
  case Kind::Bool:
    os << (intValue ? "True" : "False");
    break;
  case Kind::Int:
    os << intValue;
    break;
  case Kind::Float: {
    double v = floatValue;
    if (v != v)
      os << "float('nan')";
    else if (v == 1.0 / 0.0)
      os << "float('inf')";
    else if (v == -1.0 / 0.0)
      os << "float('-inf')";
    else {
      // The shortest form that reads back to the same double, as Python.
      std::string num;
      for (int precision = 1; precision <= 17; ++precision) {
        num.clear();
        llvm::raw_string_ostream ns(num);
        ns << llvm::format("%.*g", precision, v);
        if (std::strtod(num.c_str(), nullptr) == v)
          break;
      }
      if (num.find_first_of(".en") == std::string::npos)
        num += ".0";
      os << num;
    }
    break;
  }
  case Kind::Str:
    os << "\"";
    os.write_escaped(text);
    os << "\"";
    break;
  case Kind::DType:
    os << (type.isPointer ? "*" : "") << tilec::getName(type.element);
    break;
  case Kind::Tuple:
    os << "(";
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        os << ", ";
      os << elements[i].repr();
    }
    if (elements.size() == 1)
      os << ",";
    os << ")";
    break;
  default:
    os << describe();
  }
  return s;
}
