#!/usr/bin/env bash
# Tuning run for compaction on the GPU host: builds the compaction benchmark once per variant of
# the wide-tile shape (ranking threads, 16-byte runs per thread, ring stages, look-back lag, blocks
# per SM: the fields of compact_tuning in core/include/bkt/detail/compact/tile_shape.hpp) as the
# CMake targets compact_wide_THREADS_RUNS_STAGES_LAG_BLOCKS (BKT_TUNE_COMPACT_VARIANTS,
# bench/CMakeLists.txt) and prints each variant's table.
# Usage: scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ...
set -uo pipefail
# shellcheck source=scripts/tuning-build.sh
source "$(dirname "$0")/tuning-build.sh"
tuning_start "scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ..." 2 "$@"
shift
tuning_variants "$tuning_out" compact_wide BKT_TUNE_COMPACT_VARIANTS 30 "$@"
