//===- GenBuiltinsExperimental.cpp - Triton 3.x's experimental TMA API ----===//
//
// Triton 3.0-3.3 reached the TMA unit through an experimental API before
// tensor descriptors: `tl._experimental_descriptor_load(desc, offsets,
// shape, dtype)` and `_experimental_descriptor_store(desc, value, offsets)`
// on a host-made descriptor (tutorial 06's `_attn_fwd_tma`, tutorial 09's
// `matmul_kernel_tma_persistent`) or on one the kernel wrote into a
// workspace with `tl.extra.cuda.experimental_device_tensormap_create2d`.
// Here every one of them is a tensor descriptor: a host-made one is a
// `tensordesc<...>` parameter, and a workspace's becomes the variable that
// named the workspace (the parser makes the call an assignment to it).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

using namespace tilec;
using mlir::failure;
using mlir::FailureOr;

FailureOr<Val> Generator::builtinExperimentalDescriptor(llvm::StringRef name,
                                                        const CallArgs &args,
                                                        llvm::SMLoc at) {
  auto requireDescriptor = [&](const Val &v,
                               llvm::SMLoc vAt) -> mlir::LogicalResult {
    if (v.isRuntime() && v.getType().isDescriptor)
      return mlir::success();
    return error(vAt,
                 name +
                     " needs a tensor descriptor: a kernel parameter "
                     "annotated tensordesc<...> (a host-made descriptor), or "
                     "a variable experimental_device_tensormap_create2d"
                     "(desc_ptr=variable, ...) made one; got " +
                     v.describe());
  };
  // The descriptor's block shape, as the call states it.
  auto checkShape = [&](const Val &desc, const std::optional<Val> &shape,
                        llvm::SMLoc shapeAt) -> mlir::LogicalResult {
    FailureOr<llvm::SmallVector<int64_t, 4>> dims =
        requireIntList(shape, shapeAt, "shape");
    if (failed(dims))
      return mlir::failure();
    llvm::ArrayRef<int64_t> block = desc.getType().shape;
    if (llvm::ArrayRef<int64_t>(*dims) != block)
      return error(shapeAt, name + ": the shape " + formatShape(*dims) +
                                " is not the descriptor's block shape " +
                                formatShape(block));
    return mlir::success();
  };
  // A dtype of the descriptor's element width: the loaded bits as that type
  // (a descriptor of bytes read as fp8, as Triton's host descriptors know
  // only the element size).
  auto checkDType = [&](const Val &desc, const std::optional<Val> &dtype,
                        llvm::SMLoc dtypeAt) -> FailureOr<ScalarType> {
    FailureOr<ScalarType> t = requireDType(dtype, dtypeAt, "dtype");
    if (failed(t))
      return failure();
    ScalarType elem = desc.getType().element;
    if (getBitWidth(*t) != getBitWidth(elem)) {
      (void)error(dtypeAt, name + ": dtype " + getName(*t).str() +
                               " is not as wide as the descriptor's "
                               "elements (" +
                               getName(elem).str() + ")");
      return failure();
    }
    return *t;
  };

  // The descriptor (argument 0) with its block shape and a dtype of its
  // elements' width, as the call states them: the dtype.
  auto checkedDescriptor = [&](const BoundArgs &b, unsigned shapeIndex,
                               unsigned dtypeIndex) -> FailureOr<ScalarType> {
    const Val &desc = *b[0];
    if (failed(requireDescriptor(desc, b.loc(0, at))) ||
        failed(checkShape(desc, b[shapeIndex], b.loc(shapeIndex, at))))
      return failure();
    return checkDType(desc, b[dtypeIndex], b.loc(dtypeIndex, at));
  };

  if (name == "_experimental_descriptor_load") {
    FailureOr<BoundArgs> b =
        bind(name, {"desc_pointer", "offsets", "shape", "dtype"}, 4, args, at);
    if (failed(b))
      return failure();
    const Val &desc = *(*b)[0];
    FailureOr<ScalarType> dtype = checkedDescriptor(*b, 2, 3);
    if (failed(dtype))
      return failure();
    CallArgs load;
    load.positional = {desc, *(*b)[1]};
    load.positionalLocs = {b->loc(0, at), b->loc(1, at)};
    FailureOr<Val> value = builtinDescriptorLoad(load, at);
    if (failed(value) || *dtype == desc.getType().element)
      return value;
    return builtinCast(
        CallArgs::positionalAt(
            {*value, Val::dtype(*dtype), Val::none(), Val::boolean(true)}, at),
        at);
  }
  if (name == "_experimental_descriptor_store") {
    FailureOr<BoundArgs> b =
        bind(name, {"desc_pointer", "value", "offsets"}, 3, args, at);
    if (failed(b))
      return failure();
    const Val &desc = *(*b)[0];
    if (failed(requireDescriptor(desc, b->loc(0, at))))
      return failure();
    CallArgs store;
    store.positional = {desc, *(*b)[2], *(*b)[1]};
    store.positionalLocs = {b->loc(0, at), b->loc(2, at), b->loc(1, at)};
    return builtinDescriptorStore(store, at);
  }
  if (name == "_experimental_reinterpret_tensor_descriptor") {
    // Triton 3.3's view of a descriptor's bytes as a descriptor: here the
    // descriptor itself, of the block shape and dtype it already has.
    FailureOr<BoundArgs> b =
        bind(name, {"desc_ptr", "block_shape", "dtype"}, 3, args, at);
    if (failed(b))
      return failure();
    const Val &desc = *(*b)[0];
    FailureOr<ScalarType> dtype = checkedDescriptor(*b, 1, 2);
    if (failed(dtype))
      return failure();
    if (*dtype != desc.getType().element)
      return error(b->loc(2, at), name + ": dtype " + getName(*dtype).str() +
                                      " differs from the descriptor's " +
                                      getName(desc.getType().element).str());
    return desc;
  }
  if (name == "experimental_tensormap_fenceproxy_acquire") {
    // Orders the workspace's writes before the TMA unit reads them; the
    // descriptors here need no workspace.
    FailureOr<BoundArgs> b = bind(name, {"desc_ptr"}, 1, args, at);
    if (failed(b))
      return failure();
    const Val &desc = *(*b)[0];
    if (!(desc.isRuntime() &&
          (desc.getType().isDescriptor || desc.getType().isPointer)))
      return error(b->loc(0, at),
                   name + " needs a descriptor, got " + desc.describe());
    return Val::none();
  }

  // experimental_device_tensormap_create1d / create2d.
  bool twoD = name == "experimental_device_tensormap_create2d";
  FailureOr<BoundArgs> b = bind(
      name,
      {"desc_ptr", "global_address", "load_size", "global_size", "element_ty"},
      5, args, at);
  if (failed(b))
    return failure();
  const Val &workspace = *(*b)[0];
  if (!(workspace.isRuntime() &&
        ((workspace.getType().isPointer && workspace.getType().isScalar()) ||
         workspace.getType().isDescriptor)))
    return error(b->loc(0, at), name +
                                    ": desc_ptr must be a pointer to the "
                                    "descriptor's workspace, got " +
                                    workspace.describe());
  Val address = *(*b)[1];
  if (!address.isRuntime() || !address.getType().isPointer ||
      !address.getType().isScalar())
    return error(b->loc(1, at), name +
                                    ": global_address must be a scalar "
                                    "pointer, got " +
                                    address.describe());
  FailureOr<ScalarType> elem =
      requireDType((*b)[4], b->loc(4, at), "element_ty");
  if (failed(elem))
    return failure();
  if (*elem != address.getType().element) {
    if (getBitWidth(*elem) != getBitWidth(address.getType().element))
      return error(b->loc(4, at),
                   name + ": element_ty " + getName(*elem).str() +
                       " is not as wide as global_address's elements (" +
                       getName(address.getType().element).str() + ")");
    FailureOr<Val> cast = castToPointer(address, *elem, b->loc(1, at), at);
    if (failed(cast))
      return failure();
    address = *cast;
  }
  // Sizes and the load's block, as lists (create1d takes single values).
  auto asList = [](const Val &v) { return v.isTuple() ? v : Val::tuple({v}); };
  Val loadSize = asList(*(*b)[2]);
  Val globalSize = asList(*(*b)[3]);
  size_t rank = twoD ? 2 : 1;
  if (loadSize.getElements().size() != rank ||
      globalSize.getElements().size() != rank)
    return error(at, name + " takes " + std::to_string(rank) +
                         "-dimensional load_size and global_size");
  // Rows are contiguous: the row stride is the row's length.
  std::vector<Val> strides;
  if (twoD)
    strides.push_back(globalSize.getElements()[1]);
  strides.push_back(Val::integer(1));
  CallArgs make;
  make.positional = {address, globalSize, Val::tuple(std::move(strides)),
                     loadSize};
  make.positionalLocs = {b->loc(1, at), b->loc(3, at), b->loc(3, at),
                         b->loc(2, at)};
  // Re-made from the same arguments (tutorial 09's tiles_per_update), the
  // descriptor is the same ops, which CSE merges; tile-combine then drops
  // the loop-carried copy.
  return builtinMakeTensorDescriptor(make, at);
}
