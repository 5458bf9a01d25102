#!/usr/bin/env bash
# bkt-sssp under mpirun on the GPU host: build bkt-sssp with MPI, then run
# apps/sssp/tests/mpi_ranks_check.sh (2 and 3 ranks against one process, byte for byte, and the
# failing-rank cases) with the GPU path, then with --cpu. Logs land in OUTDIR.
# Usage: scripts/sssp-mpi-check.sh OUTDIR
# Environment: BKT_PREBUILT=DIR runs DIR/apps/sssp/bkt-sssp and builds nothing.
set -uo pipefail
out=${1:?usage: scripts/sssp-mpi-check.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
status=0
nvidia-smi --query-gpu=index,name --format=csv,noheader | tee "$out/gpu.txt"
build=${BKT_PREBUILT:-build-gpu}
if [ -z "${BKT_PREBUILT:-}" ]; then
  deps=/opt/bkt-deps
  mkdir -p "$deps"
  for f in .deps/*.deb; do [ -f "$f" ] && dpkg -x "$f" "$deps"; done
  mpi_args=()
  # Without the mpicxx wrapper, FindMPI takes the Open MPI headers and library by hand (as
  # scripts/dist-check.sh does).
  if ! command -v mpicxx >/dev/null; then
    mpi_args=(-DMPI_CXX_ADDITIONAL_INCLUDE_DIRS=/usr/lib/x86_64-linux-gnu/openmpi/include
              -DMPI_CXX_LIB_NAMES=mpi -DMPI_mpi_LIBRARY=/usr/lib/x86_64-linux-gnu/libmpi.so)
  fi
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_BUILD_RPATH="$deps/usr/lib/x86_64-linux-gnu" "${mpi_args[@]}" \
    >"$out/configure.log" 2>&1 || { echo "FAIL: configure (see configure.log)"; exit 1; }
  grep -E "bkt apps:" "$out/configure.log" | tee "$out/summary.txt"
  grep -q "several ranks under mpirun" "$out/configure.log" || { echo "FAIL: MPI not found"; exit 1; }
  cmake --build "$build" -j "$(nproc)" --target bkt_sssp >"$out/build.log" 2>&1 ||
    { echo "FAIL: build (see build.log)"; grep -m 20 -E 'error|FAILED' "$out/build.log"; exit 1; }
fi
exe=$build/apps/sssp/bkt-sssp
for mode in gpu cpu; do
  args=()
  [ "$mode" = cpu ] && args=(--cpu)
  timeout 300 apps/sssp/tests/mpi_ranks_check.sh "$exe" "${args[@]}" >"$out/mpi-$mode.log" 2>&1 || status=1
  echo "$mode: $(tail -1 "$out/mpi-$mode.log")" | tee -a "$out/summary.txt"
done
exit $status
