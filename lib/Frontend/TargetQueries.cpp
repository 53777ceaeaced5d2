//===- TargetQueries.cpp - What host code asks about the target -----------===//

#include "tile/Frontend/TargetQueries.h"
#include "tile/Frontend/Specialize.h"

using namespace tilec;
using llvm::dyn_cast;

/// Whether `e` spells the dotted name `path` (`torch.cuda`).
static bool isDotted(const Expr &e, llvm::ArrayRef<llvm::StringRef> path) {
  if (path.size() == 1) {
    auto *name = dyn_cast<NameExpr>(&e);
    return name && name->name == path[0];
  }
  auto *attr = dyn_cast<AttributeExpr>(&e);
  return attr && attr->attr == path.back() &&
         isDotted(*attr->base, path.drop_back());
}

/// Whether `e` is a call without arguments of the dotted name `path`.
static bool isQueryCall(const Expr &e, llvm::ArrayRef<llvm::StringRef> path) {
  auto *call = dyn_cast<CallExpr>(&e);
  return call && call->args.empty() && call->keywords.empty() &&
         isDotted(*call->callee, path);
}

static constexpr llvm::StringLiteral kFInfo = "torch.finfo:",
                                     kIInfo = "torch.iinfo:";

std::optional<Val> tilec::numericLimit(const Val &info, llvm::StringRef attr) {
  if (info.getKind() != Val::Kind::Namespace)
    return std::nullopt;
  llvm::StringRef name = info.getName();
  bool isFloatInfo = name.consume_front(kFInfo);
  if (!isFloatInfo && !name.consume_front(kIInfo))
    return std::nullopt;
  std::optional<ScalarType> t = parseScalarType(name);
  if (!t)
    return std::nullopt;
  unsigned bits = getBitWidth(*t);
  if (attr == "bits")
    return Val::integer(bits);
  if (!isFloatInfo) {
    bool isSigned = !isUnsigned(*t);
    int64_t max = isSigned     ? int64_t((uint64_t(1) << (bits - 1)) - 1)
                  : bits == 64 ? -1 // uint64's max does not fit: refused
                               : int64_t((uint64_t(1) << bits) - 1);
    if (attr == "max" && max >= 0)
      return Val::integer(max);
    if (attr == "min")
      return Val::integer(isSigned ? -max - 1 : 0);
    return std::nullopt;
  }
  // Largest finite value, machine epsilon and smallest normal value.
  struct Limits {
    double max, eps, tiny;
  };
  std::optional<Limits> limits;
  switch (*t) {
  case ScalarType::F16:
    limits = Limits{65504.0, 0x1p-10, 0x1p-14};
    break;
  case ScalarType::BF16:
    limits = Limits{0x1.fep127, 0x1p-7, 0x1p-126};
    break;
  case ScalarType::F32:
    limits = Limits{0x1.fffffep127, 0x1p-23, 0x1p-126};
    break;
  case ScalarType::F64:
    limits = Limits{0x1.fffffffffffffp1023, 0x1p-52, 0x1p-1022};
    break;
  case ScalarType::FP8E4M3:
    limits = Limits{448.0, 0x1p-3, 0x1p-6};
    break;
  case ScalarType::FP8E5M2:
    limits = Limits{57344.0, 0x1p-2, 0x1p-14};
    break;
  default:
    return std::nullopt;
  }
  if (attr == "max")
    return Val::floating(limits->max);
  if (attr == "min")
    return Val::floating(-limits->max);
  if (attr == "eps")
    return Val::floating(limits->eps);
  if (attr == "tiny" || attr == "smallest_normal")
    return Val::floating(limits->tiny);
  return std::nullopt;
}

std::optional<Val> tilec::evalTargetQuery(const Expr &e,
                                          unsigned computeCapability,
                                          bool &handled) {
  // torch.finfo(torch.T) / torch.iinfo(torch.T): a value whose attributes
  // numericLimit answers.
  if (auto *call = dyn_cast<CallExpr>(&e);
      call && call->args.size() == 1 && call->keywords.empty()) {
    bool floats = isDotted(*call->callee, {"torch", "finfo"});
    bool ints = isDotted(*call->callee, {"torch", "iinfo"});
    auto *dtype = dyn_cast<AttributeExpr>(call->args[0].get());
    std::optional<ScalarType> t =
        (floats || ints) && dtype && isDotted(*dtype->base, {"torch"})
            ? parseScalarType(dtype->attr)
            : std::nullopt;
    if (t && (floats ? isFloat(*t) : isInteger(*t) && *t != ScalarType::I1)) {
      handled = true;
      return Val::nameSpace(((floats ? kFInfo : kIInfo) + getName(*t)).str());
    }
  }
  if (isQueryCall(e, {"torch", "cuda", "current_device"})) {
    handled = true;
    return Val::integer(0);
  }
  // The device's properties, as torch and Triton's driver give them (a
  // prune function's shared-memory budget, a heuristic's SM count).
  auto isPropertiesCall = [](const Expr &x, bool triton) {
    auto *call = dyn_cast<CallExpr>(&x);
    if (!call || call->args.size() > 1)
      return false;
    if (!triton)
      return isDotted(*call->callee,
                      {"torch", "cuda", "get_device_properties"});
    return isDotted(*call->callee, {"triton", "runtime", "driver", "utils",
                                    "get_device_properties"}) ||
           isDotted(*call->callee, {"triton", "runtime", "driver", "active",
                                    "utils", "get_device_properties"});
  };
  auto property = [&](llvm::StringRef key) -> std::optional<Val> {
    unsigned sharedBytes = computeCapability >= 90   ? 232448
                           : computeCapability == 80 ? 166912
                                                     : 101376;
    if (key == "multi_processor_count" || key == "multiprocessor_count")
      return Val::integer(defaultNumSMs(computeCapability));
    if (key == "max_shared_mem" || key == "shared_memory_per_block_optin")
      return Val::integer(sharedBytes);
    if (key == "warp_size" || key == "warpSize")
      return Val::integer(32);
    if (key == "max_num_regs" || key == "regs_per_multiprocessor")
      return Val::integer(65536);
    if (key == "major")
      return Val::integer(computeCapability / 10);
    if (key == "minor")
      return Val::integer(computeCapability % 10);
    return std::nullopt;
  };
  // flash-attn's `getattr(torch.cuda.get_device_properties(d),
  // "warp_size", 32)`.
  if (auto *call = dyn_cast<CallExpr>(&e);
      call && isDotted(*call->callee, {"getattr"}) &&
      (call->args.size() == 2 || call->args.size() == 3) &&
      isPropertiesCall(*call->args[0], /*triton=*/false))
    if (auto *key = dyn_cast<StrExpr>(call->args[1].get()))
      if (std::optional<Val> v = property(key->value)) {
        handled = true;
        return v;
      }
  if (auto *attr = dyn_cast<AttributeExpr>(&e);
      attr && isPropertiesCall(*attr->base, /*triton=*/false))
    if (std::optional<Val> v = property(attr->attr)) {
      handled = true;
      return v;
    }
  if (auto *sub = dyn_cast<SubscriptExpr>(&e);
      sub && sub->indices.size() == 1 &&
      isPropertiesCall(*sub->base, /*triton=*/true))
    if (auto *key = dyn_cast<StrExpr>(sub->indices[0].get()))
      if (std::optional<Val> v = property(key->value)) {
        handled = true;
        return v;
      }
  if (isQueryCall(e, {"torch", "cuda", "get_device_capability"})) {
    handled = true;
    return Val::tuple({Val::integer(computeCapability / 10),
                       Val::integer(computeCapability % 10)});
  }
  // A CUDA build of torch: `TT_FP8_DTYPE = tl.float8e4b8 if
  // torch.version.hip else tl.float8e4nv` (FBGEMM, applied-ai).
  if (isDotted(e, {"torch", "version", "hip"})) {
    handled = true;
    return Val::none();
  }
  // The Python a Triton 3.6 install runs on (3.10 to 3.14): 3.12, for
  // conditions such as xformers' `if sys.version_info >= (3, 9):`.
  if (isDotted(e, {"sys", "version_info"})) {
    handled = true;
    return Val::tuple({Val::integer(3), Val::integer(12), Val::integer(0)});
  }
  auto *attr = dyn_cast<AttributeExpr>(&e);
  if (!attr || !isQueryCall(*attr->base, {"triton", "runtime", "driver",
                                          "active", "get_current_target"}))
    return std::nullopt;
  if (attr->attr == "backend") {
    handled = true;
    return Val::string("cuda");
  }
  if (attr->attr == "arch") {
    handled = true;
    return Val::integer(computeCapability);
  }
  if (attr->attr == "warp_size") {
    handled = true;
    return Val::integer(32);
  }
  return std::nullopt;
}
