#!/usr/bin/env bash
# A short GPU-host session for the selection work: build the GPU tests and select_bench for sm_90,
# run the GPU tests in 4 shards beside memcheck and racecheck on the selection cases, then
# select_bench. Logs go straight to $OUT (at most 8 files), so a run cut short still reports.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:?set OUT}
deps=/opt/bkt-deps; mkdir -p $deps; for f in .deps/*.deb; do dpkg -x "$f" $deps; done
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBKT_BUILD_APPS=OFF \
  -DBKT_BUILD_EXAMPLES=OFF -DBKT_BENCH_CCCL_PEER_INCLUDE="$PWD/.deps/cccl-peer/include" -DCMAKE_PREFIX_PATH=$deps/usr \
  -DCMAKE_BUILD_RPATH=$deps/usr/lib/x86_64-linux-gnu >"$out/build.log" 2>&1
s=$SECONDS
cmake --build build-gpu -j16 --target bkt_gpu_tests select_bench >>"$out/build.log" 2>&1 ||
  { grep -m30 -E "error|FAILED" "$out/build.log"; exit 1; }
echo "build $((SECONDS - s)) s"
for tool in memcheck racecheck; do
  filter='select_test/4.*:select_cases.*:select_sweep/4.top_k_batched*:-*more_than_two_to_the_31*'
  [ $tool = racecheck ] && filter='select_test/4.*:select_sweep/4.top_k_batched*'
  BKT_TEST_MAX_SIZE=5000 timeout "${SANITIZER_S:-300}" compute-sanitizer --tool $tool --error-exitcode 9 \
    build-gpu/tests/bkt_gpu_tests --gtest_filter="$filter" >"$out/sanitizer-$tool.log" 2>&1 &
done
export BKT_REQUIRE_GPU_TESTS=1
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout "${TESTS_S:-280}" build-gpu/tests/bkt_gpu_tests \
    >"$out/gpu-tests-$i.log" 2>&1 &
done
wait
grep -hE '^\[  (PASSED|FAILED|SKIPPED) ' "$out"/gpu-tests-*.log | sort | uniq -c
grep -hE '(ERROR|RACECHECK) SUMMARY|^\[  (PASSED|FAILED) ' "$out"/sanitizer-*.log
timeout 120 build-gpu/bench/select_bench --repeats 20 >"$out/select_bench.txt" 2>&1
grep -E "approx|top_k k=1 unsorted|median  " "$out/select_bench.txt"
