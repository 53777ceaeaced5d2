//===- TargetQueries.h - What host code asks about the target ---*- C++ -*-===//
//
// Host code that Triton runs while it imports a file or tunes a kernel asks
// the driver about the device: `torch.cuda.get_device_capability()`,
// `triton.runtime.driver.active.get_current_target().backend` (and `.arch`,
// `.warp_size`), `torch.cuda.get_device_properties(d).multi_processor_count`,
// `triton.runtime.driver.active.utils.get_device_properties(d)
// ["max_shared_mem"]`, and about dtypes: `torch.finfo(torch.float16).max`.
// tilec answers for the target it compiles for (its flagship part), so
// module-level conditions (`if supports_host_descriptor():`), config
// filters (`torch.cuda.get_device_capability()[0] == 9`) and prune
// functions take the branch Triton would take on that device.
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

/// `torch.finfo(torch.T).ATTR` and `torch.iinfo(torch.T).ATTR` (vLLM's
/// `float8_info = torch.finfo(torch.float8_e4m3fn)`, then `float8_info.min`
/// as a constexpr default): `info` is what evalTargetQuery gives for the
/// call; ATTR is min, max, bits, and for floats eps and tiny. Nullopt for
/// anything else.
std::optional<Val> numericLimit(const Val &info, llvm::StringRef attr);

} // namespace tilec

#endif // TILE_FRONTEND_TARGETQUERIES_H
