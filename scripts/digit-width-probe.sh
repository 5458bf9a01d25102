#!/usr/bin/env bash
# Builds and runs bench/digit_width_probe.cu (the radix pass's memory cost by digit width) on the
# GPU host, as the CMake target digit_width_probe (BKT_BUILD_TUNING, bench/CMakeLists.txt).
# Usage: scripts/digit-width-probe.sh OUTDIR [probe options, e.g. --repeats 20]
set -uo pipefail
# shellcheck source=scripts/tuning-build.sh
source "$(dirname "$0")/tuning-build.sh"
tuning_start "scripts/digit-width-probe.sh OUTDIR [OPTIONS]" 1 "$@"
shift
tuning_build "$tuning_out" -- digit_width_probe || exit 1
"$tuning_dir/digit_width_probe" "$@"
