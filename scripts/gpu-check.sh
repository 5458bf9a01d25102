#!/usr/bin/env bash
# The one command for the GPU host: unpack the carried packages, build for sm_90, run every test
# (failing if any is skipped), run compute-sanitizer's four tools on the GPU tests at reduced sizes,
# run every benchmark, and leave logs and JSON in OUTDIR. Usage: scripts/gpu-check.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/gpu-check.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
status=0
fail() { echo "FAIL: $*" | tee -a "$out/summary.txt"; status=1; }
note() { echo "$*" | tee -a "$out/summary.txt"; }
: > "$out/summary.txt"

deps=/opt/bkt-deps
mkdir -p "$deps"
for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

build=build-gpu
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_RPATH="$deps/usr/lib/x86_64-linux-gnu" >"$out/configure.log" 2>&1 ||
  { fail "configure (see configure.log)"; tail -20 "$out/configure.log"; exit 1; }
start=$SECONDS
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 ||
  { fail "build (see build.log)"; grep -m 20 -E 'error|FAILED' "$out/build.log"; exit 1; }
note "build: $((SECONDS - start)) s"

# Every test binary, with a missing GPU a failure (BKT_REQUIRE_GPU_TESTS) and any skip a failure.
export BKT_REQUIRE_GPU_TESTS=1
# The GPU suite's host-side checking dominates, so it runs as 8 GoogleTest shards side by side.
shards=8
for t in "$build"/tests/bkt_*_tests; do
  name=$(basename "$t")
  start=$SECONDS
  for ((i = 0; i < shards; ++i)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$t" >"$out/$name.$i.log" 2>&1 &
  done
  for job in $(jobs -p); do wait "$job" || fail "$name shard (see $name.log)"; done
  cat "$out/$name".*.log >"$out/$name.log" && rm -f "$out/$name".*.log
  grep -q '^\[  FAILED  \]' "$out/$name.log" && fail "$name: $(grep -c '^\[  FAILED  \] [a-z]' "$out/$name.log") failed"
  grep -q '^\[  SKIPPED \]' "$out/$name.log" && fail "$name skipped tests: $(grep -c '^\[  SKIPPED \] [a-z]' "$out/$name.log")"
  passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/$name.log" | awk '{s += $4} END {print s + 0}')
  note "$name: $passed tests passed in $shards shards ($((SECONDS - start)) s)"
done
ctest --test-dir "$build" -R install_and_consume --output-on-failure >"$out/ctest-install.log" 2>&1 ||
  fail "install_and_consume (see ctest-install.log)"

# compute-sanitizer at reduced sizes (its tools run kernels 10-1000x slower), all four at once.
sanitize_filter='compact_test/1.*:compact_test/8.*:compact_cases.*:-compact_cases.more_than_two_to_the_31_elements'
start=$SECONDS
for tool in memcheck racecheck synccheck initcheck; do
  BKT_TEST_MAX_SIZE=20000 timeout 420 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$build/tests/bkt_gpu_tests" --gtest_filter="$sanitize_filter" >"$out/sanitizer-$tool.log" 2>&1 &
done
for job in $(jobs -p); do wait "$job" || true; done
for tool in memcheck racecheck synccheck initcheck; do
  summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool.log" | tail -1)
  if grep -qE '(ERROR|RACECHECK) SUMMARY: 0 ' "$out/sanitizer-$tool.log" && grep -q '\[  PASSED  \]' "$out/sanitizer-$tool.log" &&
     ! grep -q '\[  FAILED  \]' "$out/sanitizer-$tool.log"; then
    note "compute-sanitizer $tool: $summary"
  else
    fail "compute-sanitizer $tool: ${summary:-no summary} (see sanitizer-$tool.log)"
  fi
done
note "sanitizers: $((SECONDS - start)) s"

# Benchmarks: each prints its table and writes JSON.
for b in "$build"/bench/*_bench; do
  name=$(basename "$b")
  "$b" --json "$out/$name.json" >"$out/$name.txt" 2>&1 || fail "$name (see $name.txt)"
done
cat "$out"/*_bench.txt
echo
cat "$out/summary.txt"
[ $status -eq 0 ] && echo "GPU CHECK PASSED" || echo "GPU CHECK FAILED"
exit $status
