# shellcheck shell=bash
# Sourced by the tuning scripts (tune-scatter.sh, tune-compact.sh, tune-histogram.sh,
# digit-width-probe.sh) on the GPU host: tuning_build OUTDIR [CMAKE_ARGS...] -- TARGET...
# configures build-tuning/ for sm_90 with the tuning programs on (BKT_BUILD_TUNING,
# bench/CMakeLists.txt) and the tools, tests and examples off, against the carried packages
# (scripts/gpu-env.sh), and builds the targets; the programs land in $tuning_dir. Logs go to
# OUTDIR/configure.log and OUTDIR/build.log; it returns non-zero, with the log's errors shown,
# when either step fails. NVCC_APPEND_FLAGS (e.g. -DBKT_MULTISPLIT_PAIR_ITEMS=12) reaches every
# nvcc call; CMake does not track it, so a change of it starts the build folder afresh.
# tuning_variants (below) builds and runs one program's variants. A script starts with
# tuning_start (below), which leaves it in the repository root.
tuning_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tuning_build_dir=${BKT_TUNING_BUILD:-build-tuning}
# shellcheck disable=SC2034  # used by the scripts that source this
tuning_dir=$tuning_build_dir/bench/tuning
# tuning_start USAGE MIN_ARGS "$@": exits with USAGE unless MIN_ARGS arguments came; makes the
# first, OUTDIR, sets tuning_out to its absolute path and changes to the repository root.
tuning_start() {
  local usage=$1 min=$2
  shift 2
  [ $# -ge "$min" ] || { echo "usage: $usage" >&2; exit 2; }
  # shellcheck disable=SC2034  # used by the scripts that source this
  mkdir -p "$1" && tuning_out=$(cd "$1" && pwd) || exit 1
  cd "$tuning_root" || exit 1
}
tuning_build() {
  local out=$1 cmake_args=() targets=()
  shift
  # shellcheck source=scripts/gpu-env.sh
  source scripts/gpu-env.sh
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cmake_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  targets=("$@")
  if [ "$(cat "$tuning_build_dir/nvcc-append-flags.txt" 2>/dev/null)" != "${NVCC_APPEND_FLAGS:-}" ]; then
    rm -rf "$tuning_build_dir"
  fi
  mkdir -p "$tuning_build_dir"
  echo "${NVCC_APPEND_FLAGS:-}" >"$tuning_build_dir/nvcc-append-flags.txt"
  cmake -S . -B "$tuning_build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DBKT_BUILD_TUNING=ON -DBKT_BUILD_APPS=OFF -DBKT_BUILD_TESTS=OFF -DBKT_BUILD_EXAMPLES=OFF \
    -DCMAKE_PREFIX_PATH="$bkt_deps/usr" -DCMAKE_BUILD_RPATH="$bkt_deps/usr/lib/x86_64-linux-gnu" \
    -Dnlohmann_json_DIR="$bkt_deps/usr/share/cmake/nlohmann_json" "${cmake_args[@]}" >"$out/configure.log" 2>&1 ||
    { tail -20 "$out/configure.log"; return 1; }
  cmake --build "$tuning_build_dir" -j "$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
    { grep -m 20 -E 'error|FAILED' "$out/build.log"; return 1; }
}
# tuning_variants OUTDIR PROGRAM VARIABLE REPEATS VARIANT...: the tuning program PROGRAM once per
# variant (the CMake cache list VARIABLE, bench/CMakeLists.txt; target PROGRAM_VARIANT, with ':'
# and '=' as '_'), built with tuning_build and then each run with --repeats REPEATS, its table
# (without the limit rows) under "=== PROGRAM VARIANT".
tuning_variants() {
  local out=$1 program=$2 variable=$3 repeats=$4 variant targets=()
  shift 4
  for variant in "$@"; do targets+=("${program}_${variant//[:=]/_}"); done
  tuning_build "$out" -D"$variable=$(IFS=';'; echo "$*")" -- "${targets[@]}" || return 1
  for variant in "$@"; do
    echo "=== $program $variant"
    "$tuning_dir/${program}_${variant//[:=]/_}" --repeats "$repeats" 2>&1 | grep -vE '^ +limit'
  done
}
