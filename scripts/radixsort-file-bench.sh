#!/usr/bin/env bash
# End-to-end timing on the GPU host: bkt-radixsort on a 4 GiB raw file of random u32 keys, and
# numpy.sort (what a user would otherwise run) on the same file in the same run; the two sorted
# files must be identical. Writes radixsort-4gib.json and numpy-4gib.json into OUTDIR.
# Usage: scripts/radixsort-file-bench.sh OUTDIR [BKT_RADIXSORT_BINARY]
set -euo pipefail
out=${1:?usage: scripts/radixsort-file-bench.sh OUTDIR [BINARY]}
tool=${2:-build/apps/radixsort/bkt-radixsort}
scratch=${BKT_SCRATCH:-/tmp/bkt-file-bench}
mkdir -p "$out" "$scratch"
python3 - "$scratch/keys.u32" <<'PY'
import sys
import numpy as np
np.random.default_rng(2026).integers(0, 2**32, size=1 << 30, dtype=np.uint32).tofile(sys.argv[1])
PY
# Both tools read the file from the page cache: each run starts right after a full read of it.
warm() { cat "$scratch/keys.u32" >/dev/null; }
warm
"$tool" --dtype u32 --format raw "$scratch/keys.u32" -o "$scratch/sorted.u32" --json "$out/radixsort-4gib.json"
warm
python3 - "$scratch/keys.u32" "$scratch/numpy.u32" >"$out/numpy-4gib.json" <<'PY'
import json, sys, time
import numpy as np
t0 = time.perf_counter(); keys = np.fromfile(sys.argv[1], dtype=np.uint32)
t1 = time.perf_counter(); keys.sort()
t2 = time.perf_counter(); keys.tofile(sys.argv[2])
t3 = time.perf_counter()
print(json.dumps({"tool": "numpy.sort", "numpy": np.__version__, "elements": int(keys.size),
                  "seconds": {"read": t1 - t0, "sort": t2 - t1, "write": t3 - t2, "total": t3 - t0}}))
PY
cmp "$scratch/sorted.u32" "$scratch/numpy.u32" && echo "bkt-radixsort and numpy.sort wrote identical files"
cat "$out/radixsort-4gib.json" "$out/numpy-4gib.json"
rm -f "$scratch/keys.u32" "$scratch/sorted.u32" "$scratch/numpy.u32"
