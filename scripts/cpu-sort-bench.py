#!/usr/bin/env python3
"""bkt-radixsort's CPU path against NumPy, end to end: load, sort, save, each as the command a user
would run, timed from outside (process start, imports and all) on files in the page cache.

    pip install numpy && python3 scripts/cpu-sort-bench.py [--n 50M] [--text-n 10M] [--runs 3]

Cases, each on the same data for both (uniform random u32 keys, seed 2026):
  npy       bkt-radixsort IN.npy -o OUT.npy --cpu      np.save(OUT, np.sort(np.load(IN)))
  raw       bkt-radixsort IN.u32 --dtype u32 ...       np.sort(np.fromfile(IN, np.uint32)).tofile(OUT)
  text      bkt-radixsort IN.txt -o OUT.txt --cpu      np.savetxt(OUT, np.sort(np.loadtxt(IN, dtype=np.int64)), fmt='%d')
            (no --dtype: the tool infers i64 from the values, as the NumPy line asks for)
  argsort   bkt-radixsort IN.npy --argsort ...         np.save(OUT, np.argsort(np.load(IN), kind='stable'))
The two outputs of each case must be identical files (compared byte for byte). Each time is the
median of --runs runs, the two tools taking turns; the ratio is NumPy's time over ours (above 1:
ours is faster). Our phases come from its --json. Prints a Markdown table.
"""
import argparse
import filecmp
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def count(text):
    """'50M' -> 50000000; also K and G, or a plain number."""
    scale = {"K": 10**3, "M": 10**6, "G": 10**9}
    return int(float(text[:-1]) * scale[text[-1].upper()]) if text[-1].upper() in scale else int(text)


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - start


def numpy_command(code, *paths):
    return [sys.executable, "-c", "import sys; import numpy as np; a = sys.argv[1:]; " + code, *map(str, paths)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=count, default=count("50M"), help="keys for npy, raw and argsort (default 50M)")
    parser.add_argument("--text-n", type=count, default=count("10M"),
                        help="keys for text: np.loadtxt takes a few seconds a million (default 10M)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tool", default="build/apps/radixsort/bkt-radixsort")
    parser.add_argument("--cases", default="npy,raw,text,argsort")
    parser.add_argument("--dir", default=None, help="scratch directory (default: a new one under $TMPDIR)")
    args = parser.parse_args()
    tool = str(pathlib.Path(args.tool).resolve())
    scratch = pathlib.Path(args.dir or tempfile.mkdtemp(prefix="bkt-cpu-sort-bench."))
    scratch.mkdir(parents=True, exist_ok=True)

    keys = np.random.default_rng(2026).integers(0, 2**32, size=args.n, dtype=np.uint32)
    inputs = {"npy": scratch / "keys.npy", "raw": scratch / "keys.u32", "text": scratch / "keys.txt"}
    np.save(inputs["npy"], keys)
    keys.tofile(inputs["raw"])
    np.savetxt(inputs["text"], keys[: args.text_n], fmt="%d")
    del keys

    ours_out, theirs_out = scratch / "ours.out", scratch / "numpy.out"
    summary = scratch / "summary.json"
    cases = {
        "npy": ([tool, inputs["npy"], "-o", ours_out, "--output-format", "npy"],
                numpy_command("np.save(open(a[1], 'wb'), np.sort(np.load(a[0])))", inputs["npy"], theirs_out),
                args.n),
        "raw": ([tool, inputs["raw"], "--dtype", "u32", "-o", ours_out],
                numpy_command("np.sort(np.fromfile(a[0], dtype=np.uint32)).tofile(a[1])", inputs["raw"], theirs_out),
                args.n),
        "text": ([tool, inputs["text"], "-o", ours_out, "--output-format", "text"],
                 numpy_command("np.savetxt(a[1], np.sort(np.loadtxt(a[0], dtype=np.int64)), fmt='%d')",
                               inputs["text"], theirs_out),
                 args.text_n),
        "argsort": ([tool, inputs["npy"], "--argsort", "-o", ours_out, "--output-format", "npy"],
                    numpy_command("np.save(open(a[1], 'wb'), np.argsort(np.load(a[0]), kind='stable'))",
                                  inputs["npy"], theirs_out),
                    args.n),
    }
    rows = []
    for name in args.cases.split(","):
        ours_command, numpy_line, n = cases[name]
        ours_command = [str(part) for part in ours_command] + ["--cpu", "--json", str(summary)]
        ours, theirs, phases = [], [], []
        for _ in range(args.runs):
            for path in (ours_out, theirs_out):
                path.unlink(missing_ok=True)
            ours.append(timed(ours_command))
            phases.append(json.loads(summary.read_text())["seconds"])
            theirs.append(timed(numpy_line))
        identical = filecmp.cmp(ours_out, theirs_out, shallow=False)
        median = {phase: statistics.median(p[phase] for p in phases) for phase in ("read", "sort", "write")}
        rows.append((name, n, statistics.median(ours), statistics.median(theirs), identical, median))
        print(f"{name}: ours {rows[-1][2]:.3f} s, numpy {rows[-1][3]:.3f} s, identical {identical}", file=sys.stderr)

    print(f"{time.strftime('%Y-%m-%d')}, {platform.node()}: {os.cpu_count()} CPUs, NumPy {np.__version__}, "
          f"median of {args.runs} runs, wall time of each command")
    print()
    print("| case | keys | bkt-radixsort --cpu (s) | read / sort / write (s) | NumPy (s) | NumPy / ours | identical |")
    print("|---|---|---|---|---|---|---|")
    for name, n, ours, theirs, identical, phase in rows:
        print(f"| {name} | {n:,} | {ours:.2f} | {phase['read']:.2f} / {phase['sort']:.2f} / {phase['write']:.2f} "
              f"| {theirs:.2f} | {theirs / ours:.2f}x | {'yes' if identical else 'NO'} |")
    for path in (*inputs.values(), ours_out, theirs_out, summary):
        path.unlink(missing_ok=True)
    if not args.dir:
        scratch.rmdir()
    return 0 if all(row[4] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
