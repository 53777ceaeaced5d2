# lit configuration of the tilec test suites.
import os
import shutil
import subprocess
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
    ["tilec", "tile-opt", "tile-run", "tile-mlir-lsp-server", "tile-lsp-server", "FileCheck", "not", "count", "split-file"],
    [config.tile_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%python", sys.executable))

# A sanitized build (TILE_SANITIZE or TILE_FUZZ): every report aborts its
# test with a symbolized stack. The tools carry their other defaults
# (tools/SanitizerDefaults.cpp); options the user exported come after ours
# and win.
if getattr(config, "tile_sanitized", False):
    for name, ours in (("ASAN_OPTIONS", "halt_on_error=1:abort_on_error=1"),
                       ("UBSAN_OPTIONS", "halt_on_error=1")):
        config.environment[name] = ":".join(
            filter(None, [ours, os.environ.get(name)]))
    symbolizer = shutil.which("llvm-symbolizer") or os.path.join(
        config.llvm_tools_dir, "llvm-symbolizer")
    if os.access(symbolizer, os.X_OK):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
    config.available_features.add("sanitized")
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))

# ptxas validates generated PTX where the CUDA toolkit is installed.
cuda = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
ptxas = os.path.join(cuda, "bin", "ptxas")
if not os.access(ptxas, os.X_OK):
    ptxas = shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))


def find_cuda_tool(name):
    """A CUDA tool from PATH, the toolkit, or the PyPI wheels
    (nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm put them under
    site-packages/nvidia/cu13/bin of whichever Python installed them)."""
    for path in (shutil.which(name), os.path.join(cuda, "bin", name)):
        if path and os.access(path, os.X_OK):
            return path
    pythons = {p for p in (shutil.which("python3"), sys.executable) if p}
    for python in sorted(pythons):
        try:
            out = subprocess.run(
                [python, "-c", "import site; print(*site.getsitepackages(), "
                 "site.getusersitepackages())"],
                capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for site_dir in out.split():
            path = os.path.join(site_dir, "nvidia", "cu13", "bin", name)
            if os.access(path, os.X_OK):
                return path
    return None


# cuobjdump (and the nvdisasm it runs) show the SASS of compiled kernels.
cuobjdump, nvdisasm = find_cuda_tool("cuobjdump"), find_cuda_tool("nvdisasm")
if cuobjdump and nvdisasm:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))
    config.environment["PATH"] = os.pathsep.join(
        [os.path.dirname(nvdisasm), config.environment.get("PATH", "")])


# A CUDA driver (a machine with a GPU) and the CUDA toolkit's cuBLAS.
import ctypes
try:
    if ctypes.CDLL("libcuda.so.1").cuInit(0) == 0:
        config.available_features.add("cuda-driver")
except (OSError, AttributeError):
    pass
if os.path.exists(os.path.join(cuda, "include", "cublas_v2.h")):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_home", cuda))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
# The compiler the project was built with (a sanitized libTileJIT needs
# its sanitizer runtime in the programs that link it).
config.substitutions.append(("%cxx", config.tile_cxx_compiler))

# The VS Code grammar's test compiles its patterns with Oniguruma (the
# engine VS Code uses), from PyPI's onigurumacffi.
for python in sorted({p for p in (shutil.which("python3"), sys.executable) if p}):
    probe = subprocess.run([python, "-c", "import onigurumacffi"],
                           capture_output=True)
    if probe.returncode == 0:
        config.available_features.add("oniguruma")
        config.substitutions.append(("%onig_python", python))
        break
