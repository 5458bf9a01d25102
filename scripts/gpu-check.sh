#!/usr/bin/env bash
# The one command for the GPU host: unpack the carried packages, build for sm_90, run every test
# (failing if any is skipped), run compute-sanitizer's four tools on the GPU tests at reduced sizes,
# run every benchmark, and leave logs and JSON in OUTDIR. Usage: scripts/gpu-check.sh OUTDIR [PART]
# PART is all (the default), build (only that), tests (build, tests, sanitizers beside them unless
# BKT_SANITIZE=0), sanitize (build, sanitizers only) or bench (build, benchmarks): a device
# session that caps one command at 10 minutes runs the parts as separate calls on one warm machine.
# BKT_TEST_FILTER (a GoogleTest filter) narrows the core's test shards, e.g. to one primitive's
# suites; the tools' tests always run whole. BKT_TEST_BINARIES (a grep -E pattern on the test
# binaries' names) runs only some of them, for a test part split over two calls; it skips the
# install test.
set -uo pipefail
out=${1:?usage: scripts/gpu-check.sh OUTDIR [all|build|tests|sanitize|bench]}
part=${2:-all}
case $part in all | build | tests | sanitize | bench) ;; *) echo "gpu-check.sh: no part '$part'" >&2; exit 2 ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
status=0
fail() { echo "FAIL: $*" | tee -a "$out/summary.txt"; status=1; }
note() { echo "$*" | tee -a "$out/summary.txt"; }
: >> "$out/summary.txt"

# BKT_PREBUILT=DIR runs binaries built elsewhere for sm_90 (DIR/tests, DIR/bench) instead of
# building here: for a device session with little time left. It skips the install test.
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
# The carried packages under /opt/bkt-deps, and fontconfig pointed at their fonts (the tools'
# --plot tests draw text).
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
if [ -n "${BKT_PREBUILT:-}" ]; then
  build=$BKT_PREBUILT
  note "prebuilt binaries from $build: no build, no install test here"
else
deps=$bkt_deps

build=build-gpu
# select_bench's cub::DeviceTopK and cub::DeviceBatchedTopK peers need a newer CCCL than the
# toolkit's: the headers that scripts/fetch-cccl-peer.sh put in .deps/cccl-peer/include, for that
# one translation unit (bench/select_topk_peer.cu).
peer_include=$PWD/.deps/cccl-peer/include
if [ -f "$peer_include/cub/device/device_batched_topk.cuh" ]; then
  peer_args=(-DBKT_BENCH_CCCL_PEER_INCLUDE="$peer_include")
  note "select_bench top-k peers: cub::DeviceTopK, cub::DeviceBatchedTopK from $(cat .deps/cccl-peer/VERSION 2>/dev/null || echo "$peer_include")"
else
  peer_args=(-DBKT_BENCH_CCCL_PEER_INCLUDE=)
  note "select_bench top-k peers: no .deps/cccl-peer with DeviceBatchedTopK (scripts/fetch-cccl-peer.sh), unavailable"
fi
# BKT_CMAKE_ARGS: extra configure options (e.g. -DBKT_BUILD_APPS=OFF); they come last and win.
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${peer_args[@]}" ${BKT_CMAKE_ARGS:-} \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_RPATH="$deps/usr/lib/x86_64-linux-gnu" \
  -Dnlohmann_json_DIR="$deps/usr/share/cmake/nlohmann_json" >"$out/configure.log" 2>&1 ||
  { fail "configure (see configure.log)"; tail -20 "$out/configure.log"; exit 1; }
start=$SECONDS
# BKT_BUILD_TARGETS (space-separated) builds only those targets, e.g. one tool's tests and bench.
targets=()
for t in ${BKT_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1 ||
  { fail "build (see build.log)"; grep -m 20 -E 'error|FAILED' "$out/build.log"; exit 1; }
note "build: $((SECONDS - start)) s"
fi
[ "$part" = build ] && exit $status

# compute-sanitizer at reduced sizes (its tools run kernels 10-1000x slower): each tool's run of
# the core's GPU tests is split into GoogleTest shards that run side by side (the tools are mostly
# CPU-bound), and so are the tools' GPU tests (bkt-sssp, bkt-clean). Nothing is timed there.
# word32/multisplit_test/1 and /2 are the multisplit sweep over uint32 and float (multisplit_test_32.cu).
sanitize_filter='compact_test/1.*:compact_test/8.*:compact_cases.*:'
sanitize_filter+='word32/multisplit_test/1.*:word32/multisplit_test/2.*:'
sanitize_filter+='multisplit_cases.*:histogram_test/1.*:histogram_test/6.*:histogram_cases.*:radix_sort_test/5.*:'
sanitize_filter+='radix_sort_test/9.*:radix_sort_cases.*:select_test/4.*:select_cases.*'
sanitize_filter+=':-*more_than_two_to_the_31*:*every_bucket_count*:*every_count*'
# racecheck is the slowest tool by far; shared-memory hazards depend on the kernels, not on the
# input size, so it runs the named cases of each primitive (every kernel, few inputs) at small sizes.
race_filter='compact_cases.*:multisplit_cases.*:histogram_cases.*:radix_sort_cases.*:select_test/4.*:'
race_filter+='select_sweep/4.top_k_batched*:-*more_than_two_to_the_31*'
# BKT_SANITIZE_FILTER / BKT_RACE_FILTER replace the core filters (e.g. to one primitive's suites);
# BKT_APP_SANITIZE_FILTER replaces the tools' filters of every sanitizer (a binary it leaves no
# test of is not run).
sanitize_filter=${BKT_SANITIZE_FILTER:-$sanitize_filter}
race_filter=${BKT_RACE_FILTER:-$race_filter}
sanitizer_shards=${BKT_SANITIZER_SHARDS:-3}
# BKT_SANITIZER_TOOLS: which of compute-sanitizer's tools run (default all four).
sanitizer_tools=${BKT_SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}
# The tools' kernels under racecheck: one test that runs each of them (Hogbom, Clark, every SSSP
# algorithm on the road network of Rome).
app_race_filter='hogbom_gpu.matches_cpu_on_synthetic_skies:clark_gpu.recovers_point_sources:'
app_race_filter+='clark_gpu.residual_is_dirty_minus_model_convolved_with_the_psf:sssp_gpu.real_graphs_match_dijkstra:'
app_race_filter+='joint_gpu.each_step_gives_the_cpu_figures'
app_gpu_tests=()
for t in "$build"/apps/*/bkt_*_gpu_tests; do [ -x "$t" ] && app_gpu_tests+=("$t"); done
sanitizer_pids=()
# sanitize_shards TOOL BINARY FILTER SHARDS MAX_SIZE: one run per GoogleTest shard, in the background.
# BKT_DEADLINE (epoch seconds, e.g. the end of a device call) shortens each run's timeout so that
# every run ends, with its summary, before then.
# BKT_SANITIZER_PER_TEST=1 runs racecheck once per test instead of per shard, at most
# BKT_SANITIZER_JOBS runs at a time (default: the CPU count), so that one slow test holds up no other.
run_limit() {
  local limit=${BKT_SANITIZER_TIMEOUT:-420}
  if [ -n "${BKT_DEADLINE:-}" ] && [ $((BKT_DEADLINE - $(date +%s))) -lt "$limit" ]; then
    limit=$((BKT_DEADLINE - $(date +%s)))
  fi
  echo "$limit"
}
# sanitize_run TOOL BINARY FILTER MAX_SIZE NAME [VAR=VALUE...]: one run in the background, its log
# named after NAME.
sanitize_run() {
  local tool=$1 binary=$2 filter=$3 max_size=$4 name=$5
  shift 5
  env BKT_TEST_MAX_SIZE="$max_size" "$@" timeout "$(run_limit)" compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$binary" --gtest_filter="$filter" >"$out/sanitizer-$tool.$(basename "$binary").$name.log" 2>&1 &
  sanitizer_pids+=($!)
}
sanitize_shards() {
  local tool=$1 binary=$2 filter=$3 shards=$4 max_size=$5 i tests name
  if [ "$tool" = racecheck ] && [ -n "${BKT_SANITIZER_PER_TEST:-}" ]; then
    "$binary" --gtest_list_tests --gtest_filter="$filter" |
      awk '/^[^ ]/ {suite = $1} /^  / {print suite $1}' >"$out/race-tests.txt"
    while read -r name; do
      while [ "$(jobs -rp | wc -l)" -ge "${BKT_SANITIZER_JOBS:-$(nproc)}" ]; do wait -n; done
      sanitize_run "$tool" "$binary" "$name" "$max_size" "${name//\//_}"
    done <"$out/race-tests.txt"
    return
  fi
  # A shard without tests makes no CUDA call, which compute-sanitizer reports as an error.
  tests=$("$binary" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ')
  [ "$tests" -lt "$shards" ] && shards=$tests
  for ((i = 0; i < shards; ++i)); do
    sanitize_run "$tool" "$binary" "$filter" "$max_size" "$i" GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$i"
  done
}
start_sanitizers() {
  sanitize_start=$SECONDS
  for tool in $sanitizer_tools; do
    local filter=$sanitize_filter app_filter='*' max_size=20000 t
    local shards=$sanitizer_shards
    # racecheck, the slowest tool, gets twice the shards: the other tools finish first.
    [ "$tool" = racecheck ] && filter=$race_filter app_filter=$app_race_filter max_size=5000 shards=$((2 * shards))
    app_filter=${BKT_APP_SANITIZE_FILTER:-$app_filter}
    [ -x "$build/tests/bkt_gpu_tests" ] &&
      sanitize_shards "$tool" "$build/tests/bkt_gpu_tests" "$filter" "$shards" "$max_size"
    for t in "${app_gpu_tests[@]}"; do sanitize_shards "$tool" "$t" "$app_filter" 2 "$max_size"; done
  done
}
# Every log must end in a clean summary: a run cut by the timeout has none and fails the check.
finish_sanitizers() {
  for pid in "${sanitizer_pids[@]}"; do wait "$pid" || true; done
  for tool in $sanitizer_tools; do
    local runs=0 clean=0 summaries=0 log
    for log in "$out"/sanitizer-$tool.*.log; do
      [ -f "$log" ] || continue
      runs=$((runs + 1))
      summaries=$((summaries + $(grep -cE '(ERROR|RACECHECK) SUMMARY' "$log")))
      if grep -qE '(ERROR|RACECHECK) SUMMARY: 0 ' "$log" && ! grep -q '\[  FAILED  \]' "$log"; then clean=$((clean + 1)); fi
    done
    cat "$out"/sanitizer-$tool.*.log >"$out/sanitizer-$tool.log" 2>/dev/null && rm -f "$out"/sanitizer-$tool.*.log
    local tests
    tests=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/sanitizer-$tool.log" | awk '{s += $4} END {print s + 0}')
    if [ "$runs" -gt 0 ] && [ "$clean" -eq "$runs" ] && [ "$summaries" -eq "$runs" ]; then
      note "compute-sanitizer $tool: $runs runs, $tests tests, all clean: $(grep -hE '(ERROR|RACECHECK) SUMMARY' "$out/sanitizer-$tool.log" | sort | uniq -c | tr -s ' ' | paste -sd ';')"
    else
      fail "compute-sanitizer $tool: $clean of $runs runs clean, $summaries summaries, $tests tests passed (see sanitizer-$tool.log)"
    fi
  done
  note "sanitizers: $((SECONDS - sanitize_start)) s"
}

# PART sanitize runs only the sanitizers; tests runs the test shards beside them unless
# BKT_SANITIZE=0.
if [ "$part" = sanitize ] || { [ "$part" != bench ] && [ "${BKT_SANITIZE:-1}" != 0 ]; }; then start_sanitizers; fi
if [ "$part" != bench ] && [ "$part" != sanitize ]; then
# distinct_tests WORD LOG: how many tests GoogleTest's [  WORD  ] lines of LOG name.
distinct_tests() { grep -oE "^\[ *$1 *\] [A-Za-z_][A-Za-z0-9_/.]*" "$2" | sort -u | wc -l; }
# Every test binary, with a missing GPU a failure (BKT_REQUIRE_GPU_TESTS) and any skip a failure.
export BKT_REQUIRE_GPU_TESTS=1
# The GPU suite's host-side checking dominates, so it runs as 8 GoogleTest shards side by side.
shards=8
shard_pids=()
for t in "$build"/tests/bkt_*_tests "$build"/apps/*/bkt_*_tests; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  echo "$name" | grep -qE "${BKT_TEST_BINARIES:-.}" || continue
  start=$SECONDS
  filter='*'
  case $t in "$build"/tests/*) filter=${BKT_TEST_FILTER:-*} ;; esac  # the tools' tests always run whole
  for ((i = 0; i < shards; ++i)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$t" --gtest_filter="$filter" \
      >"$out/$name.$i.log" 2>&1 &
    shard_pids+=($!)
  done
  for pid in "${shard_pids[@]}"; do wait "$pid" || fail "$name shard (see $name.log)"; done
  shard_pids=()
  cat "$out/$name".*.log >"$out/$name.log" && rm -f "$out/$name".*.log
  # A failed or skipped test is named twice in its shard's log (when it ends, then in the summary).
  grep -q '^\[  FAILED  \]' "$out/$name.log" && fail "$name: $(distinct_tests FAILED "$out/$name.log") failed"
  grep -q '^\[  SKIPPED \]' "$out/$name.log" && fail "$name skipped tests: $(distinct_tests SKIPPED "$out/$name.log")"
  passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/$name.log" | awk '{s += $4} END {print s + 0}')
  note "$name: $passed tests passed in $shards shards ($((SECONDS - start)) s)"
done
if [ -z "${BKT_PREBUILT:-}" ] && [ -z "${BKT_BUILD_TARGETS:-}" ] && [ -z "${BKT_TEST_BINARIES:-}" ]; then
  ctest --test-dir "$build" -R install_and_consume --output-on-failure >"$out/ctest-install.log" 2>&1 ||
    fail "install_and_consume (see ctest-install.log)"
fi

fi
[ ${#sanitizer_pids[@]} -gt 0 ] && finish_sanitizers

if [ "$part" = all ] || [ "$part" = bench ]; then
# Benchmarks: each prints its table and writes JSON.
# BKT_BENCH_FILTER (a grep -E pattern on the names, e.g. 'sssp|clean') runs only some.
for b in "$build"/bench/*_bench; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  echo "$name" | grep -qE "${BKT_BENCH_FILTER:-.}" || continue
  extra=()
  [ "$name" = sssp_bench ] && extra=(--export "$build/sssp-export")
  "$b" --repeats "${BKT_BENCH_REPEATS:-25}" --json "$out/$name.json" "${extra[@]}" >"$out/$name.txt" 2>&1 || fail "$name (see $name.txt)"
done
if [ -f "$out/sssp_bench.json" ]; then  # SciPy's Dijkstra on the graphs sssp_bench exported
  python3 scripts/scipy_sssp_bench.py "$build/sssp-export" --bench-json "$out/sssp_bench.json" \
    --json "$out/scipy_sssp.json" >"$out/scipy_sssp.txt" 2>&1 || fail "scipy_sssp_bench (see scipy_sssp.txt)"
  cat "$out/scipy_sssp.txt"
fi
if [ -x "$build/bench/clean_bench" ] && echo clean_bench | grep -qE "${BKT_BENCH_FILTER:-.}" && python3 -c 'import torch' 2>/dev/null; then
  python3 scripts/torch_hogbom_bench.py --json "$out/torch_hogbom.json" >"$out/torch_hogbom.txt" 2>&1 ||
    fail "torch_hogbom_bench (see torch_hogbom.txt)"
  cat "$out/torch_hogbom.txt"
fi
cat "$out"/*_bench.txt
# PyTorch's selection on the same inputs, then one table of select_bench, CUB and torch against the
# selection issue's targets (select_table.md).
if [ -f "$out/select_bench.json" ] && python3 -c 'import torch' 2>/dev/null; then
  torch_repeats=${BKT_BENCH_REPEATS:-25}
  [ "$torch_repeats" -lt 20 ] && torch_repeats=20  # median of at least 20 runs
  python3 scripts/torch_select_bench.py --repeats "$torch_repeats" --json "$out/torch_select.json" \
    >"$out/torch_select.txt" 2>&1 || fail "torch_select_bench (see torch_select.txt)"
  cat "$out/torch_select.txt"
elif [ -f "$out/select_bench.json" ]; then
  note "torch: python3 cannot import torch; torch_select_bench skipped"
fi
if [ -f "$out/select_bench.json" ]; then
  torch_json=()
  [ -f "$out/torch_select.json" ] && torch_json=(--torch "$out/torch_select.json")
  python3 scripts/select_table.py "$out/select_bench.json" "${torch_json[@]}" --out "$out/select_table.md" \
    >"$out/select_table.log" 2>&1 || fail "select_table (see select_table.log)"
  cat "$out/select_table.log"
fi
fi
echo
cat "$out/summary.txt"
[ $status -eq 0 ] && echo "GPU CHECK PASSED" || echo "GPU CHECK FAILED"
exit $status
