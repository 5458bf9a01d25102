#!/usr/bin/env bash
# Tuning run for the histograms' counting pass on the GPU host: builds tune_histogram once per
# variant (elements a thread loads before it counts them, blocks an SM must hold: BKT_COUNT_LOAD_ITEMS
# and BKT_COUNT_MIN_BLOCKS in core/include/bkt/detail/multisplit/count_kernel.cuh) as the CMake
# targets tune_histogram_ITEMS_BLOCKS (BKT_TUNE_HISTOGRAM_VARIANTS, bench/CMakeLists.txt) and
# prints each variant's table.
# Usage: scripts/tune-histogram.sh OUTDIR ITEMS:BLOCKS ...
set -uo pipefail
out=${1:?usage: scripts/tune-histogram.sh OUTDIR ITEMS:BLOCKS ...}; shift
[ $# -gt 0 ] || { echo "usage: scripts/tune-histogram.sh OUTDIR ITEMS:BLOCKS ..." >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
targets=()
for variant in "$@"; do targets+=("tune_histogram_${variant//:/_}"); done
tuning_build "$out" -DBKT_TUNE_HISTOGRAM_VARIANTS="$(IFS=';'; echo "$*")" -- "${targets[@]}" || exit 1
for variant in "$@"; do
  echo "=== counting pass: items:blocks = $variant"
  "$tuning_dir/tune_histogram_${variant//:/_}" --repeats 15 2>&1 | grep -vE '^ +limit|^copy|^case'
done
