#!/usr/bin/env python3
"""PyTorch's selection on the GPU, on the inputs of bench/select_bench.cu, for scripts/select_table.py.

f32 uniform in [0, 1), 2^28 elements (made by torch on the device: the distribution matters, not the
bits). Each case is warmed up, then timed one run at a time with CUDA events; the median is
reported. torch.kthvalue takes about 2 s at this size, so it is timed only 3 times (marked so).
Case names match select_bench's rows.

Usage: scripts/torch_select_bench.py [--repeats 25] [--log2-items 28] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys

import torch

TOP_K_SIZES = [1, 32, 1024, 1 << 16, 1 << 20]
BATCHED_COLS = [65536, 4096]
BATCHED_K = [32, 256]
KTHVALUE_RUNS = 3


def time_ms(work, runs, warmup):
    """Median, min and max milliseconds of `runs` timed runs of work() after `warmup` untimed ones."""
    for _ in range(warmup):
        work()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times), min(times), max(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=25, help="timed runs per case (at least 20)")
    parser.add_argument("--log2-items", type=int, default=28, help="input size as a power of two")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--filter", default="", help="time only the cases whose name contains this text")
    args = parser.parse_args()
    if args.repeats < 20:
        parser.error("--repeats must be at least 20")
    if not torch.cuda.is_available():
        print("torch_select_bench: torch sees no CUDA device; nothing to measure")
        return 0

    n = 1 << args.log2_items
    torch.manual_seed(0)
    x = torch.rand(n, device="cuda", dtype=torch.float32)
    rows = []

    def add(case, op, work, runs=args.repeats, warmup=3, note=""):
        if args.filter not in case:
            return
        median, low, high = time_ms(work, runs, warmup)
        rows.append({"case": case, "op": op, "ms": median, "min_ms": low, "max_ms": high, "runs": runs,
                     "spread": (high - low) / median if median > 0 else 0.0, "note": note})
        print(f"{case:<34} {op:<58} {median:9.3f} ms  ({runs} runs){'  ' + note if note else ''}", flush=True)

    for k in TOP_K_SIZES:
        if k > n:
            continue
        for sorted_ in (False, True):
            add(f"top_k k={k} {'sorted' if sorted_ else 'unsorted'}",
                f"torch.topk(x, {k}, largest=True, sorted={sorted_})",
                lambda k=k, s=sorted_: torch.topk(x, k, largest=True, sorted=s))

    # kthvalue is 1-based: rank n/2 (0-based, select_bench's median) is the (n/2 + 1)-th smallest.
    add("select_kth median", f"torch.kthvalue(x, {n // 2 + 1})", lambda: torch.kthvalue(x, n // 2 + 1),
        runs=KTHVALUE_RUNS, warmup=1, note=f"only {KTHVALUE_RUNS} timed runs (about 2 s each)")

    for cols in BATCHED_COLS:
        if cols > n:
            continue
        batch = x[: (n // cols) * cols].view(n // cols, cols)
        for k in BATCHED_K:
            add(f"top_k_batched {n // cols}x{cols} k={k}",
                f"torch.topk(x.view({n // cols}, {cols}), {k}, dim=1, sorted=False)",
                lambda b=batch, k=k: torch.topk(b, k, dim=1, largest=True, sorted=False))

    if args.json:
        doc = {"benchmark": f"torch selection f32, n = 2^{args.log2_items}",
               "device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
               "elements": n, "repeats": args.repeats, "rows": rows}
        tmp = args.json + ".tmp"
        with open(tmp, "w") as out:
            json.dump(doc, out, indent=2)
            out.write("\n")
        os.replace(tmp, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
