#!/usr/bin/env bash
# The four tools on the bundled data in data/ (a few seconds once built), on the GPU when there is
# one and on the CPU otherwise:
#   bkt-clean      deconvolves a simulated radio sky (data/clean/yarray-sim-256) and draws its
#                  quick look: restored and residual images on RA/Dec axes with the beam;
#   bkt-sssp       shortest paths over Rome's road network from vertex 1, every GPU distance
#                  checked against Dijkstra on the CPU (--verify; without a GPU, Dijkstra alone);
#   bkt-radixsort  sorts the network's 4444 arc lengths;
#   bkt-histogram  bins them: bars in the terminal and a chart.
# Usage: scripts/demo.sh [OUTDIR]   (default: a new folder under $TMPDIR or /tmp)
# It builds first: scripts/setup.sh (installs missing packages with apt, builds into build/); on
# the GPU host, which has no package registry, from the packages carried in .deps/ into build-gpu/
# (scripts/gpu-env.sh). BKT_BUILD=DIR uses tools already built in DIR instead.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/bkt-demo.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)

tools=(bkt_clean bkt_sssp bkt_radixsort bkt_histogram)
if [ -n "${BKT_BUILD:-}" ]; then
  build=$BKT_BUILD
elif ls .deps/*.deb >/dev/null 2>&1 && ! dpkg -s libcairo2-dev >/dev/null 2>&1; then
  # shellcheck source=scripts/gpu-env.sh
  source scripts/gpu-env.sh
  build="build-gpu"
  echo "building the tools into $build from the packages in .deps/ ..."
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$bkt_deps/usr" -DCMAKE_BUILD_RPATH="$bkt_deps/usr/lib/x86_64-linux-gnu" \
    -Dnlohmann_json_DIR="$bkt_deps/usr/share/cmake/nlohmann_json" >"$out/configure.log"
  cmake --build "$build" -j "$(nproc)" --target "${tools[@]}" >"$out/build.log"
else
  scripts/setup.sh
  build=build
fi
build=$(cd "$build" && pwd)
data=$root/data

if nvidia-smi -L >/dev/null 2>&1; then
  device="GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  verify=(--verify)
else
  device="CPU (no GPU found: every tool runs its CPU path)"
  verify=()
fi
start=$SECONDS
cd "$out"
echo "== device: $device"
echo "== outputs in $out"

echo
echo "== bkt-clean: Hogbom CLEAN of a simulated 256 x 256 sky, quick look in clean.png"
"$build/apps/clean/bkt-clean" "$data/clean/yarray-sim-256/sim-dirty.fits" "$data/clean/yarray-sim-256/sim-psf.fits" \
  --prefix sim --niter 2000 --threshold 0.003 --plot clean.png

echo
if [ ${#verify[@]} -gt 0 ]; then
  echo "== bkt-sssp: shortest paths over Rome's roads from vertex 1, checked against Dijkstra (--verify)"
else
  echo "== bkt-sssp: shortest paths over Rome's roads from vertex 1 (Dijkstra; --verify needs a GPU)"
fi
"$build/apps/sssp/bkt-sssp" "$data/graphs/rome99.gr" "${verify[@]}" -o rome99-distances.txt

echo
echo "== bkt-radixsort: the 4444 arc lengths (metres), sorted into arc-lengths-sorted.txt"
"$build/apps/radixsort/bkt-radixsort" "$data/rome99-arc-lengths.txt" -o arc-lengths-sorted.txt
echo "shortest: $(head -1 arc-lengths-sorted.txt) m, median: $(sed -n 2222p arc-lengths-sorted.txt) m, longest: $(tail -1 arc-lengths-sorted.txt) m"

echo
echo "== bkt-histogram: the arc lengths in bins of 100 m up to 2 km, chart in arc-lengths.png"
"$build/apps/histogram/bkt-histogram" "$data/rome99-arc-lengths.txt" --range 0:2000 --bins 20 --bars --plot arc-lengths.png

echo
echo "== done in $((SECONDS - start)) s; $device"
for file in "$out"/*; do
  case $file in *.log) ;; *) echo "  ${file##*/}" ;; esac
done
