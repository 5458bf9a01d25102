#!/usr/bin/env python3
"""The obvious PyTorch Högbom CLEAN on the GPU, for comparison with bench/clean_bench.cu.

Per iteration: argmax of |R| over the image, flux = gain * R[p], subtract flux times the PSF
window shifted to p (R[q] -= flux * psf[q - p + centre]). Three variants: "slice" reads the peak's
position to the host (.item(), one sync per iteration) and subtracts flux times a slice of the PSF
(one temporary); "inplace" reads the peak's value too and subtracts the slice in place,
residual.sub_(window, alpha=flux) (one kernel, no temporary: the strongest eager loop); "gather"
keeps the index on the device and gathers the window with index_select (no sync, more bytes). The
ratio against our GPU Högbom is taken against the fastest of them.
The input is a synthetic sky of the
same size as clean_bench's (point sources and noise convolved with a Gaussian-plus-ripple PSF twice
the image's size, made by torch on the device: the data's shape matters, not its exact bits).
Times --iterations iterations (default 10^3) with CUDA events after a short warm-up, and reports
ms per iteration and the 10^4-iteration time extrapolated from it.

Usage: scripts/torch_hogbom_bench.py [--log2-side 12] [--iterations 1000] [--json FILE]
"""
import argparse
import json
import os
import sys


def make_sky(torch, side, device):
    """dirty (side x side) and psf (2 side x 2 side, peak 1 at (side, side)), float32 on `device`."""
    g = torch.Generator(device="cpu").manual_seed(1)
    psf_side = 2 * side
    y = torch.arange(psf_side, dtype=torch.float32, device=device) - side
    yy, xx = torch.meshgrid(y, y, indexing="ij")
    r2 = xx * xx + yy * yy
    psf = torch.exp(-r2 / (2 * 2.0 ** 2)) + 0.1 * torch.cos(0.3 * xx + 0.2 * yy) * torch.exp(-r2 / (2 * (side / 8) ** 2))
    psf = psf / psf[side, side]
    sky = torch.zeros(side, side, dtype=torch.float32)
    count = max(8, 3000 * side * side // (4096 * 4096))
    xs = torch.randint(16, side - 16, (count,), generator=g)
    ys = torch.randint(16, side - 16, (count,), generator=g)
    sky[ys, xs] = torch.rand(count, generator=g) * 5
    sky = sky.to(device)
    # dirty = sky convolved with the PSF (CLEAN's convention), by zero-padded FFTs.
    n = 4 * side
    f_sky = torch.fft.rfft2(sky, s=(n, n))
    f_psf = torch.fft.rfft2(torch.roll(torch.nn.functional.pad(psf, (0, n - psf_side, 0, n - psf_side)),
                                       shifts=(-side, -side), dims=(0, 1)))
    dirty = torch.fft.irfft2(f_sky * f_psf, s=(n, n))[:side, :side].contiguous()
    dirty += 0.01 * torch.randn(side, side, generator=g).to(device)
    return dirty, psf


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2-side", type=int, default=12, help="image side as a power of two (12: 4096)")
    parser.add_argument("--iterations", type=int, default=1000, help="timed iterations")
    parser.add_argument("--gain", type=float, default=0.1)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("torch_hogbom_bench: PyTorch is not installed; nothing to measure")
        return 0
    if not torch.cuda.is_available():
        print("torch_hogbom_bench: torch sees no CUDA device; nothing to measure")
        return 0

    device = torch.device("cuda")
    side = 1 << args.log2_side
    dirty, psf = make_sky(torch, side, device)
    gain = torch.tensor(args.gain, dtype=torch.float32, device=device)
    offsets = torch.arange(side, device=device)

    def iterate_slice(residual, count):
        for _ in range(count):
            p = int(torch.argmax(residual.abs()).item())
            py, px = divmod(p, side)
            flux = args.gain * residual[py, px]
            residual.sub_(flux * psf[side - py:2 * side - py, side - px:2 * side - px])

    def iterate_inplace(residual, count):
        for _ in range(count):
            p = int(torch.argmax(residual.abs()).item())
            py, px = divmod(p, side)
            flux = args.gain * float(residual[py, px].item())
            residual.sub_(psf[side - py:2 * side - py, side - px:2 * side - px], alpha=flux)

    def iterate_gather(residual, count):
        for _ in range(count):
            p = torch.argmax(residual.abs())
            py, px = p // side, p % side
            flux = gain * residual.view(-1)[p]
            window = psf.index_select(0, side - py + offsets).index_select(1, side - px + offsets)
            residual.sub_(flux * window)

    name = torch.cuda.get_device_name()
    results = []
    for variant, iterate in (("slice", iterate_slice), ("inplace", iterate_inplace), ("gather", iterate_gather)):
        residual = dirty.clone()
        iterate(residual, 10)  # warm-up
        torch.cuda.synchronize()
        residual = dirty.clone()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        iterate(residual, args.iterations)
        stop.record()
        stop.synchronize()
        ms = start.elapsed_time(stop)
        per_iteration = ms / args.iterations
        print(f"torch hogbom {variant:<7} {side}^2 psf {2 * side}^2 on {name}: {args.iterations} iterations in "
              f"{ms:.1f} ms, {per_iteration:.3f} ms/iteration, 1e4 iterations extrapolated "
              f"{per_iteration * 10:.2f} s", flush=True)
        results.append({"variant": variant, "ms": ms, "ms_per_iteration": per_iteration,
                        "extrapolated_1e4_s": per_iteration * 10})
    fastest = min(results, key=lambda row: row["ms_per_iteration"])
    print(f"torch hogbom fastest: {fastest['variant']}, {fastest['ms_per_iteration']:.3f} ms/iteration", flush=True)
    if args.json:
        doc = {"benchmark": "torch hogbom", "fastest": fastest["variant"], "device": name, "side": side, "psf_side": 2 * side,
               "iterations": args.iterations, "gain": args.gain, "torch": torch.__version__, "rows": results}
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        os.replace(tmp, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
