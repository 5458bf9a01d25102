#!/usr/bin/env python3
"""One markdown table of select_bench's rows beside PyTorch's, against the selection issue's targets.

Usage: scripts/select_table.py SELECT_BENCH_JSON [--torch TORCH_JSON] [--out FILE]

Per row: our ms, the CUB peer's ms, torch's ms, the speed-up over each (their ms / ours), the target,
the fraction of the byte limit, and PASS or MISS. A target that needs a number this run lacks
(no torch JSON, or no DeviceTopK peer) gives "n/a" unless another part of it already misses.
Targets (H100, f32, 2^28):
  select_kth (median, k=n/100)  <= 0.5 ms
  top_k                         <= 0.6 ms and >= 8x torch.topk and >= 8x cub::DeviceTopK
  top_k_batched                 >= 4x torch.topk, and >= 1.5x cub::DeviceBatchedTopK where it runs
  adversarial inputs            <= 1.5x our time on the uniform input
  approx_select                 <= 0.4 ms
  multiselect 1023              <= 1.5 ms
Rows marked [algorithm] are algorithm baselines, without a target.
"""
import argparse
import json
import re
import sys


def base_name(case):
    """The case without its trailing note: "approx_select k=n/2 (rank error 3 ...)" -> "approx_select k=n/2"."""
    return re.sub(r"\s*\([^()]*\)$", "", case)


def uniform_case(case):
    """The uniform row an adversarial row is measured against."""
    return re.sub(r" adv=\S+$", "", case)


def at_most(value, limit):
    return None if value is None else value <= limit


def at_least(value, limit):
    return None if value is None else value >= limit


def target(case, ours_ms, cub_speedup, torch_speedup, uniform_ms, peer_name=""):
    """(target text, [checks: True, False or None when unknown]) for a row; checks None: no target."""
    if re.search(r"\[\w+\]$", case):
        return "baseline", None
    if " adv=" in case:
        ratio = ours_ms / uniform_ms if uniform_ms else None
        return "<= 1.5x uniform", [at_most(ratio, 1.5)]
    if case.startswith("select_kth "):
        return "<= 0.5 ms", [at_most(ours_ms, 0.5)]
    if case.startswith("top_k_batched "):
        if peer_name.startswith("cub::DeviceBatchedTopK"):
            return ">= 4x torch, >= 1.5x DeviceBatchedTopK", [at_least(torch_speedup, 4), at_least(cub_speedup, 1.5)]
        return ">= 4x torch", [at_least(torch_speedup, 4)]
    if case.startswith("top_k "):
        return "<= 0.6 ms, >= 8x torch, >= 8x DeviceTopK", [
            at_most(ours_ms, 0.6), at_least(torch_speedup, 8), at_least(cub_speedup, 8)]
    if case.startswith("approx_select"):
        return "<= 0.4 ms", [at_most(ours_ms, 0.4)]
    if case.startswith("multiselect"):
        return "<= 1.5 ms", [at_most(ours_ms, 1.5)]
    return "", None


def verdict(checks):
    if checks is None:
        return "-"
    if any(c is False for c in checks):
        return "MISS"
    if any(c is None for c in checks):
        return "n/a"
    return "PASS"


def fmt(value, spec, suffix=""):
    return "-" if value is None else format(value, spec) + suffix


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench_json", help="select_bench --json output")
    parser.add_argument("--torch", help="torch_select_bench.py --json output")
    parser.add_argument("--out", help="write the table here as well as to stdout")
    args = parser.parse_args()

    with open(args.bench_json) as f:
        bench = json.load(f)
    torch_doc, torch_rows = None, {}
    if args.torch:
        with open(args.torch) as f:
            torch_doc = json.load(f)
        torch_rows = {row["case"]: row for row in torch_doc["rows"]}

    rows = bench["rows"]
    ours_by_case = {base_name(row["case"]): row["ours_ms"] for row in rows}
    lines = [f"# {bench['benchmark']}", "",
             f"bucketeer and CUB: {bench['device']}, median of {bench['repeats']}, copy bandwidth "
             f"{bench['copy_bandwidth_bytes_per_s'] * 1e-9:.0f} GB/s (the byte limit uses it); CCCL "
             f"{bench.get('cccl_version', '?')} (toolkit) unless a row's peer names another."]
    if torch_doc:
        lines.append(f"torch {torch_doc['torch']} (CUDA {torch_doc['cuda']}): {torch_doc['device']}, "
                     f"median of {torch_doc['repeats']} unless noted.")
    else:
        lines.append("torch: no results (torch_select_bench.py did not run); its columns are empty.")
    lines += ["", "| case | ours ms | CUB peer | peer ms | torch ms | vs CUB | vs torch | target | of limit | verdict |",
              "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |"]
    counts = {}
    notes = []
    for row in rows:
        case = base_name(row["case"])
        ours = row["ours_ms"]
        peer_name = row["peer"]
        is_topk_peer = peer_name.startswith("cub::DeviceTopK")
        cub_speedup = row["peer_ms"] / ours
        # top_k's CUB target is against DeviceTopK only; a sort stands in when it was not built.
        cub_for_target = cub_speedup if (is_topk_peer or not case.startswith("top_k ")) else None
        torch_row = torch_rows.get(case)
        torch_ms = torch_row["ms"] if torch_row else None
        torch_speedup = torch_ms / ours if torch_ms else None
        if torch_row and torch_row.get("note"):
            notes.append(f"{case}: torch {torch_row['note']}")
        text, checks = target(case, ours, cub_for_target, torch_speedup, ours_by_case.get(uniform_case(case)), peer_name)
        result = verdict(checks)
        counts[result] = counts.get(result, 0) + 1
        cccl = row.get("peer_cccl_version")
        if cccl and cccl != bench.get("cccl_version"):
            peer_name += f" (CCCL {cccl})"
        lines.append(f"| {row['case']} | {ours:.3f} | {peer_name} | {row['peer_ms']:.3f} | {fmt(torch_ms, '.3f')} "
                     f"| {cub_speedup:.2f}x | {fmt(torch_speedup, '.2f', 'x')} | {text} "
                     f"| {100 * row['fraction_of_limit']:.0f}% | {result} |")
    lines += ["", "vs CUB / vs torch: their time over ours (above 1: we are faster). of limit: the time to move "
              "the row's bytes at the copy bandwidth, over our time."]
    lines += [f"- {note}" for note in notes]
    lines += ["", "verdicts: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("PASS", "MISS", "n/a", "-"))]
    table = "\n".join(lines) + "\n"
    sys.stdout.write(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
