#!/usr/bin/env bash
# Tuning run for the multisplit scatter pass on the GPU host: builds bench/tune_scatter.cu once per
# variant (threads per block : keys per thread : resident blocks per SM [: RANKING], where RANKING
# puts every 8-bit pass on another ranking of warp_rank.cuh than the packed table: "lanemask" (the
# lane-mask table) or "ballots" (eight ballots); or "match", peers from __match_any_sync instead of
# ballots) as the CMake targets tune_scatter_THREADS_ITEMS_BLOCKS[_RANKING]
# (BKT_TUNE_SCATTER_VARIANTS, bench/CMakeLists.txt) and prints each variant's table.
# Pairs take BKT_MULTISPLIT_PAIR_ITEMS (set it in the environment's NVCC_APPEND_FLAGS to tune them).
# Usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:RANKING] ...
set -uo pipefail
out=${1:?usage: scripts/tune-scatter.sh OUTDIR VARIANT...}; shift
[ $# -gt 0 ] || { echo "usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:RANKING] ..." >&2; exit 2; }
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
