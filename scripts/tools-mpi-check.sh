#!/usr/bin/env bash
# bkt-radixsort, bkt-histogram and bkt-clean under mpirun on the multi-GPU host, each against one
# process of the same binary: sorted files compared with cmp, histograms' tables and JSON (weight
# sums to rounding), FITS data and JSON (but for timings); then ranks that fail on their own part
# must leave no output anywhere and every rank must exit non-zero. Logs land in OUTDIR.
# Usage: scripts/tools-mpi-check.sh OUTDIR BUILD_DIR [RANKS]   (BUILD_DIR holds apps/*/bkt-*)
set -uo pipefail
out=${1:?usage: scripts/tools-mpi-check.sh OUTDIR BUILD_DIR [RANKS]}
build=$(cd "${2:?build directory}" && pwd)
ranks=${3:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(timeout 300 mpirun --allow-run-as-root --bind-to none -np "$ranks")
py=${BKT_PYTHON:-/opt/torch/.venv/bin/python}
sort=$build/apps/radixsort/bkt-radixsort
hist=$build/apps/histogram/bkt-histogram
clean=$build/apps/clean/bkt-clean
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
pass() { echo "ok   $*" | tee -a "$out/summary.txt"; }
fail() { echo "FAIL $*" | tee -a "$out/summary.txt"; status=1; }
same() {  # same NAME FILE_A FILE_B
  if cmp -s "$2" "$3"; then pass "$1"; else fail "$1: $2 and $3 differ"; fi
}

"$py" - "$work" <<'PY'
import sys, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(7)
np.save(f"{w}/u32.npy", rng.integers(0, 2**32, 50_000_007, dtype=np.uint64).astype(np.uint32))
f = rng.standard_normal(20_000_003).astype(np.float32)
f[::1000] = np.nan; f[1::1000] = -0.0; f[2::1000] = np.inf; f[3::1000] = -np.inf; f[4::1000] = 1e-45
np.save(f"{w}/f32.npy", f)
np.save(f"{w}/equal.npy", np.full(10_000_019, 5, dtype=np.uint32))
rng.integers(0, 16, 3_000_017, dtype=np.uint64).astype(">u8").tofile(f"{w}/few.u64be")
np.save(f"{w}/weights.npy", rng.random(20_000_003))
with open(f"{w}/table.csv", "w") as t:
    t.write("value,weight\n# generated\n")
    for i, v in enumerate(rng.integers(-10**12, 10**12, 400_001)):
        t.write(f"{v},{(i % 7) * 0.25}\n")
with open(f"{w}/bad.txt", "w") as t:  # line 900001 is not a number: it lies in the last rank's part
    for i in range(1, 1_000_001):
        t.write("x12\n" if i == 900_001 else f"{i * 13 % 1000003}\n")
# A 5-channel cube from the bundled dirty image: scaled copies, one blank (NaN) channel.
raw = open("data/clean/yarray-sim-256/sim-dirty.fits", "rb").read()
cards = [raw[i:i + 80] for i in range(0, len(raw), 80)]
end = next(i for i, c in enumerate(cards) if c.startswith(b"END "))
header_bytes = -(-(end + 1) * 80 // 2880) * 2880
plane = np.frombuffer(raw[header_bytes:header_bytes + 256 * 256 * 4], dtype=">f4")
cards = [c if not c.startswith(b"NAXIS3  =") else b"NAXIS3  = %20d" % 5 + b" " * 50 for c in cards[:end + 1]]
header = b"".join(cards)
header += b" " * (-len(header) % 2880)
cube = np.stack([plane, 0.5 * plane, np.full_like(plane, np.nan), np.roll(plane, 7), 2 * plane]).astype(">f4")
data = cube.tobytes()
open(f"{w}/cube.fits", "wb").write(header + data + b"\0" * (-len(data) % 2880))
PY
[ -f "$work/cube.fits" ] || { fail "inputs"; exit 1; }

# bkt-radixsort: one process, then the ranks, same arguments.
sort_case() {  # NAME OUTPUT_EXT ARGS...
  local name=$1 ext=$2
  shift 2
  "$sort" "$@" -o "$work/one.$ext" 2>"$out/sort-$name-one.err" || { fail "sort $name: one process failed"; return; }
  "${mpirun[@]}" "$sort" "$@" -o "$work/ranks.$ext" --json "$work/sort-$name.json" >"$out/sort-$name-ranks.log" 2>&1 ||
    { fail "sort $name: $ranks ranks failed"; tail -5 "$out/sort-$name-ranks.log"; return; }
  same "sort $name ($ranks ranks vs one)" "$work/one.$ext" "$work/ranks.$ext"
  cp "$work/sort-$name.json" "$out/" 2>/dev/null
}
sort_case u32-npy npy "$work/u32.npy"
sort_case f32-specials-descending npy "$work/f32.npy" --descending
sort_case f32-to-text txt "$work/f32.npy"
sort_case equal-argsort npy "$work/equal.npy" --argsort
sort_case few-raw-bigendian-unique raw "$work/few.u64be" --dtype u64 --endian big --unique
sort_case few-unique-argsort npy "$work/few.u64be" --dtype u64 --endian big --unique --argsort
sort_case csv-column txt "$work/table.csv" --skip-header --column 1
sort_case csv-argsort-descending raw "$work/table.csv" --skip-header --column 1 --argsort --descending

# A bad line in one rank's part: every rank fails, rank 0 names the line, no output appears and an
# existing output is left as it was.
echo keep >"$work/kept.txt"
"${mpirun[@]}" "$sort" "$work/bad.txt" -o "$work/kept.txt" >"$out/sort-bad-part.log" 2>&1
code=$?
if [ "$code" -ne 0 ] && grep -q "rank $((ranks - 1)): .*bad.txt:900001:" "$out/sort-bad-part.log" &&
   [ "$(cat "$work/kept.txt")" = keep ] && [ -z "$(ls "$work" | grep '\.tmp\.')" ]; then
  pass "sort: a bad line in rank $((ranks - 1))'s part fails every rank (exit $code), output untouched"
else
  fail "sort: bad part (exit $code; see sort-bad-part.log)"
fi

# bkt-histogram: the table and JSON of one process and of the ranks.
hist_case() {  # NAME ARGS...
  local name=$1
  shift
  "$hist" "$@" -o "$work/one.tab" --json "$work/one.json" 2>"$out/hist-$name-one.err" || { fail "histogram $name: one process failed"; return; }
  "${mpirun[@]}" "$hist" "$@" -o "$work/ranks.tab" --json "$work/ranks.json" >"$out/hist-$name-ranks.log" 2>&1 ||
    { fail "histogram $name: $ranks ranks failed"; tail -5 "$out/hist-$name-ranks.log"; return; }
  if "$py" - "$work/one.json" "$work/ranks.json" <<'PY'
import json, sys, math
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if "second" not in k and k not in ("device",)}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
a, b = strip(a), strip(b)
def close(x, y):
    if isinstance(x, float) or isinstance(y, float): return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-9)
    if isinstance(x, dict): return x.keys() == y.keys() and all(close(x[k], y[k]) for k in x)
    if isinstance(x, list): return len(x) == len(y) and all(close(u, v) for u, v in zip(x, y))
    return x == y
sys.exit(0 if close(a, b) else 1)
PY
  then pass "histogram $name ($ranks ranks vs one: JSON equal, weights to 1e-12)"; else fail "histogram $name: JSON differs"; fi
}
hist_case f32-auto-range "$work/f32.npy" --bins 256
hist_case f32-log "$work/f32.npy" --bins 64 --log
hist_case u32-range "$work/u32.npy" --bins 1000 --range 0:4294967296
hist_case f32-weighted "$work/f32.npy" --bins 100 --weights "$work/weights.npy"
hist_case csv-weighted "$work/table.csv" --skip-header --column 1 --bins 50 --weights "$work/table.csv" --weights-column 2
"${mpirun[@]}" "$hist" "$work/table.csv" --skip-header --column 1 --weights "$work/weights.npy" -o "$work/no.tab" \
  >"$out/hist-mismatched-weights.log" 2>&1
code=$?
if [ "$code" -ne 0 ] && [ ! -e "$work/no.tab" ]; then pass "histogram: text data with another file's weights refused (exit $code)"
else fail "histogram: mismatched weight parts (exit $code)"; fi

# bkt-clean: a 5-channel cube (one channel blank), Clark and Hogbom; FITS data and JSON.
clean_case() {  # NAME ARGS...
  local name=$1
  shift
  "$clean" "$work/cube.fits" data/clean/yarray-sim-256/sim-psf.fits "$@" --prefix "$work/one-$name" \
    --json "$work/one-$name.json" >"$out/clean-$name-one.log" 2>&1 || { fail "clean $name: one process failed"; return; }
  "${mpirun[@]}" "$clean" "$work/cube.fits" data/clean/yarray-sim-256/sim-psf.fits "$@" --prefix "$work/ranks-$name" \
    --json "$work/ranks-$name.json" >"$out/clean-$name-ranks.log" 2>&1 ||
    { fail "clean $name: $ranks ranks failed"; tail -5 "$out/clean-$name-ranks.log"; return; }
  if "$py" - "$work" "$name" <<'PY'
import json, sys, glob, os
w, name = sys.argv[1:3]
def data(path):
    raw = open(path, "rb").read()
    cards = [raw[i:i + 80] for i in range(0, len(raw), 80)]
    end = next(i for i, c in enumerate(cards) if c.startswith(b"END "))
    return raw[-(-(end + 1) * 80 // 2880) * 2880:]
ok = True
for one in sorted(glob.glob(f"{w}/one-{name}*")):
    other = one.replace(f"one-{name}", f"ranks-{name}")
    if one.endswith(".fits"): same = data(one) == data(other)
    elif one.endswith(".json"):  # timings and the outputs' own names aside
        strip = lambda x: {k: strip(v) for k, v in x.items() if "second" not in k and k != "time_s"} if isinstance(x, dict) else [strip(v) for v in x] if isinstance(x, list) else x
        load = lambda path, tag: json.loads(open(path).read().replace(tag, ""))
        a, b = strip(load(one, f"one-{name}")), strip(load(other, f"ranks-{name}"))
        same = a == b
        if not same: print({k for k in a if a.get(k) != b.get(k)})
    else: same = open(one, "rb").read().replace(b"one-", b"") == open(other, "rb").read().replace(b"ranks-", b"")
    print(os.path.basename(one), "same" if same else "DIFFERENT")
    ok &= same
sys.exit(0 if ok else 1)
PY
  then pass "clean $name ($ranks ranks vs one: FITS data, lists and JSON but timings)"; else fail "clean $name: outputs differ"; fi
}
clean_case clark --algorithm clark --niter 2000 --mgain 0.8
clean_case hogbom --niter 500
exit $status
