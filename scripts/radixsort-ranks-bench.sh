#!/usr/bin/env bash
# mpirun -np N bkt-radixsort on a large u32 .npy (16 GiB by default) against one process of the
# same binary, and the external sort of one process with --gpu-memory 2G (BKT_EXTERNAL_GPU_MEMORY), with the machine's sequential read and write throughput of that file measured by dd
# in the same run (page cache: the file was just written) and NumPy's np.sort for scale. Prints the
# phases of every rank and each rank's read and write throughput as a fraction of dd's.
# Usage: scripts/radixsort-ranks-bench.sh OUTDIR BUILD_DIR [RANKS] [LOG2_KEYS]   (default 2, 32)
set -uo pipefail
out=${1:?usage: scripts/radixsort-ranks-bench.sh OUTDIR BUILD_DIR [RANKS] [LOG2_KEYS]}
build=$(cd "${2:?build directory}" && pwd)
ranks=${3:-2}
log2=${4:-32}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
py=${BKT_PYTHON:-/opt/torch/.venv/bin/python}
sort=$build/apps/radixsort/bkt-radixsort
work=${BKT_BENCH_DIR:-/tmp/bkt-ranks-bench}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
big=$work/keys.npy

"$py" - "$big" "$log2" <<'PY'
import sys, time, numpy as np
path, n = sys.argv[1], 1 << int(sys.argv[2])
start = time.time()
keys = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint32, shape=(n,))
rng = np.random.default_rng(11)
step = 1 << 27
for at in range(0, n, step):
    keys[at:at + step] = rng.integers(0, 2**32, min(step, n - at), dtype=np.uint32)
keys.flush()
del keys
print(f"generated {n} u32 keys ({n * 4 / 2**30:.1f} GiB) in {time.time() - start:.1f} s")
PY
bytes=$(stat -c %s "$big")
# dd's figures: the file read from the page cache, and the same size written into it.
dd_rate() { sed -nE 's/.* copied, ([0-9.]+) s, .*/\1/p' | tail -1; }
read_s=$(dd if="$big" of=/dev/null bs=16M 2>&1 | dd_rate)
write_s=$(dd if="$big" of="$work/dd-copy" bs=16M 2>&1 | dd_rate)
rm -f "$work/dd-copy"
echo "dd: read $bytes bytes in $read_s s, wrote them in $write_s s" | tee "$out/bench.txt"

timeout 580 mpirun --allow-run-as-root --bind-to none -np "$ranks" "$sort" "$big" -o "$work/ranks.npy" \
  --json "$out/ranks.json" --verbose >"$out/ranks.log" 2>&1 || { echo "FAIL: $ranks ranks"; tail "$out/ranks.log"; }
timeout 580 "$sort" "$big" -o "$work/one.npy" --json "$out/one.json" --verbose >"$out/one.log" 2>&1 ||
  { echo "FAIL: one process"; tail "$out/one.log"; }
if cmp -s "$work/ranks.npy" "$work/one.npy"; then echo "outputs identical (cmp)" | tee -a "$out/bench.txt"
else echo "FAIL: outputs differ" | tee -a "$out/bench.txt"; fi
rm -f "$work/ranks.npy"
# The external sort on the same file: one process whose chunks may use 2 GB of device memory.
timeout 580 "$sort" "$big" -o "$work/external.npy" --gpu-memory "${BKT_EXTERNAL_GPU_MEMORY:-2G}" \
  --spill-dir "$work" --json "$out/external.json" --verbose >"$out/external.log" 2>&1 ||
  { echo "FAIL: external sort"; tail "$out/external.log"; }
if cmp -s "$work/external.npy" "$work/one.npy"; then echo "external sort output identical (cmp)" | tee -a "$out/bench.txt"
else echo "FAIL: external sort output differs" | tee -a "$out/bench.txt"; fi
rm -f "$work/one.npy" "$work/external.npy"

"$py" - "$out" "$bytes" "$read_s" "$write_s" "$big" <<'PY' | tee -a "$out/bench.txt"
import json, sys, time, numpy as np
out, size, dd_read, dd_write, big = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
ranks, one = json.load(open(f"{out}/ranks.json")), json.load(open(f"{out}/one.json"))
gb = lambda b, s: b / s / 1e9 if s > 0 else float("nan")
print(f"dd: read {gb(size, dd_read):.2f} GB/s, write {gb(size, dd_write):.2f} GB/s ({size / 2**30:.1f} GiB)")
print(f"{'run':10} {'read':>8} {'upload':>8} {'sort':>8} {'download':>8} {'write':>8} {'total':>8}  read GB/s (of dd)  write GB/s (of dd)")
for r in ranks["ranks"]:
    s, b = r["seconds"], r["part_elements"] * 4
    print(f"rank {r['rank']:<5} {s['read']:8.2f} {s['upload']:8.2f} {s['sort']:8.2f} {s['download']:8.2f} {s['write']:8.2f} {'':>8}"
          f"  {gb(b, s['read']):5.2f} ({gb(b, s['read']) / gb(size, dd_read):4.0%})      "
          f"{gb(r['slice_elements'] * 4, s['write']):5.2f} ({gb(r['slice_elements'] * 4, s['write']) / gb(size, dd_write):4.0%})")
s = one["seconds"]
print(f"{'1 process':10} {s['read']:8.2f} {s['upload']:8.2f} {s['sort']:8.2f} {s['download']:8.2f} {s['write']:8.2f} {s['total']:8.2f}"
      f"  {gb(size, s['read']):5.2f} ({gb(size, s['read']) / gb(size, dd_read):4.0%})      {gb(size, s['write']):5.2f}")
try:
    ext = json.load(open(f"{out}/external.json"))
    e = ext["seconds"]
    print(f"{'external':10} {e['read']:8.2f} {e['upload']:8.2f} {e['sort']:8.2f} {e['download']:8.2f} {e['write']:8.2f} {e['total']:8.2f}"
          f"  split {e['split']:.2f} s, {ext['chunks']} chunks of up to {ext['chunk_items']}, {ext['buckets']} buckets: "
          f"{e['total'] / s['total']:.2f}x the in-memory run's time")
except (OSError, KeyError, ValueError) as error:
    print(f"external: no summary ({error})")
print(f"{len(ranks['ranks'])} ranks total {ranks['seconds']['total']:.2f} s (rank 0's wall clock), one process {s['total']:.2f} s: "
      f"{s['total'] / ranks['seconds']['total']:.2f}x")
keys = np.load(big)
start = time.time()
keys.sort()
print(f"NumPy {np.__version__} in-place sort of the loaded keys: {time.time() - start:.2f} s")
PY
