#!/usr/bin/env bash
# Tuning run for the multisplit scatter pass on the GPU host: builds bench/tune_scatter.cu once per
# variant (threads per block : keys per thread : resident blocks per SM [: OPTION ...]) as the CMake
# targets tune_scatter_THREADS_ITEMS_BLOCKS[_OPTION...] (BKT_TUNE_SCATTER_VARIANTS,
# bench/CMakeLists.txt) and prints each variant's table. An OPTION is a ranking of warp_rank.cuh
# other than the packed table for every 8-bit pass, "lanemask" (the lane-mask table) or "ballots"
# (eight ballots), or "match" (peers from __match_any_sync instead of ballots); or NAME=N, the
# items a thread of pairs of up to 8 bytes (pair=N), of 8-byte keys (widekey=N) or of wider pairs
# (wide=N).
# Usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:OPTION...] ...
set -uo pipefail
out=${1:?usage: scripts/tune-scatter.sh OUTDIR VARIANT...}; shift
[ $# -gt 0 ] || { echo "usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:OPTION...] ..." >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/tuning-build.sh
source scripts/tuning-build.sh
targets=()
for variant in "$@"; do targets+=("tune_scatter_${variant//[:=]/_}"); done
tuning_build "$out" -DBKT_TUNE_SCATTER_VARIANTS="$(IFS=';'; echo "$*")" -- "${targets[@]}" || exit 1
for variant in "$@"; do
  echo "=== scatter tiles $variant"
  "$tuning_dir/tune_scatter_${variant//[:=]/_}" --repeats "${BKT_BENCH_REPEATS:-20}" 2>&1 | grep -vE '^ +limit'
done
