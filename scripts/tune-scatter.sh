#!/usr/bin/env bash
# Tuning run for the multisplit scatter pass on the GPU host: builds bench/tune_scatter.cu once per
# variant (threads per block : keys per thread : resident blocks per SM [: match], where "match"
# ranks with __match_any_sync instead of ballots) and prints each variant's table. Pairs take
# BKT_MULTISPLIT_PAIR_ITEMS (set it in the environment's NVCC_APPEND_FLAGS to tune them).
# Usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:match] ...
set -uo pipefail
out=${1:?usage: scripts/tune-scatter.sh OUTDIR VARIANT...}; shift
mkdir -p "$out"
cd "$(dirname "$0")/.."
deps=/opt/bkt-deps
mkdir -p "$deps"
for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
for variant in "$@"; do
  IFS=: read -r threads items blocks match <<<"$variant"
  extra=()
  [ "${match:-}" = match ] && extra+=(-DBKT_MATCH_ANY)
  nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -DBKT_MULTISPLIT_THREADS="$threads" \
    -DBKT_MULTISPLIT_ITEMS="$items" -DBKT_MULTISPLIT_MIN_BLOCKS="$blocks" "${extra[@]}" -Icore/include \
    -I"$deps/usr/include" bench/tune_scatter.cu bench/harness.cu core/src/radix_sort/plan.cpp \
    core/src/multisplit/offsets.cu core/src/error.cpp core/src/gpu.cu core/src/workspace.cpp \
    -o "$out/tune-$variant" >"$out/build-$variant.log" 2>&1 &
done
wait
for variant in "$@"; do
  echo "=== scatter tiles $variant"
  "$out/tune-$variant" --repeats "${BKT_BENCH_REPEATS:-20}" 2>&1 | grep -vE '^ +limit' || cat "$out/build-$variant.log"
  rm -f "$out/tune-$variant"
done
