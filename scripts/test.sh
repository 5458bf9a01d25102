#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite (GPU tests skip when no GPU is present).
set -euo pipefail
cd "$(dirname "$0")/.."
# Without a GPU the GPU tests skip and no device code runs, so the build is preset cpu-test: PTX
# without device optimisation and host code at -O1, in about half the cpu preset's time.
# The tests then run side by side (with a GPU one at a time: some hold tens of GB of it).
jobs=1
if ! nvidia-smi -L >/dev/null 2>&1; then
  export BKT_PRESET=${BKT_PRESET:-cpu-test}
  jobs=$(nproc)
fi
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$jobs"
