//===- DType.cpp - Element types of the .tile language --------------------===//

#include "tile/Frontend/DType.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilec;

bool tilec::isFloat(ScalarType t) {
  switch (t) {
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::F32:
  case ScalarType::F64:
  case ScalarType::FP8E4M3:
  case ScalarType::FP8E5M2:
    return true;
  default:
    return false;
  }
}

bool tilec::isInteger(ScalarType t) { return !isFloat(t); }

bool tilec::isUnsigned(ScalarType t) {
  return t == ScalarType::U8 || t == ScalarType::U16 || t == ScalarType::U32 ||
         t == ScalarType::U64;
}

bool tilec::isFloat8(ScalarType t) {
  return t == ScalarType::FP8E4M3 || t == ScalarType::FP8E5M2;
}

unsigned tilec::getBitWidth(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
    return 1;
  case ScalarType::I8:
  case ScalarType::U8:
  case ScalarType::FP8E4M3:
  case ScalarType::FP8E5M2:
    return 8;
  case ScalarType::I16:
  case ScalarType::U16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 16;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::F32:
    return 32;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::F64:
    return 64;
  }
  return 0;
}

llvm::StringRef tilec::getName(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
    return "i1";
  case ScalarType::I8:
    return "i8";
  case ScalarType::I16:
    return "i16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  case ScalarType::U8:
    return "u8";
  case ScalarType::U16:
    return "u16";
  case ScalarType::U32:
    return "u32";
  case ScalarType::U64:
    return "u64";
  case ScalarType::F16:
    return "fp16";
  case ScalarType::BF16:
    return "bf16";
  case ScalarType::F32:
    return "fp32";
  case ScalarType::F64:
    return "fp64";
  case ScalarType::FP8E4M3:
    return "fp8e4nv";
  case ScalarType::FP8E5M2:
    return "fp8e5";
  }
  return "?";
}

std::optional<ScalarType> tilec::parseScalarType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarType>>(name)
      .Cases({"i1", "int1"}, ScalarType::I1)
      .Cases({"i8", "int8"}, ScalarType::I8)
      .Cases({"i16", "int16"}, ScalarType::I16)
      .Cases({"i32", "int32"}, ScalarType::I32)
      .Cases({"i64", "int64"}, ScalarType::I64)
      .Cases({"u8", "uint8"}, ScalarType::U8)
      .Cases({"u16", "uint16"}, ScalarType::U16)
      .Cases({"u32", "uint32"}, ScalarType::U32)
      .Cases({"u64", "uint64"}, ScalarType::U64)
      .Cases({"fp16", "float16"}, ScalarType::F16)
      .Cases({"bf16", "bfloat16"}, ScalarType::BF16)
      .Cases({"fp32", "float32"}, ScalarType::F32)
      .Cases({"fp64", "float64"}, ScalarType::F64)
      .Cases({"fp8e4nv", "float8e4nv", "fp8e4m3", "float8_e4m3fn"},
             ScalarType::FP8E4M3)
      .Cases({"fp8e5", "float8e5", "fp8e5m2", "float8_e5m2"},
             ScalarType::FP8E5M2)
      .Default(std::nullopt);
}
