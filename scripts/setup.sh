#!/usr/bin/env bash
# Installs the build's Debian packages (scripts/packages.txt) when missing (needs root or sudo),
# then configures and builds into build/ (Release, CUDA architecture 90 unless
# CMAKE_CUDA_ARCHITECTURES says otherwise). On a
# machine without a GPU it builds PTX only (90-virtual): no device code runs there, and skipping
# the machine-code step (ptxas) cuts the build several times over; a GPU would still JIT the PTX.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/package-list.sh
source scripts/package-list.sh
missing=()
for p in $(package_list setup); do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
# CMakePresets.json: `release` builds machine code for sm_90; `cpu` (no GPU here) builds PTX only;
# BKT_PRESET names another (scripts/test.sh takes `cpu-test` on a machine without a GPU).
preset=release
nvidia-smi -L >/dev/null 2>&1 || preset=cpu
preset=${BKT_PRESET:-$preset}
cmake --preset "$preset" ${CMAKE_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CMAKE_CUDA_ARCHITECTURES"} >/dev/null
cmake --build build -j "$(nproc)"
