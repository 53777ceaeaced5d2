#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 49): the per-program
# timeline of attention at head dim 128 (bench/attention_timeline.py). Needs
# .carry/tl from bench/attention_timeline_build.sh. Logs to $OUT.
set -uo pipefail
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
for c in ${CONFIGS:-1 2}; do
  python3 attention_timeline.py ../.carry/tl --config $c --ns 1024,4096 2>&1 |
    grep -v Warn | tee -a "${OUT:-/tmp}/timeline.log"
done
# The same with the time at the kernel's entry (a patched copy of the PTX,
# .carry/tl/entry_d128_s1.ptx), one program per SM (config 1).
python3 attention_timeline.py ../.carry/tl --name entry_d128_s1 --entry --config 1 \
  --ns 1024,4096 2>&1 | grep -v Warn | tee -a "${OUT:-/tmp}/timeline.log"
