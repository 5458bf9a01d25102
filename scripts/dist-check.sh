#!/usr/bin/env bash
# bkt::dist on the multi-GPU host: build only its targets for sm_90, run its GPU tests under
# mpirun -np 1 and -np 2, compute-sanitizer memcheck on every rank (small sizes, a filter), and
# dist_bench with -np 2 and -np 1; logs and JSON land in OUTDIR.
# Usage: scripts/dist-check.sh OUTDIR [all|build|tests|sanitize|bench]
# A device session that caps one command at 10 minutes runs the parts as separate calls on the
# same warm machine (build first: the later parts reuse build-gpu/).
# Environment:
#   BKT_NCCL_ROOT       NCCL tree (default: the PyTorch wheel's, as on the GPU host)
#   BKT_BUILD_TARGETS   targets to build (default: bkt_dist_tests dist_bench)
#   BKT_PREBUILT=DIR    run DIR/tests/dist/bkt_dist_tests and DIR/bench/dist_bench, build nothing
#   BKT_DIST_RANKS      rank counts of the tests (default "1 2")
#   BKT_DIST_FILTER     GoogleTest filter of the test runs (default all)
#   BKT_DIST_SANITIZE_FILTER  filter of the memcheck run (default: a few suites, small sizes)
#   BKT_DIST_SANITIZE_ENV     VAR=VALUE words for the ranks under memcheck (e.g. NCCL_P2P_DISABLE=1
#                       if the sanitizer trips over NCCL's peer-to-peer transport)
#   BKT_DIST_BENCH_ARGS extra dist_bench options, e.g. "--log2-sort-total 24 --log2-weak 22
#                       --log2-select-total 24 --repeats 5" for a smoke run
set -uo pipefail
out=${1:?usage: scripts/dist-check.sh OUTDIR [all|build|tests|sanitize|bench]}
part=${2:-all}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
status=0
fail() { echo "FAIL: $*" | tee -a "$out/summary.txt"; status=1; }
note() { echo "$*" | tee -a "$out/summary.txt"; }
: >>"$out/summary.txt"

# Open MPI refuses root unless told twice; --bind-to none leaves the ranks free to use their cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --allow-run-as-root --bind-to none --tag-output)
bench_mpirun=(mpirun --allow-run-as-root --bind-to none)  # rank 0 alone prints the bench table
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
nvidia-smi topo -m >"$out/topology.txt" 2>&1 || true

if [ -n "${BKT_PREBUILT:-}" ]; then
  build=$BKT_PREBUILT
  note "prebuilt binaries from $build"
else
  build=build-gpu
fi
if [ -z "${BKT_PREBUILT:-}" ] && { [ "$part" = all ] || [ "$part" = build ]; }; then
  deps=/opt/bkt-deps
  mkdir -p "$deps"
  for f in .deps/*.deb; do [ -f "$f" ] && dpkg -x "$f" "$deps"; done
  nccl=${BKT_NCCL_ROOT:-/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl}
  mpi_args=()
  # Without the mpicxx wrapper, FindMPI takes the Open MPI headers and library by hand.
  if ! command -v mpicxx >/dev/null; then
    mpi_args=(-DMPI_CXX_ADDITIONAL_INCLUDE_DIRS=/usr/lib/x86_64-linux-gnu/openmpi/include
              -DMPI_CXX_LIB_NAMES=mpi -DMPI_mpi_LIBRARY=/usr/lib/x86_64-linux-gnu/libmpi.so)
  fi
  # shellcheck disable=SC2086
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_RPATH="$deps/usr/lib/x86_64-linux-gnu" \
    -DBKT_BUILD_APPS=OFF -DBKT_BUILD_EXAMPLES=OFF -DBKT_NCCL_ROOT="$nccl" "${mpi_args[@]}" ${BKT_CMAKE_ARGS:-} \
    >"$out/configure.log" 2>&1 || { fail "configure (see configure.log)"; tail -20 "$out/configure.log"; exit 1; }
  grep -E "bkt::dist" "$out/configure.log" | tee -a "$out/summary.txt"
  start=$SECONDS
  targets=()
  for t in ${BKT_BUILD_TARGETS:-bkt_dist_tests dist_bench}; do targets+=(--target "$t"); done
  cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1 ||
    { fail "build (see build.log)"; grep -m 20 -E 'error|FAILED' "$out/build.log"; exit 1; }
  note "build: $((SECONDS - start)) s"
fi
tests=$build/tests/dist/bkt_dist_tests
bench=$build/bench/dist_bench
[ "$part" = build ] && { cat "$out/summary.txt"; exit $status; }
[ -x "$tests" ] || { fail "no $tests (bkt::dist off? see configure.log)"; exit 1; }

# The tests: every rank compares its share with the single-GPU primitives; any rank's failure
# fails the job. A hung collective ends at the timeout instead of eating the session.
if [ "$part" = all ] || [ "$part" = tests ]; then
  for ranks in ${BKT_DIST_RANKS:-1 2}; do
    start=$SECONDS
    BKT_REQUIRE_GPU_TESTS=1 timeout "${BKT_DIST_TEST_TIMEOUT:-420}" "${mpirun[@]}" -np "$ranks" \
      -x BKT_REQUIRE_GPU_TESTS "$tests" --gtest_color=no --gtest_filter="${BKT_DIST_FILTER:-*}" >"$out/tests-np$ranks.log" 2>&1
    code=$?
    passed=$(grep -oE '\[  PASSED  \] [0-9]+' "$out/tests-np$ranks.log" | head -1 | awk '{print $4}')
    if [ $code -ne 0 ]; then
      fail "bkt_dist_tests -np $ranks: exit $code (see tests-np$ranks.log): $(grep -c 'FAILED ' "$out/tests-np$ranks.log") failure lines"
    else
      note "bkt_dist_tests -np $ranks: ${passed:-?} tests passed ($((SECONDS - start)) s)"
    fi
    grep -q 'SKIPPED' "$out/tests-np$ranks.log" && note "bkt_dist_tests -np $ranks: some tests skipped (see log)"
  done
fi

# memcheck on every rank, at the sanitizer sizes (BKT_TEST_MAX_SIZE): each rank's process is
# checked; the summary of every rank must be clean.
if [ "$part" = all ] || [ "$part" = sanitize ]; then
  filter=${BKT_DIST_SANITIZE_FILTER:-'dist_sort_test/3.*:dist_sort_test/8.*:dist_sort_cases.one_rank*:dist_sort_cases.both_merges*:dist_sort_cases.chunked*:dist_select_test/4.*:dist_histogram_test/2.*:dist_communicator.*'}
  start=$SECONDS
  # shellcheck disable=SC2086
  BKT_TEST_MAX_SIZE=5000 timeout "${BKT_DIST_SANITIZE_TIMEOUT:-480}" "${mpirun[@]}" -np 2 -x BKT_TEST_MAX_SIZE \
    env ${BKT_DIST_SANITIZE_ENV:-} compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$tests" --gtest_filter="$filter" \
    >"$out/sanitizer-memcheck.log" 2>&1
  code=$?
  summaries=$(grep -c 'ERROR SUMMARY' "$out/sanitizer-memcheck.log")
  clean=$(grep -c 'ERROR SUMMARY: 0 ' "$out/sanitizer-memcheck.log")
  if [ $code -eq 0 ] && [ "$summaries" -eq 2 ] && [ "$clean" -eq 2 ]; then
    note "compute-sanitizer memcheck -np 2: both ranks clean ($((SECONDS - start)) s)"
  else
    fail "compute-sanitizer memcheck -np 2: exit $code, $clean of $summaries summaries clean (see sanitizer-memcheck.log)"
  fi
fi

if [ "$part" = all ] || [ "$part" = bench ]; then
  [ -x "$bench" ] || { fail "no $bench"; exit 1; }
  for ranks in 2 1; do
    # shellcheck disable=SC2086
    timeout "${BKT_DIST_BENCH_TIMEOUT:-420}" "${bench_mpirun[@]}" -np "$ranks" "$bench" --json "$out/dist_bench-np$ranks.json" \
      ${BKT_DIST_BENCH_ARGS:-} >"$out/dist_bench-np$ranks.txt" 2>&1 || fail "dist_bench -np $ranks (see dist_bench-np$ranks.txt)"
    cat "$out/dist_bench-np$ranks.txt"
  done
fi
echo
cat "$out/summary.txt"
[ $status -eq 0 ] && echo "DIST CHECK PASSED" || echo "DIST CHECK FAILED"
exit $status
