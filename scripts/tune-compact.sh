#!/usr/bin/env bash
# Tuning run for compaction on the GPU host: builds the compaction benchmark once per variant of
# the wide-tile shape (ranking threads, 16-byte runs per thread, ring stages, look-back lag, blocks
# per SM: the fields of compact_tuning in core/include/bkt/detail/compact/tile_shape.hpp) as the
# CMake targets compact_wide_THREADS_RUNS_STAGES_LAG_BLOCKS (BKT_TUNE_COMPACT_VARIANTS,
# bench/CMakeLists.txt) and prints each variant's table.
# Usage: scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ...
set -uo pipefail
[ $# -gt 1 ] || { echo "usage: scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ..." >&2; exit 2; }
mkdir -p "$1" && out=$(cd "$1" && pwd) || exit 1
shift
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
tuning_variants "$out" compact_wide BKT_TUNE_COMPACT_VARIANTS 30 "$@"
