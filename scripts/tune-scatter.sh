#!/usr/bin/env bash
# Tuning run for the multisplit scatter pass on the GPU host: builds bench/tune_scatter.cu once per
# variant (threads per block : keys per thread : resident blocks per SM [: match | : lanemask],
# where "match" finds peers with __match_any_sync instead of ballots and "lanemask" ranks key-only
# 8-bit passes with the lane-mask table instead of the packed table; warp_rank.cuh) as the CMake
# targets tune_scatter_THREADS_ITEMS_BLOCKS[_match|_lanemask] (BKT_TUNE_SCATTER_VARIANTS,
# bench/CMakeLists.txt) and prints each variant's table.
# Pairs take BKT_MULTISPLIT_PAIR_ITEMS (set it in the environment's NVCC_APPEND_FLAGS to tune them).
# Usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:match|:lanemask] ...
set -uo pipefail
out=${1:?usage: scripts/tune-scatter.sh OUTDIR VARIANT...}; shift
[ $# -gt 0 ] || { echo "usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:match|:lanemask] ..." >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
targets=()
for variant in "$@"; do targets+=("tune_scatter_${variant//:/_}"); done
tuning_build "$out" -DBKT_TUNE_SCATTER_VARIANTS="$(IFS=';'; echo "$*")" -- "${targets[@]}" || exit 1
for variant in "$@"; do
  echo "=== scatter tiles $variant"
  "$tuning_dir/tune_scatter_${variant//:/_}" --repeats "${BKT_BENCH_REPEATS:-20}" 2>&1 | grep -vE '^ +limit'
done
