//===- NVPTX.h - From the gpu.module to PTX and cubin -----------*- C++ -*-===//
//
// The back end: lowers the gpu.module to the LLVM and NVVM dialects with
// upstream conversions, translates it to LLVM IR, links libdevice when a
// math function needs it, optimizes with a pipeline chosen for the
// per-thread code (NVPTX.cpp says why) and emits PTX with LLVM's NVPTX
// back end, all in process. Assembling PTX to a cubin uses the CUDA
// toolkit's ptxas.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_NVPTX_H
#define TILE_TARGET_NVPTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>

namespace tilec {

struct TargetInfo {
  std::string arch = "sm_90a"; // sm_90a, sm_90 or sm_80
  /// Contract a multiply and a dependent add into one fma (and leave ptxas
  /// free to), as Triton's `enable_fp_fusion` does by default; off, every
  /// fp32 multiply and add rounds on its own (`mul.rn`, `add.rn`).
  bool fpFusion = true;
  /// The PTX ISA version LLVM emits for this architecture (+ptx80 for sm_90).
  std::string features() const;
  unsigned computeCapability() const;
};

/// Checks that `arch` is one the compiler supports; the message says which
/// are.
llvm::Error validateArch(llvm::StringRef arch);

/// Add the passes that lower a module at the gpu level (after
/// convert-tilegpu-to-gpu) to the LLVM and NVVM dialects.
void addLowerToLLVMPasses(mlir::PassManager &pm);

/// Translate the module's gpu.module to LLVM IR, link the libdevice
/// functions it calls and optimize it for `target`.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                  const TargetInfo &target);

/// Emit PTX for an optimized module.
llvm::Expected<std::string> emitPTX(llvm::Module &module,
                                    const TargetInfo &target);

/// The CUDA toolkit directory ($CUDA_HOME, $CUDA_PATH, or /usr/local/cuda
/// when it exists); empty when none is found.
std::string findCudaToolkit();

/// Whether ptxas (from the CUDA toolkit or on PATH) is there to assemble.
bool haveAssembler();

/// Assemble PTX into a cubin with ptxas from the CUDA toolkit; with
/// `report`, also ptxas's resource report (`-v`: registers, spills).
llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx,
                                          const TargetInfo &target,
                                          std::string *report = nullptr);

} // namespace tilec

#endif // TILE_TARGET_NVPTX_H
