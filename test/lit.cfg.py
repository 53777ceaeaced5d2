# lit configuration of the tilec test suites.
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "tilec"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".tile", ".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

llvm_config.with_system_environment(["HOME", "CUDA_HOME", "CUDA_PATH"])
llvm_config.use_default_substitutions()
llvm_config.add_tool_substitutions(
    ["tilec", "tile-opt", "tile-run", "FileCheck", "not", "count", "split-file"],
    [config.tile_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))

# ptxas validates generated PTX where the CUDA toolkit is installed.
cuda = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
ptxas = os.path.join(cuda, "bin", "ptxas")
if not os.access(ptxas, os.X_OK):
    ptxas = shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
cuobjdump = shutil.which("cuobjdump") or os.path.join(cuda, "bin", "cuobjdump")
if cuobjdump and os.access(cuobjdump, os.X_OK):
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))
