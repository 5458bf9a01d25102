#!/usr/bin/env bash
# The second call of a device session whose first call (gpu-check.sh OUTDIR tests) ran out of
# time: runs the test binaries that OUTDIR/summary.txt does not list as passed, on the build the
# first call left, then PART (bench, or none). Usage: scripts/gpu-check-rest.sh OUTDIR [bench|none]
set -uo pipefail
out=${1:?usage: scripts/gpu-check-rest.sh OUTDIR [bench|none]}
part=${2:-none}
cd "$(dirname "$0")/.."
status=0
missing=()
for t in build-gpu/tests/bkt_*_tests build-gpu/apps/*/bkt_*_tests; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  grep -qE "^$name: [0-9]+ tests passed" "$out/summary.txt" 2>/dev/null || missing+=("$name")
done
if [ ${#missing[@]} -gt 0 ]; then
  pattern="^($(IFS='|'; echo "${missing[*]}"))\$"
  echo "test binaries still to run: ${missing[*]}"
  BKT_SANITIZE=0 BKT_TEST_BINARIES=$pattern scripts/gpu-check.sh "$out" tests || status=1
fi
if [ ! -s "$out/ctest-install.log" ]; then
  ctest --test-dir build-gpu -R install_and_consume --output-on-failure >"$out/ctest-install.log" 2>&1 ||
    { echo "FAIL: install_and_consume (see ctest-install.log)" | tee -a "$out/summary.txt"; status=1; }
fi
if [ "$part" = bench ]; then BKT_SANITIZE=0 scripts/gpu-check.sh "$out" bench || status=1; fi
exit $status
