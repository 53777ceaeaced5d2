//===- TargetQueries.h - What host code asks about the target ---*- C++ -*-===//
//
// Host code that Triton runs while it imports a file or tunes a kernel asks
// the driver about the device: `torch.cuda.get_device_capability()`,
// `triton.runtime.driver.active.get_current_target().backend` (and `.arch`,
// `.warp_size`). tilec answers for the target it compiles for, so module-
// level conditions (`if supports_host_descriptor():`) and config filters
// (`torch.cuda.get_device_capability()[0] == 9`) take the branch Triton
// would take on that device.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_TARGETQUERIES_H
#define TILE_FRONTEND_TARGETQUERIES_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Value.h"

#include <optional>

namespace tilec {

/// The answer to `e` when it is one of the queries above, for a CUDA
/// device of compute capability `computeCapability` (90: sm_90); sets
/// `handled` then.
std::optional<Val> evalTargetQuery(const Expr &e, unsigned computeCapability,
                                   bool &handled);

} // namespace tilec

#endif // TILE_FRONTEND_TARGETQUERIES_H
