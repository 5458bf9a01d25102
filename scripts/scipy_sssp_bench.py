#!/usr/bin/env python3
"""SciPy's Dijkstra on the graphs sssp_bench --export wrote, from the same sources, timed as ours is.

Each graph folder holds offsets.npy, targets.npy, weights.npy (CSR) and sources.npy (sssp_bench's
sources). SciPy sums the weights of repeated (u, v) entries, so parallel edges must first be
reduced to their lightest one: sssp_bench exports graphs so reduced, each vertex's targets
ascending, and those go to SciPy as they are; other graphs are reduced here.

Two times per graph, each the median over every source x up to --runs runs (one run a source when
a call takes over a second, and no more runs than fit in about two seconds a source, as sssp_bench
does; a call under a second gets one untimed warm-up call per source):
- kernel: scipy.sparse.csgraph.dijkstra(graph, indices=source) on a csr_matrix built beforehand
  (the call itself still checks and converts the matrix, as every call does);
- end to end: from the exported files to distances: np.load of the three arrays, their conversion
  to int64 targets and float64 weights, the csr_matrix, and the call.
With --bench-json, each is set against ours: kernel against sssp_bench's delta_ms (the CUDA-event
time of a run, without the distances' download), end to end against its end_to_end_ms (bkt-sssp's
load of the graph, its upload, and a run with the download). Ratios are SciPy's time over ours.
Edges are counted as sssp_bench counts them: directed CSR entries, parallel edges included; for
symmetric graphs the undirected count (GAP's) is shown too. The checksums (sums of the finite
distances from the first source) are compared.

Runs wherever python3 has NumPy and SciPy; without SciPy it says so and exits 0.
"""
import argparse
import json
import pathlib
import statistics
import sys
import time


def strictly_ascending_rows(offsets, targets):
    """Whether every vertex's targets ascend strictly (no parallel edges, nothing to reduce)."""
    import numpy as np
    ascending = np.diff(targets) > 0
    row_starts = offsets[1:-1]
    row_starts = row_starts[(row_starts > 0) & (row_starts < len(targets))]
    ascending[row_starts - 1] = True  # a row's first target need not exceed the last one before it
    return bool(ascending.all())


def load_arrays(folder):
    import numpy as np
    return np.load(folder / "offsets.npy"), np.load(folder / "targets.npy"), np.load(folder / "weights.npy")


def to_matrix(offsets, targets, weights):
    """The csr_matrix SciPy's dijkstra takes: int64 indices, float64 weights, parallel edges reduced."""
    import numpy as np
    import scipy.sparse
    n = len(offsets) - 1
    targets = targets.astype(np.int64)
    weights = weights.astype(np.float64)
    if strictly_ascending_rows(offsets, targets):
        return scipy.sparse.csr_matrix((weights, targets, offsets), shape=(n, n))
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
    # Lightest of each repeated (u, v): sort by (u, v, w) and keep the first of each run.
    order = np.lexsort((weights, targets, rows))
    rows, targets, weights = rows[order], targets[order], weights[order]
    first = np.ones(len(rows), dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (targets[1:] != targets[:-1])
    return scipy.sparse.csr_matrix((weights[first], (rows[first], targets[first])), shape=(n, n))


def ms_text(ms):
    """Milliseconds to three significant places or more: 0.123, 12.3, 1234.5."""
    return "nan" if ms != ms else f"{ms:.3f}" if ms < 10 else f"{ms:.1f}"


def seconds_of(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def median_over_sources(sources, runs, call):
    """Median seconds of call(source) over every source and up to `runs` runs each; the result of
    the first source's first call."""
    times, first = [], None
    for index, source in enumerate(sources):
        seconds, result = seconds_of(lambda: call(source))
        if index == 0:
            first = result
        if seconds > 1.0:
            times.append(seconds)  # slow: this call is the sample (a warm-up would double the cost)
            continue
        count = max(1, min(runs, int(2.0 / (seconds + 1e-3))))
        for _ in range(count):
            times.append(seconds_of(lambda: call(source))[0])
    return statistics.median(times), len(times), first


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("export_dir")
    parser.add_argument("--bench-json", help="sssp_bench's JSON, for ratios and checksums")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--runs", type=int, default=5, help="runs a source at most (default 5)")
    parser.add_argument("--sources", type=int, default=0, help="use only the first N sources (default: all)")
    args = parser.parse_args()
    try:
        import numpy as np
        from scipy.sparse.csgraph import dijkstra
    except ImportError as e:
        print(f"scipy_sssp_bench: SciPy unavailable ({e}); skipped")
        return 0
    ours = {}
    if args.bench_json:
        with open(args.bench_json) as f:
            ours = {g["graph"]: g for g in json.load(f).get("graphs", [])}
    results = []
    print("SciPy dijkstra against bkt-sssp delta-stepping; times are medians over sources x runs; "
          "ratios are SciPy / ours; edges are directed CSR entries (undirected: GAP's count)")
    print(f"{'graph':<15} {'vertices':>10} {'edges':>11} {'undirected':>11} {'runs':>5} "
          f"{'kernel ms':>10} {'ours ms':>9} {'ratio':>8} {'e2e ms':>10} {'ours e2e':>9} {'ratio':>8}  checksum")
    for folder in sorted(p for p in pathlib.Path(args.export_dir).iterdir() if p.is_dir()):
        offsets, targets, weights = load_arrays(folder)
        sources = [int(s) for s in np.load(folder / "sources.npy")]
        if args.sources > 0:
            sources = sources[:args.sources]
        n = len(offsets) - 1
        graph = to_matrix(offsets, targets, weights)
        kernel_s, kernel_runs, distances = median_over_sources(
            sources, args.runs, lambda s: dijkstra(graph, directed=True, indices=s))

        def end_to_end(source):
            arrays = load_arrays(folder)
            return dijkstra(to_matrix(*arrays), directed=True, indices=source)

        del graph  # the end-to-end runs build their own
        e2e_s, e2e_runs, _ = median_over_sources(sources, args.runs, end_to_end)
        mine = ours.get(folder.name)
        # GTEPS counts the graph's edges as sssp_bench loaded it, parallel ones included.
        edges = int(mine["edges"]) if mine and "edges" in mine else int(offsets[-1])
        undirected = int(mine["undirected_edges"]) if mine and "undirected_edges" in mine else None
        checksum = float(distances[np.isfinite(distances)].sum())
        record = {"graph": folder.name, "vertices": n, "edges": edges, "edges_counted_as": "directed CSR entries",
                  "undirected_edges": undirected, "sources": sources, "kernel_runs": kernel_runs,
                  "end_to_end_runs": e2e_runs, "scipy_ms": kernel_s * 1e3, "scipy_end_to_end_ms": e2e_s * 1e3,
                  "gteps": edges / kernel_s / 1e9, "checksum": checksum}
        agree = ""
        if mine:
            record["ours_ms"] = mine["delta_ms"]
            record["kernel_ratio"] = kernel_s * 1e3 / mine["delta_ms"]
            record["speedup_vs_scipy"] = record["kernel_ratio"]  # the name earlier runs used
            if "end_to_end_ms" in mine:
                record["ours_end_to_end_ms"] = mine["end_to_end_ms"]
                record["end_to_end_ratio"] = e2e_s * 1e3 / mine["end_to_end_ms"]
            record["checksum_agrees"] = abs(mine["checksum"] - checksum) <= 1e-9 * max(1.0, abs(checksum))
            agree = "agrees" if record["checksum_agrees"] else f"DIFFERS (ours {mine['checksum']})"
        results.append(record)
        nan = float("nan")
        print(f"{folder.name:<15} {n:>10} {edges:>11} {undirected if undirected is not None else '-':>11} "
              f"{kernel_runs:>5} {ms_text(kernel_s * 1e3):>10} {ms_text(record.get('ours_ms', nan)):>9} "
              f"{record.get('kernel_ratio', nan):>7.1f}x {ms_text(e2e_s * 1e3):>10} "
              f"{ms_text(record.get('ours_end_to_end_ms', nan)):>9} {record.get('end_to_end_ratio', nan):>7.1f}x  {agree}",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 1 if any(r.get("checksum_agrees") is False for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
