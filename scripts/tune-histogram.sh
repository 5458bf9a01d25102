#!/usr/bin/env bash
# Tuning run for the histograms' counting pass on the GPU host: builds tune_histogram once per
# variant (elements a thread loads before it counts them, blocks an SM must hold: BKT_COUNT_LOAD_ITEMS
# and BKT_COUNT_MIN_BLOCKS in core/include/bkt/detail/multisplit/count_kernel.cuh) as the CMake
# targets tune_histogram_ITEMS_BLOCKS (BKT_TUNE_HISTOGRAM_VARIANTS, bench/CMakeLists.txt) and
# prints each variant's table.
# Usage: scripts/tune-histogram.sh OUTDIR ITEMS:BLOCKS ...
set -uo pipefail
# shellcheck source=scripts/tuning-build.sh
source "$(dirname "$0")/tuning-build.sh"
tuning_start "scripts/tune-histogram.sh OUTDIR ITEMS:BLOCKS ..." 2 "$@"
shift
tuning_variants "$tuning_out" tune_histogram BKT_TUNE_HISTOGRAM_VARIANTS 15 "$@"
