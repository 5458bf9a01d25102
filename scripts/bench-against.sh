#!/usr/bin/env bash
# Benchmarks of this tree against another revision of it, in the same GPU session: builds the
# named bench targets of REVISION's tree (a tarball made by `git archive`) beside this tree's
# build, then runs each bench old, new, old, new and prints both medians' ratio per row, so that a
# refactoring can show it kept the speed (issue figures: within 3 %).
# Usage: scripts/bench-against.sh OUTDIR OLD_TREE.tgz NEW_BUILD "compact_bench select_bench ..."
# BKT_BUILD_ONLY=1 builds the old tree's benches and stops: a first call on a warm machine builds
# them beside the new tree's build, and a later call, on an idle GPU, runs them.
set -uo pipefail
out=${1:?usage: scripts/bench-against.sh OUTDIR OLD_TREE.tgz NEW_BUILD BENCHES}
old_tree=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
new_build=$(cd "${3:?new build}" && pwd)
benches=${4:?bench targets}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
source scripts/gpu-env.sh
old_src=/tmp/bkt-old-src
old_build=/tmp/bkt-old-build
if [ ! -x "$old_build/bench/$(echo "$benches" | awk '{print $1}')" ]; then
  rm -rf "$old_src" && mkdir -p "$old_src" && tar xzf "$old_tree" -C "$old_src"
  ln -sfn "$PWD/.deps" "$old_src/.deps"
  cmake -S "$old_src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$bkt_deps/usr" -DCMAKE_BUILD_RPATH="$bkt_deps/usr/lib/x86_64-linux-gnu" \
    -Dnlohmann_json_DIR="$bkt_deps/usr/share/cmake/nlohmann_json" -DBKT_BENCH_CCCL_PEER_INCLUDE= \
    >"$out/old-configure.log" 2>&1 || { echo "FAIL: old configure"; tail "$out/old-configure.log"; exit 1; }
  targets=()
  for b in $benches; do targets+=(--target "$b"); done
  start=$SECONDS
  cmake --build "$old_build" -j "$(nproc)" "${targets[@]}" >"$out/old-build.log" 2>&1 ||
    { echo "FAIL: old build"; grep -m 10 -E 'error|FAILED' "$out/old-build.log"; exit 1; }
  echo "old build: $((SECONDS - start)) s"
fi
[ -n "${BKT_BUILD_ONLY:-}" ] && exit 0
for b in $benches; do
  for round in 1 2; do
    for side in old new; do
      build=$old_build
      [ "$side" = new ] && build=$new_build
      extra=()
      [ "$b" = sssp_bench ] && extra=(--export "$out/sssp-export-$side")
      "$build/bench/$b" --repeats "${BKT_BENCH_REPEATS:-15}" --json "$out/$b.$side.$round.json" "${extra[@]}" \
        >"$out/$b.$side.$round.txt" 2>&1 || echo "FAIL: $b $side (see $b.$side.$round.txt)"
    done
  done
done
python3 - "$out" $benches <<'PY'
import json, sys, glob, statistics
out, benches = sys.argv[1], sys.argv[2:]
def rows(path):
    data = json.load(open(path))
    items = data if isinstance(data, list) else data.get("rows", data.get("results", []))
    found = {}
    for row in items:
        if not isinstance(row, dict): continue
        time = row.get("ours_ms")
        if not isinstance(time, (int, float)): continue
        found[row["case"]] = (time, row.get("ratio_to_peer", 0.0), row.get("fraction_of_limit", 0.0), row.get("peer", ""))
    return found
worst = 1.0
for bench in benches:
    old = [rows(p) for p in sorted(glob.glob(f"{out}/{bench}.old.*.json"))]
    new = [rows(p) for p in sorted(glob.glob(f"{out}/{bench}.new.*.json"))]
    if not old or not new: print(f"{bench}: no JSON"); continue
    print(f"\n{bench}: ours, new / old ms (the faster of two runs each); new's ratio to the peer and fraction of the limit")
    for name in old[0]:
        if not all(name in r for r in new): continue
        o = min(r[name][0] for r in old if name in r)
        best = min((r[name] for r in new), key=lambda row: row[0])
        n, ratio, fraction, peer = best
        worst = max(worst, n / o)
        print(f"  {n / o:6.3f}  old {o:9.4f}  new {n:9.4f}  {ratio:5.2f}x {peer[:14]:14s} {100 * fraction:5.1f}%  {name[:90]}")
print(f"\nslowest new / old: {worst:.3f}")
PY
