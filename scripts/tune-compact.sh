#!/usr/bin/env bash
# Tuning run for compaction on the GPU host: builds the compaction benchmark once per variant of
# the wide-tile macros (runs per thread, ranking threads per block, tiles in flight) and prints each
# variant's table. Usage: scripts/tune-compact.sh OUTDIR CHUNKS:THREADS[:AHEAD] ...
set -uo pipefail
out=${1:?usage: scripts/tune-compact.sh OUTDIR VARIANT...}; shift
mkdir -p "$out"
cd "$(dirname "$0")/.."
deps=/opt/bkt-deps
mkdir -p "$deps"
for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
for variant in "$@"; do
  IFS=: read -r chunks threads ahead <<<"$variant"
  nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -DBKT_COMPACT_WIDE_CHUNKS="$chunks" \
    -DBKT_COMPACT_WIDE_THREADS="$threads" -DBKT_COMPACT_WIDE_AHEAD="${ahead:-1}" -Icore/include -I"$deps/usr/include" \
    bench/compact_bench.cu bench/harness.cu core/src/error.cpp core/src/gpu.cu core/src/workspace.cpp \
    -o "$out/bench-$variant" >"$out/build-$variant.log" 2>&1 &
done
wait
for variant in "$@"; do
  IFS=: read -r chunks threads ahead <<<"$variant"
  echo "=== wide tiles: chunks=$chunks threads=$threads ahead=${ahead:-1}"
  "$out/bench-$variant" --repeats 30 2>&1 | grep -vE '^ +limit|^copy|^case' || cat "$out/build-$variant.log"
  rm -f "$out/bench-$variant"
done
