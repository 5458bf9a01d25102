#!/usr/bin/env bash
# bkt-sssp under mpirun: the sources spread over ranks must give the files of a one-process run
# byte for byte and the same summary (timings aside), and a failure on one rank must leave no
# output on any rank, every rank exiting non-zero with that rank's message.
# Usage: mpi_ranks_check.sh BKT_SSSP [--cpu]   (without --cpu each rank takes a GPU)
# Environment: BKT_MPIRUN (default mpirun), BKT_DATA_DIR (default the repository's data/).
set -uo pipefail
exe=${1:?usage: mpi_ranks_check.sh BKT_SSSP [--cpu]}
shift
mode=("$@")
data=${BKT_DATA_DIR:-$(cd "$(dirname "$0")/../../../data" && pwd)}
graph=$data/graphs/rome99.gr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck disable=SC2206
mpirun=(${BKT_MPIRUN:-mpirun} --allow-run-as-root --oversubscribe --bind-to none -np)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The summary without what changes from run to run (times, rates, the rank count, the folder).
strip_json() {
  python3 -c '
import json, os, sys
s = json.load(open(sys.argv[1]))
for key in ("seconds", "ranks"): s.pop(key, None)
for key in ("load_seconds", "megabytes_per_second"): s["graph"].pop(key, None)
for run in s["sources"]:
    # Timings, and on the GPU the work counters: threads race to relax an edge first, so two
    # one-GPU runs differ in rounds and relaxed edges as well.
    for key in ("milliseconds", "gteps", "rounds", "relaxed_edges"): run.pop(key, None)
    if run["output"]: run["output"] = os.path.basename(run["output"])
print(json.dumps(s, indent=1, sort_keys=True))' "$1"
}
# The table without its time and GTEPS columns and the load line's timing.
strip_table() { awk 'NF == 7 { $5 = $6 = "" } /^graph:/ { sub(/ loaded in .*,/, ",") } { print }' "$1"; }

# One process, then N ranks, with the same arguments; every file and the summary must agree.
# Output names contain OUT, replaced by the run's folder.
compare_runs() {
  local name=$1 ranks=$2
  shift 2
  mkdir -p "$work/$name/one" "$work/$name/ranks"
  "$exe" "${mode[@]}" "${@//OUT/$work/$name/one}" --json "$work/$name/one/summary.json" \
    >"$work/$name/one.table" 2>"$work/$name/one.err" || { fail "$name: one process: $(cat "$work/$name/one.err")"; return; }
  "${mpirun[@]}" "$ranks" "$exe" "${mode[@]}" "${@//OUT/$work/$name/ranks}" --json "$work/$name/ranks/summary.json" \
    >"$work/$name/ranks.table" 2>"$work/$name/ranks.err" ||
    { fail "$name: $ranks ranks: $(cat "$work/$name/ranks.err")"; return; }
  local count=0
  for file in "$work/$name/one"/*; do
    [ "$(basename "$file")" = summary.json ] && continue
    cmp "$file" "$work/$name/ranks/$(basename "$file")" || fail "$name: $(basename "$file") differs"
    count=$((count + 1))
  done
  [ "$(ls "$work/$name/one" | wc -l)" = "$(ls "$work/$name/ranks" | wc -l)" ] || fail "$name: not the same files"
  diff <(strip_json "$work/$name/one/summary.json") <(strip_json "$work/$name/ranks/summary.json") >/dev/null ||
    fail "$name: the JSON summaries differ"
  grep -q "\"ranks\": $ranks" "$work/$name/ranks/summary.json" || fail "$name: the summary does not say $ranks ranks"
  diff <(strip_table "$work/$name/one.table") <(strip_table "$work/$name/ranks.table") >/dev/null ||
    fail "$name: the tables differ"
  echo "ok: $name: $count files, $ranks ranks"
}

# Sources in a DIMACS .ss file, one of them twice and on both sides of the split.
{
  echo "p aux sp ss 8"
  for v in 1 17 3353 400 17 2999 1000 5; do echo "s $v"; done
} >"$work/rome.ss"
compare_runs sources-file 2 "$graph" --sources "$work/rome.ss" -o "OUT/d.{source}.txt"
compare_runs random-npy-parents 3 "$graph" --random-sources 10 --seed 7 -o "OUT/d.{source}.npy" --parents
compare_runs one-source-more-ranks 3 "$graph" --source 42 -o "OUT/d.txt"

# A failure on one rank: the last source's output is a folder, so rank 1 cannot create it (the
# first source's: rank 0). Nothing may appear on either rank, not even a temporary.
failing_rank() {
  local name=$1 blocked=$2 rank=$3
  local out=$work/$name
  mkdir -p "$out/d.$blocked.txt"
  "${mpirun[@]}" 2 "$exe" "${mode[@]}" "$graph" --sources "$work/rome.ss" -o "$out/d.{source}.txt" \
    --json "$out/summary.json" >"$work/$name.out" 2>"$work/$name.err"
  local code=$?
  [ "$code" -ne 0 ] || fail "$name: exit code 0"
  grep -q "bkt-sssp: rank $rank: $out/d.$blocked.txt: is a directory" "$work/$name.err" ||
    fail "$name: no message from rank $rank: $(head -3 "$work/$name.err")"
  [ "$(ls -A "$out")" = "d.$blocked.txt" ] || fail "$name: output left behind: $(ls -A "$out" | tr '\n' ' ')"
  [ -s "$work/$name.out" ] && fail "$name: a table was printed"
  echo "ok: $name (exit $code)"
}
failing_rank failing-rank-1 5 1
failing_rank failing-rank-0 17 0

# Every rank's exit code, not just mpirun's: run each rank through a shell that reports it.
out=$work/codes
mkdir -p "$out/d.5.txt"
"${mpirun[@]}" 2 --tag-output sh -c '"$@"; echo "exit=$?"' sh "$exe" "${mode[@]}" "$graph" \
  --sources "$work/rome.ss" -o "$out/d.{source}.txt" >"$work/codes.out" 2>&1
[ "$(grep -c 'exit=1$' "$work/codes.out")" = 2 ] || fail "codes: not every rank exited 1: $(grep exit= "$work/codes.out")"
echo "ok: every rank exits 1"

[ "$failures" = 0 ] && echo "all passed" || echo "$failures failed"
[ "$failures" = 0 ]
