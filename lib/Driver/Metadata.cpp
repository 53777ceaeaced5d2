//===- Metadata.cpp - Kernel metadata, PTX parameter ABI, launch header ---===//

#include "tile/Driver/Compiler.h"

#include "llvm/ADT/StringExtras.h"
#include <cmath>
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

static void writeConstexpr(llvm::json::OStream &j, const Val &v) {
  switch (v.getKind()) {
  case Val::Kind::Bool:
    j.value(v.getBool());
    return;
  case Val::Kind::Int:
    j.value(v.getInt());
    return;
  case Val::Kind::Float: {
    double f = v.getFloat();
    if (std::isfinite(f))
      j.rawValue([&](llvm::raw_ostream &os) { os << v.repr(); });
    else
      j.value(v.repr()); // JSON has no inf or nan: float('inf') as text
    return;
  }
  case Val::Kind::Str:
    j.value(v.getString());
    return;
  case Val::Kind::None:
    j.value(nullptr);
    return;
  case Val::Kind::Tuple:
    j.array([&] {
      for (const Val &e : v.getElements())
        writeConstexpr(j, e);
    });
    return;
  default:
    j.value(v.repr());
    return;
  }
}

static void writeKernel(llvm::json::OStream &j, const KernelMetadata &k) {
  j.object([&] {
    j.attribute("kernel", k.name);
    j.attribute("arch", k.arch);
    j.attribute("num_warps", k.numWarps);
    j.attribute("num_stages", k.numStages);
    j.attribute("threads_per_block", k.threadsPerBlock());
    // A warp-specialized kernel's TMA producer warps, launched beside
    // num_warps (threads_per_block counts them).
    if (k.producerWarps)
      j.attribute("producer_warps", k.producerWarps);
    j.attribute("shared_bytes", k.sharedBytes);
    j.attributeArray("params", [&] {
      for (const KernelMetadata::Param &p : k.params)
        j.object([&] {
          j.attribute("name", p.name);
          j.attribute("type", p.type);
          // Beyond the contract's two keys: what the launcher must honour.
          if (p.divisibility > 1)
            j.attribute("divisibility", p.divisibility);
          if (p.equalsOne)
            j.attribute("value", 1);
          if (p.defaultNone)
            j.attribute("default", nullptr);
        });
    });
    j.attributeObject("constexprs", [&] {
      for (auto &[name, value] : k.constexprs)
        j.attributeBegin(name), writeConstexpr(j, value), j.attributeEnd();
    });
    if (!k.grid.empty()) {
      j.attributeArray("grid", [&] {
        for (size_t i = 0; i < 3; ++i)
          j.value(i < k.grid.size() ? k.grid[i] : std::string("1"));
      });
    }
    auto names = [&](llvm::StringRef key, llvm::ArrayRef<std::string> list) {
      if (list.empty())
        return;
      j.attributeArray(key, [&] {
        for (const std::string &name : list)
          j.value(name);
      });
    };
    names("zero_before_launch", k.zeroBeforeLaunch);
    names("reset_to_zero", k.resetToZero);
    names("restore_value", k.restoreValue);
  });
}

void tilec::writeMetadataJSON(llvm::ArrayRef<KernelMetadata> kernels,
                              llvm::raw_ostream &os) {
  llvm::json::OStream j(os, /*IndentSize=*/2);
  if (kernels.size() == 1) {
    writeKernel(j, kernels[0]);
  } else {
    j.array([&] {
      for (const KernelMetadata &k : kernels)
        writeKernel(j, k);
    });
  }
  os << "\n";
}

/// The PTX parameter type of a .tile parameter type.
static llvm::StringRef ptxParamType(llvm::StringRef type) {
  if (type.starts_with("*"))
    return ".u64";
  if (type == "i32")
    return ".s32";
  if (type == "i64")
    return ".s64";
  if (type == "fp32")
    return ".f32";
  if (type == "fp64")
    return ".f64";
  if (type == "fp16" || type == "bf16")
    return ".b16";
  if (type == "i1")
    return ".u8";
  return "";
}

std::string tilec::applyParameterABI(llvm::StringRef ptx,
                                     llvm::ArrayRef<KernelMetadata> kernels) {
  std::string out = ptx.str();
  for (const KernelMetadata &k : kernels) {
    std::string header = ".entry " + k.name + "(";
    size_t start = out.find(header);
    if (start == std::string::npos)
      continue;
    size_t pos = start + header.size();
    size_t end = out.find(')', pos);
    if (end == std::string::npos)
      continue;
    // Rebuild the parameter list: ".param TYPE NAME" per line, in order.
    llvm::StringRef list(out.data() + pos, end - pos);
    llvm::SmallVector<llvm::StringRef> lines;
    list.split(lines, '\n');
    std::string rebuilt;
    size_t index = 0;
    for (llvm::StringRef line : lines) {
      llvm::StringRef trimmed = line.trim();
      if (!trimmed.starts_with(".param")) {
        rebuilt += line.str() + (&line != &lines.back() ? "\n" : "");
        continue;
      }
      bool comma = trimmed.ends_with(",");
      llvm::StringRef decl = comma ? trimmed.drop_back() : trimmed;
      llvm::StringRef name = decl.rsplit(' ').second;
      name = name.take_until([](char c) { return c == '['; });
      llvm::StringRef type =
          index < k.params.size() ? ptxParamType(k.params[index].type) : "";
      if (type.empty())
        rebuilt += line.str();
      else
        rebuilt += "\t.param " + type.str() + " " + name.str() +
                   (comma ? "," : "");
      if (&line != &lines.back())
        rebuilt += "\n";
      ++index;
    }
    out.replace(pos, end - pos, rebuilt);
  }
  return out;
}

/// A C expression for a grid expression (integer division, helpers for
/// cdiv/min/max).
static std::string gridToC(llvm::StringRef expr) {
  std::string s = expr.str();
  auto replaceAll = [&](llvm::StringRef from, llvm::StringRef to) {
    size_t p = 0;
    while ((p = s.find(from.str(), p)) != std::string::npos) {
      s.replace(p, from.size(), to.str());
      p += to.size();
    }
  };
  replaceAll("//", "/");
  replaceAll("cdiv(", "tile_cdiv(");
  replaceAll("min(", "tile_min(");
  replaceAll("max(", "tile_max(");
  return s;
}

static std::string cParamType(llvm::StringRef type) {
  if (type.starts_with("*"))
    return "CUdeviceptr";
  if (type == "i32")
    return "int32_t";
  if (type == "i64")
    return "int64_t";
  if (type == "fp32")
    return "float";
  if (type == "fp64")
    return "double";
  if (type == "fp16" || type == "bf16")
    return "uint16_t /* " + type.str() + " bits */";
  return "uint8_t";
}

std::string tilec::emitLaunchHeader(llvm::StringRef ptx,
                                    llvm::ArrayRef<KernelMetadata> kernels,
                                    llvm::StringRef guardName) {
  std::string out;
  llvm::raw_string_ostream os(out);
  std::string guard = guardName.upper();
  std::string prefix = guardName.str();
  os << "/* Generated by tilec. Do not edit. */\n"
     << "#ifndef TILE_" << guard << "_H\n#define TILE_" << guard << "_H\n\n"
     << "#include <cuda.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "static const char " << prefix << "_ptx[] =\n";
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    os << "    \"";
    os.write_escaped(line);
    os << "\\n\"\n";
  }
  os << "    ;\n\n"
     << "static inline int64_t tile_cdiv(int64_t a, int64_t b) { return (a + b "
        "- 1) / b; }\n"
     << "static inline int64_t tile_min(int64_t a, int64_t b) { return a < b ? "
        "a : b; }\n"
     << "static inline int64_t tile_max(int64_t a, int64_t b) { return a > b ? "
        "a : b; }\n\n"
     << "/* Loads the module into the current context on first use. */\n"
     << "static inline CUresult " << prefix << "_module(CUmodule *m) {\n"
     << "  static CUmodule module;\n"
     << "  if (!module) {\n"
     << "    CUresult r = cuModuleLoadData(&module, " << prefix << "_ptx);\n"
     << "    if (r != CUDA_SUCCESS) return r;\n  }\n"
     << "  *m = module;\n  return CUDA_SUCCESS;\n}\n\n";
  for (const KernelMetadata &k : kernels) {
    os << "/* " << k.name << ": " << k.threadsPerBlock() << " threads, "
       << k.sharedBytes << " bytes of dynamic shared memory. */\n"
       << "static inline CUresult " << k.name << "_launch(CUstream tile_stream";
    if (k.grid.empty())
      os << ", unsigned tile_grid_x, unsigned tile_grid_y, unsigned tile_grid_z";
    for (const KernelMetadata::Param &p : k.params)
      os << ", " << cParamType(p.type) << " " << p.name;
    os << ") {\n"
       << "  static CUfunction tile_fn;\n  CUresult tile_r;\n"
       << "  if (!tile_fn) {\n    CUmodule tile_m;\n"
       << "    if ((tile_r = " << prefix
       << "_module(&tile_m)) != CUDA_SUCCESS) return tile_r;\n"
       << "    if ((tile_r = cuModuleGetFunction(&tile_fn, tile_m, \"" << k.name
       << "\")) != CUDA_SUCCESS) return tile_r;\n";
    if (k.sharedBytes > 48 * 1024)
      os << "    if ((tile_r = cuFuncSetAttribute(tile_fn, "
            "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
         << k.sharedBytes << ")) != CUDA_SUCCESS) return tile_r;\n";
    os << "  }\n";
    if (!k.grid.empty())
      for (size_t i = 0; i < 3; ++i)
        os << "  int64_t tile_grid_" << "xyz"[i] << " = "
           << (i < k.grid.size() ? gridToC(k.grid[i]) : std::string("1"))
           << ";\n";
    os << "  void *tile_args[] = {";
    for (size_t i = 0; i < k.params.size(); ++i)
      os << (i ? ", " : "") << "&" << k.params[i].name;
    if (k.params.empty())
      os << "0";
    os << "};\n"
       << "  return cuLaunchKernel(tile_fn, (unsigned)tile_grid_x, "
          "(unsigned)tile_grid_y, (unsigned)tile_grid_z, "
       << k.threadsPerBlock() << ", 1, 1, " << k.sharedBytes
       << ", tile_stream, tile_args, 0);\n}\n\n";
  }
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return out;
}
