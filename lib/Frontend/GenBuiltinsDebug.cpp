//===- GenBuiltinsDebug.cpp - Compiler hints and debugging builtins -------===//
//
// multiple_of, max_contiguous, max_constancy and assume, which only inform
// the compiler's analyses, and device_print, device_assert, static_print
// and static_assert.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace tilec;
using namespace mlir;

FailureOr<Val> Generator::builtinHint(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind(name, {"input", "values"}, 2, args, at);
  if (failed(b))
    return failure();
  Val input = *(*b)[0];
  if (!input.isRuntime())
    return input; // hints on constants say nothing new
  if (input.getType().isBlockPointer ||
      !(isInteger(input.getType().element) || input.getType().isPointer))
    return error(b->loc(0, at),
                 name + " needs integers or pointers, got " + input.describe());
  FailureOr<SmallVector<int64_t, 4>> values =
      requireIntList((*b)[1], b->loc(1, at), "values");
  if (failed(values))
    return failure();
  size_t rank = std::max<size_t>(1, input.getType().shape.size());
  if (values->size() == 1 && rank > 1)
    values->resize(rank, (*values)[0]);
  if (values->size() != rank)
    return error(b->loc(1, at), name + " needs " + std::to_string(rank) +
                                    " values for this block");
  SmallVector<int32_t> v32;
  for (int64_t v : *values) {
    if (v <= 0 || v > INT32_MAX)
      return error(b->loc(1, at), name + " values must be positive");
    v32.push_back(v);
  }
  auto hint = tile::HintOp::create(builder, loc(at), input.getValue());
  if (name == "multiple_of")
    hint.setMultipleOfAttr(builder.getDenseI32ArrayAttr(v32));
  else if (name == "max_contiguous")
    hint.setMaxContiguousAttr(builder.getDenseI32ArrayAttr(v32));
  else
    hint.setMaxConstancyAttr(builder.getDenseI32ArrayAttr(v32));
  return Val::runtime(hint.getResult(), input.getType());
}

FailureOr<Val> Generator::builtinDebug(llvm::StringRef name,
                                       const CallArgs &args, llvm::SMLoc at) {
  if (name == "device_print")
    recordBuiltinSignature(name, [] { return "prefix, *args[, hex]"; });
  else if (name == "static_print")
    recordBuiltinSignature(name, [] { return "*args"; });
  // Triton's code generator calls device_print for a kernel's print().
  if (name == "print")
    name = "device_print";
  if (name == "static_print") {
    std::string text;
    for (const Val &v : args.positional)
      text += (text.empty() ? "" : " ") +
              (v.isConstexpr() ? v.repr() : v.describe());
    auto [line, col] = diags.getLineAndColumn(at);
    llvm::errs() << diags.getBufferName(at) << ":" << line << ":" << col
                 << ": static_print: " << text << "\n";
    return Val::none();
  }
  if (name == "static_assert" || name == "device_assert") {
    FailureOr<BoundArgs> b = bind(name, {"cond", "msg", "mask"}, 1, args, at);
    if (failed(b))
      return failure();
    FailureOr<std::string> msg = requireString((*b)[1], b->loc(1, at), "msg");
    if (failed(msg))
      return failure();
    const Val &cond = *(*b)[0];
    if (name == "static_assert") {
      if (!cond.isConstexpr())
        return error(b->loc(0, at),
                     "static_assert needs a compile-time condition; "
                     "use device_assert for run-time values");
      if (!cond.truthy()) {
        staticAssertFailed = true;
        return error(b->loc(0, at),
                     "static_assert failed" +
                         (msg->empty() ? std::string() : ": " + *msg));
      }
      return Val::none();
    }
    if (cond.isConstexpr() && cond.truthy())
      return Val::none();
    FailureOr<Val> flag;
    if (cond.isRuntime() && !cond.getType().isScalar())
      flag = cast(cond, ScalarType::I1, at);
    else
      flag = toBool(cond, b->loc(0, at));
    if (failed(flag))
      return failure();
    auto [line, col] = diags.getLineAndColumn(at);
    std::string where =
        diags.getBufferName(at).str() + ":" + std::to_string(line) + ": ";
    tile::AssertOp::create(
        builder, loc(at), flag->getValue(),
        builder.getStringAttr(where +
                              (msg->empty() ? "assertion failed" : *msg)));
    return Val::none();
  }
  // device_print(prefix, *args)
  if (args.positional.empty() || args.positional[0].getKind() != Val::Kind::Str)
    return error(args.positional.empty() ? at : args.positionalLocs[0],
                 "device_print needs a prefix string first");
  for (auto [k, kw] : llvm::enumerate(args.keywords))
    if (kw.first != "hex")
      return error(args.keywordLocs[k],
                   "'device_print' got an unexpected keyword argument '" +
                       kw.first + "'");
  SmallVector<mlir::Value> values;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    FailureOr<Val> v =
        requireRuntime(args.positional[i], args.positionalLocs[i], "value");
    if (failed(v))
      return failure();
    if (v->getType().isBlockPointer)
      return error(args.positionalLocs[i], "cannot print a block pointer");
    values.push_back(v->getValue());
  }
  tile::PrintOp::create(builder, loc(at),
                        builder.getStringAttr(args.positional[0].getString()),
                        values);
  return Val::none();
}
