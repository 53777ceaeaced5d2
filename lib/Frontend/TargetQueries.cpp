//===- TargetQueries.cpp - What host code asks about the target -----------===//

#include "tile/Frontend/TargetQueries.h"

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

std::optional<Val> tilec::evalTargetQuery(const Expr &e,
                                          unsigned computeCapability,
                                          bool &handled) {
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
