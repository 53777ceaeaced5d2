"""Runs docs/tutorial.md: writes every code block that starts with a
`# file: NAME` (or `// file: NAME`) comment to NAME, runs every ```sh block
in order with bash (```sh gpu blocks only where nvidia-smi finds a GPU),
and compiles every ```cpp block against the JIT's header. Prints each
block's output; stops at the first failure with its status.

usage: run_tutorial.py TUTORIAL.md BIN_DIR INCLUDE_DIR CXX WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys

tutorial, bin_dir, include_dir, cxx, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# The snippets call `python3` with NumPy: put one that has it first.
shims = os.path.join(work, ".bin")
os.makedirs(shims)
for python in [sys.executable, "/usr/bin/python3", shutil.which("python3")]:
    if python and subprocess.run([python, "-c", "import numpy"],
                                 capture_output=True).returncode == 0:
        os.symlink(python, os.path.join(shims, "python3"))
        break
env = dict(os.environ, PATH=os.pathsep.join([shims, bin_dir,
                                             os.environ.get("PATH", "")]))
has_gpu = shutil.which("nvidia-smi") is not None and subprocess.run(
    ["nvidia-smi", "-L"], capture_output=True).returncode == 0

blocks = re.findall(r"^```(\w+)([^\n]*)\n(.*?)^```", open(tutorial).read(),
                    re.S | re.M)
for index, (lang, attrs, body) in enumerate(blocks):
    named = re.match(r"(?:#|//) file: (\S+)", body)
    if named:
        with open(os.path.join(work, named.group(1)), "w") as f:
            f.write(body)
    if lang == "sh":
        if "gpu" in attrs.split() and not has_gpu:
            print(f"block {index}: skipped (no GPU)")
            continue
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", body],
                             cwd=work, env=env, capture_output=True, text=True)
    elif lang == "cpp":
        run = subprocess.run([cxx, "-std=c++17", "-fsyntax-only",
                              "-I", include_dir, named.group(1)],
                             cwd=work, capture_output=True, text=True)
    else:
        continue
    sys.stdout.write(run.stdout)
    if run.returncode != 0:
        print(f"block {index} ({lang}) failed with status {run.returncode}:")
        print(run.stderr)
        sys.exit(1)
    print(f"block {index} ({lang}): ok")
