#!/usr/bin/env python3
"""SciPy's Dijkstra on the graphs sssp_bench --export wrote, from the same first source.

Each graph folder holds offsets.npy, targets.npy, weights.npy (CSR) and sources.npy. SciPy sums
the weights of repeated (u, v) entries, so parallel edges must first be reduced to their lightest
one (not timed): sssp_bench exports graphs so reduced, each vertex's targets ascending, and those
go to SciPy as they are; other graphs are reduced here. Prints a table and, with --bench-json, the
ratio to our delta-stepping and whether the checksums (sum of finite distances) agree.
"""
import argparse
import json
import pathlib
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


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("export_dir")
    parser.add_argument("--bench-json", help="sssp_bench's JSON, for ratios and checksums")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    try:
        import numpy as np
        import scipy.sparse
        from scipy.sparse.csgraph import dijkstra
    except ImportError as e:
        print(f"scipy_sssp_bench: SciPy unavailable ({e}); skipped")
        return 0
    ours = {}
    if args.bench_json:
        with open(args.bench_json) as f:
            ours = {g["graph"]: g for g in json.load(f).get("graphs", [])}
    results = []
    print(f"{'graph':<16} {'vertices':>10} {'edges':>11} {'scipy ms':>10} {'GTEPS':>8} {'ours ms':>9} {'ours/scipy':>10} checksum")
    for folder in sorted(p for p in pathlib.Path(args.export_dir).iterdir() if p.is_dir()):
        offsets = np.load(folder / "offsets.npy")
        targets = np.load(folder / "targets.npy").astype(np.int64)
        weights = np.load(folder / "weights.npy").astype(np.float64)
        source = int(np.load(folder / "sources.npy")[0])
        n = len(offsets) - 1
        if strictly_ascending_rows(offsets, targets):
            graph = scipy.sparse.csr_matrix((weights, targets, offsets), shape=(n, n))
        else:
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
            # Lightest of each repeated (u, v): sort by (u, v, w) and keep the first of each run.
            order = np.lexsort((weights, targets, rows))
            rows, targets, weights = rows[order], targets[order], weights[order]
            first = np.ones(len(rows), dtype=bool)
            first[1:] = (rows[1:] != rows[:-1]) | (targets[1:] != targets[:-1])
            graph = scipy.sparse.csr_matrix((weights[first], (rows[first], targets[first])), shape=(n, n))
        start = time.perf_counter()
        distances = dijkstra(graph, directed=True, indices=source)
        seconds = time.perf_counter() - start
        mine = ours.get(folder.name)
        # GTEPS counts the graph's edges as sssp_bench loaded it, parallel ones included.
        edges = int(mine["edges"]) if mine and "edges" in mine else int(offsets[-1])
        checksum = float(distances[np.isfinite(distances)].sum())
        record = {"graph": folder.name, "vertices": n, "edges": edges, "scipy_ms": seconds * 1e3,
                  "gteps": edges / seconds / 1e9, "checksum": checksum}
        agree = ""
        if mine:
            record["ours_ms"] = mine["delta_ms"]
            record["speedup_vs_scipy"] = seconds * 1e3 / mine["delta_ms"]
            record["checksum_agrees"] = abs(mine["checksum"] - checksum) <= 1e-9 * max(1.0, abs(checksum))
            agree = "agrees" if record["checksum_agrees"] else f"DIFFERS (ours {mine['checksum']})"
        results.append(record)
        print(f"{folder.name:<16} {n:>10} {edges:>11} {seconds * 1e3:>10.1f} {edges / seconds / 1e9:>8.3f} "
              f"{record.get('ours_ms', float('nan')):>9.3f} {record.get('speedup_vs_scipy', float('nan')):>9.1f}x {agree}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 1 if any(r.get("checksum_agrees") is False for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
