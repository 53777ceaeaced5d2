//===- Specialization.cpp - What a call's arguments let the JIT assume ----===//

#include "tile/Runtime/Specialization.h"
#include "tile/Support/Float16.h"

#include <cmath>
#include <cstring>

using namespace tile;

const char *tile::dtypeName(DType t) {
  switch (t) {
  case DType::i1: return "i1";
  case DType::i8: return "i8";
  case DType::i16: return "i16";
  case DType::i32: return "i32";
  case DType::i64: return "i64";
  case DType::u8: return "u8";
  case DType::u16: return "u16";
  case DType::u32: return "u32";
  case DType::u64: return "u64";
  case DType::fp16: return "fp16";
  case DType::bf16: return "bf16";
  case DType::fp32: return "fp32";
  case DType::fp64: return "fp64";
  case DType::fp8e4nv:
    return "fp8e4nv";
  case DType::fp8e5:
    return "fp8e5";
  }
  return "?";
}

std::optional<DType> tile::dtypeFromName(const std::string &name) {
  for (int t = 0; t <= int(DType::fp8e5); ++t)
    if (name == dtypeName(DType(t)))
      return DType(t);
  return std::nullopt;
}

static bool isIntegerType(DType t) {
  return t != DType::fp16 && t != DType::bf16 && t != DType::fp32 &&
         t != DType::fp64 && t != DType::fp8e4nv && t != DType::fp8e5;
}

/// The parameter type a scalar argument has by its C++ type.
static DType naturalType(const Arg &arg) {
  return std::visit(
      [](const auto &v) -> DType {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, Pointer>)
          return v.elementType;
        else
          return DTypeOf<V>::value;
      },
      arg.get());
}

static std::string describeArg(const Arg &arg) {
  if (auto *p = std::get_if<Pointer>(&arg.get()))
    return std::string("a pointer to ") + dtypeName(p->elementType);
  return std::string("a ") + dtypeName(naturalType(arg)) + " scalar";
}

/// Whether a scalar argument of C++ type `from` may bind a parameter
/// declared `to` (integers widen to wider integers, floats to any float).
/// What an integer argument is specialized as a multiple of: 16, else 8
/// (enough for 16-byte vectors of 16-bit elements, so that a 1000^3 fp16
/// matmul keeps its vector copies), else nothing.
static int64_t integerDivisibility(int64_t v) {
  return v % 16 == 0 ? 16 : v % 8 == 0 ? 8 : 1;
}

/// The specialization key's letter for a divisibility fact.
static char divisibilityFact(int64_t divisibility) {
  return divisibility == 16 ? 'd' : divisibility == 8 ? 'e' : '.';
}

static bool converts(DType from, DType to) {
  if (from == to)
    return true;
  if (isIntegerType(from) && isIntegerType(to))
    return from == DType::i32 && to == DType::i64;
  if (!isIntegerType(from) && !isIntegerType(to))
    return true;
  return false;
}

Expected<std::vector<ParamSpec>>
tile::specialize(const std::vector<DeclaredParam> &params,
                 const std::vector<Arg> &args) {
  if (args.size() != params.size())
    return Status::error("the kernel takes " + std::to_string(params.size()) +
                         " run-time arguments, " + std::to_string(args.size()) +
                         " were given");
  std::vector<ParamSpec> specs;
  for (size_t i = 0; i < params.size(); ++i) {
    const DeclaredParam &p = params[i];
    const Arg &a = args[i];
    auto where = [&] {
      return "argument " + std::to_string(i + 1) + " ('" + p.name + "')";
    };
    ParamSpec s;
    s.name = p.name;
    if (auto *ptrArg = std::get_if<Pointer>(&a.get())) {
      if (p.type && !p.isPointer)
        return Status::error(where() + ": the kernel declares " +
                             dtypeName(*p.type) + ", got " + describeArg(a));
      if (p.type && *p.type != ptrArg->elementType)
        return Status::error(where() + ": the kernel declares *" +
                             std::string(dtypeName(*p.type)) + ", got " +
                             describeArg(a));
      if (ptrArg->address == 0 && !p.mayBeNull)
        return Status::error(where() + " is a null pointer (None is allowed "
                                       "only where the kernel's @heuristics "
                                       "read the pointer or its body tests "
                                       "it against None)");
      s.isPointer = true;
      s.type = ptrArg->elementType;
      s.divisibility = p.specializeValue && p.specializeAlignment &&
                               ptrArg->address % 16 == 0
                           ? 16
                           : 1;
      if (ptrArg->address % p.divisibility)
        return Status::error(where() + ": the kernel declares the address a "
                             "multiple of " + std::to_string(p.divisibility) +
                             " bytes, it is not");
    } else {
      if (p.type && p.isPointer)
        return Status::error(where() + ": the kernel declares *" +
                             std::string(dtypeName(*p.type)) + ", got " +
                             describeArg(a));
      DType natural = naturalType(a);
      s.type = p.type ? *p.type : natural;
      if (!converts(natural, s.type))
        return Status::error(where() + ": the kernel declares " +
                             dtypeName(s.type) + ", got " + describeArg(a));
      if (s.type == DType::i32 || s.type == DType::i64) {
        int64_t v = std::holds_alternative<int32_t>(a.get())
                        ? std::get<int32_t>(a.get())
                        : std::get<int64_t>(a.get());
        if (s.type == DType::i32 && (v < INT32_MIN || v > INT32_MAX))
          return Status::error(where() + " does not fit in i32");
        s.equalsOne = p.specializeValue && v == 1;
        s.divisibility = p.specializeValue && p.specializeAlignment
                             ? integerDivisibility(v)
                             : 1;
        if (p.equalsOne && v != 1)
          return Status::error(where() + ": the kernel is specialized for 1, "
                               "got " + std::to_string(v));
        if (v % p.divisibility)
          return Status::error(where() + ": the kernel declares a multiple of " +
                               std::to_string(p.divisibility) + ", got " +
                               std::to_string(v));
      }
    }
    specs.push_back(s);
  }
  return specs;
}

std::string tile::signatureString(const std::vector<ParamSpec> &specs) {
  std::string out;
  for (const ParamSpec &s : specs) {
    if (!out.empty())
      out += ",";
    out += s.name + "=" + (s.isPointer ? "*" : "") + dtypeName(s.type);
    if (s.equalsOne)
      out += ":1";
    else if (s.divisibility > 1)
      out += ":" + std::to_string(s.divisibility);
  }
  return out;
}

std::string tile::specializationKey(const std::vector<ParamSpec> &specs) {
  std::string key;
  for (const ParamSpec &s : specs) {
    key += s.isPointer ? '*' : ' ';
    key += dtypeName(s.type);
    key += s.equalsOne ? '1' : divisibilityFact(s.divisibility);
  }
  return key;
}

bool tile::quickSpecializationKey(const std::vector<DeclaredParam> &params,
                                  const Arg *args, size_t count,
                                  std::string &key) {
  if (count != params.size())
    return false;
  for (size_t i = 0; i < count; ++i) {
    const DeclaredParam &p = params[i];
    const Arg::Value &v = args[i].get();
    DType type;
    char fact = '.';
    if (auto *ptrArg = std::get_if<Pointer>(&v)) {
      if ((p.type && (!p.isPointer || *p.type != ptrArg->elementType)) ||
          (ptrArg->address == 0 && !p.mayBeNull) ||
          ptrArg->address % p.divisibility)
        return false;
      type = ptrArg->elementType;
      key += '*';
      if (p.specializeValue && p.specializeAlignment &&
          ptrArg->address % 16 == 0)
        fact = 'd';
    } else {
      DType natural = naturalType(args[i]);
      type = p.type ? *p.type : natural;
      if (p.isPointer || !converts(natural, type))
        return false;
      key += ' ';
      if (type == DType::i32 || type == DType::i64) {
        int64_t x = std::holds_alternative<int32_t>(v) ? std::get<int32_t>(v)
                                                       : std::get<int64_t>(v);
        if ((type == DType::i32 && (x < INT32_MIN || x > INT32_MAX)) ||
            (p.equalsOne && x != 1) || x % p.divisibility)
          return false;
        if (p.specializeValue)
          fact = x == 1 ? '1'
                 : p.specializeAlignment
                     ? divisibilityFact(integerDivisibility(x))
                     : '.';
      }
    }
    key += dtypeName(type);
    key += fact;
  }
  return true;
}

uint64_t tile::scalarBits(const Arg &arg, DType type) {
  double asDouble = 0;
  int64_t asInt = 0;
  std::visit(
      [&](const auto &v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, Pointer>) {
          asInt = int64_t(v.address);
        } else {
          asDouble = double(v);
          asInt = int64_t(v);
        }
      },
      arg.get());
  uint64_t bits = 0;
  switch (type) {
  case DType::fp16:
    bits = tilec::toHalfBits(float(asDouble));
    break;
  case DType::bf16:
    bits = tilec::toBFloat16Bits(float(asDouble));
    break;
  case DType::fp32: {
    float f = float(asDouble);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = u;
    break;
  }
  case DType::fp64:
    std::memcpy(&bits, &asDouble, 8);
    break;
  case DType::i32:
  case DType::u32:
    bits = uint32_t(asInt);
    break;
  case DType::i1:
    bits = asInt != 0;
    break;
  default:
    bits = uint64_t(asInt);
    break;
  }
  return bits;
}
