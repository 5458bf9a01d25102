#!/usr/bin/env bash
# Builds and runs bench/digit_width_probe.cu (the radix pass's memory cost by digit width) on the
# GPU host. Usage: scripts/digit-width-probe.sh OUTDIR [probe options, e.g. --repeats 20]
set -uo pipefail
out=${1:?usage: scripts/digit-width-probe.sh OUTDIR [OPTIONS]}; shift
mkdir -p "$out"
cd "$(dirname "$0")/.."
deps=/opt/bkt-deps
mkdir -p "$deps"
for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Icore/include -I"$deps/usr/include" \
  bench/digit_width_probe.cu bench/harness.cu core/src/error.cpp core/src/gpu.cu -o "$out/digit_width_probe" \
  >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
"$out/digit_width_probe" "$@"
