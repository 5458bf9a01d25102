#!/usr/bin/env bash
# Builds and runs bench/digit_width_probe.cu (the radix pass's memory cost by digit width) on the
# GPU host, as the CMake target digit_width_probe (BKT_BUILD_TUNING, bench/CMakeLists.txt).
# Usage: scripts/digit-width-probe.sh OUTDIR [probe options, e.g. --repeats 20]
set -uo pipefail
out=${1:?usage: scripts/digit-width-probe.sh OUTDIR [OPTIONS]}; shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
tuning_build "$out" -- digit_width_probe || exit 1
"$tuning_dir/digit_width_probe" "$@"
