#!/usr/bin/env bash
# Tuning run for compaction on the GPU host: builds the compaction benchmark once per variant of
# the wide-tile shape (ranking threads, 16-byte runs per thread, ring stages, look-back lag, blocks
# per SM; see core/include/bkt/detail/compact/tile_shape.hpp) and prints each variant's table.
# Usage: scripts/tune-compact.sh OUTDIR THREADS:CHUNKS:STAGES:LAG:BLOCKS ...
set -uo pipefail
out=${1:?usage: scripts/tune-compact.sh OUTDIR VARIANT...}; shift
mkdir -p "$out"
cd "$(dirname "$0")/.."
deps=/opt/bkt-deps
mkdir -p "$deps"
for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
for variant in "$@"; do
  # nvcc splits -D values at commas, so the shape goes in through a pre-included header.
  echo "#define BKT_COMPACT_WIDE ${variant//:/, }" >"$out/shape-$variant.h"
  nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr --pre-include "$out/shape-$variant.h" \
    -Icore/include -I"$deps/usr/include" \
    bench/compact_bench.cu bench/harness.cu core/src/error.cpp core/src/gpu.cu core/src/workspace.cpp \
    -o "$out/bench-$variant" >"$out/build-$variant.log" 2>&1 &
done
wait
for variant in "$@"; do
  echo "=== wide tiles: threads:chunks:stages:lag:blocks = $variant"
  "$out/bench-$variant" --repeats 30 2>&1 | grep -vE '^ +limit|^copy|^case' || cat "$out/build-$variant.log"
  rm -f "$out/bench-$variant"
done
