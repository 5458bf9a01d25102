#!/usr/bin/env bash
# Tuning run for compaction on the GPU host: builds the compaction benchmark once per variant of
# the wide-tile shape (ranking threads, 16-byte runs per thread, ring stages, look-back lag, blocks
# per SM: the fields of compact_tuning in core/include/bkt/detail/compact/tile_shape.hpp) as the
# CMake targets compact_wide_THREADS_RUNS_STAGES_LAG_BLOCKS (BKT_TUNE_COMPACT_VARIANTS,
# bench/CMakeLists.txt) and prints each variant's table.
# Usage: scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ...
set -uo pipefail
out=${1:?usage: scripts/tune-compact.sh OUTDIR VARIANT...}; shift
[ $# -gt 0 ] || { echo "usage: scripts/tune-compact.sh OUTDIR THREADS:RUNS:STAGES:LAG:BLOCKS ..." >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
targets=()
for variant in "$@"; do targets+=("compact_wide_${variant//:/_}"); done
tuning_build "$out" -DBKT_TUNE_COMPACT_VARIANTS="$(IFS=';'; echo "$*")" -- "${targets[@]}" || exit 1
for variant in "$@"; do
  echo "=== wide tiles: threads:runs:stages:lag:blocks = $variant"
  "$tuning_dir/compact_wide_${variant//:/_}" --repeats 30 2>&1 | grep -vE '^ +limit|^copy|^case'
done
