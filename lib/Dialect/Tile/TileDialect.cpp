//===- TileDialect.cpp - Tile dialect registration and types --------------===//

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/TileTypes.cpp.inc"

namespace {
/// All tile ops may be inlined (helpers are inlined by the frontend; this
/// lets upstream passes inline too).
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/TileOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface>();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointeeType) {
  if (!pointeeType.isIntOrFloat())
    return emitError() << "pointee must be an integer or float type, got "
                       << pointeeType;
  return success();
}

Type mlir::tile::getSameShape(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

bool mlir::tile::usedOnlyAsDotOperand(Value v, DotOp dot) {
  return !v.use_empty() && llvm::all_of(v.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto trans = dyn_cast<TransOp>(user))
      return usedOnlyAsDotOperand(trans.getResult(), dot);
    return isa<DotOp>(user) && (!dot || user == dot.getOperation()) &&
           use.getOperandNumber() < 2;
  });
}

Type mlir::tile::getPointeeOrSameShape(Type type) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(type));
  if (!ptr)
    return type;
  return getSameShape(type, ptr.getPointeeType());
}

Type mlir::tile::getI1SameShape(Type type) {
  return getSameShape(type, IntegerType::get(type.getContext(), 1));
}

bool mlir::tile::programsMayCommunicate(Operation *kernel) {
  return kernel
      ->walk([](Operation *op) {
        auto load = dyn_cast<LoadOp>(op);
        return isa<AtomicRMWOp, InlineAsmOp>(op) ||
                       (load && load.getIsVolatile())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}
