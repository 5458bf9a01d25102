#!/usr/bin/env python3
"""Writes data/histogram-numpy-cases.txt: inputs and numpy.histogram's answers for them, so that the
tests (which run without NumPy) can compare bkt's histograms and bkt-histogram with NumPy itself.

    pip install numpy && python3 scripts/histogram_numpy_fixture.py [OUTPUT]

Each case's data is a bulk part, drawn by a 64-bit LCG that the C++ side reproduces exactly
(tests/support/numpy_cases.hpp), and a probe part written out: every bin edge and its neighbours
one ulp either way (the values that decide whether bins agree), and special values. The file keeps
numpy.histogram's edges (as float.hex) and counts. Format, one item per line:

    case NAME
    dtype f32|f64|f16|i8|u8|i16|u16|i32|u32
    bins N                     even bins; or
    edges E0 E1 ...            explicit edges (float.hex), numpy.histogram(a, bins=edges)
    range LO HI                the range as given to NumPy (Python literals); or 'range auto'
    bulk COUNT SEED KIND A B   KIND normal: (u1 + u2 + u3 + u4 - 2^25) * A, B unused
                               KIND uniform: A + u * B (floats), A + (u1 * 2^24 + u2) % B (integers)
                               (f16 data has no bulk part: its values are all probes)
    probes V1 V2 ...           float.hex, 'nan', 'inf', '-inf', or integers
    numpy_edges E0 ...         numpy.histogram's second result
    counts C0 ...              its first result
    end
"""
import sys

import numpy as np

MULTIPLIER = 6364136223846793005
INCREMENT = 1442695040888963407
MASK = (1 << 64) - 1
NORMAL_SCALE = float.fromhex("0x1.bb67ae8584caap-24")  # sqrt(3) / 2^24: unit variance

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
          "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32}


def lcg_24_bits(seed, count):
    """count 24-bit integers: the top bits of a 64-bit LCG (Knuth's MMIX constants)."""
    state = seed & MASK
    out = []
    for _ in range(count):
        state = (state * MULTIPLIER + INCREMENT) & MASK
        out.append(state >> 40)
    return out


def bulk(dtype, count, seed, kind, a, b):
    integer = np.issubdtype(DTYPES[dtype], np.integer)
    bits = lcg_24_bits(seed, (4 if kind == "normal" else 2 if integer else 1) * count)
    if kind == "normal":
        values = [float(sum(bits[4 * k:4 * k + 4]) - (1 << 25)) * a for k in range(count)]
        return np.array(values, dtype=np.float64).astype(DTYPES[dtype])
    if integer:  # 48 random bits each
        return np.array([int(a) + ((bits[2 * k] << 24) + bits[2 * k + 1]) % int(b) for k in range(count)],
                        dtype=DTYPES[dtype])
    return np.array([a + float(u) * b for u in bits], dtype=np.float64).astype(DTYPES[dtype])


def neighbours(values, dtype):
    """Each value rounded to dtype and its neighbours one ulp (one unit for integers) either way."""
    t = DTYPES[dtype]
    out = []
    if np.issubdtype(t, np.integer):
        info = np.iinfo(t)
        for v in values:
            for k in (np.floor(v) - 1, np.floor(v), np.floor(v) + 1, np.ceil(v) + 1):
                if info.min <= k <= info.max:
                    out.append(int(k))
        return np.array(out, dtype=t)
    for v in values:
        x = t(v)
        out += [x, np.nextafter(x, t(-np.inf)), np.nextafter(x, t(np.inf))]
    return np.array(out, dtype=t)


def hex_text(value):
    """float.hex without the trailing zeros of the fraction: 0x1.8p+1, not 0x1.8000000000000p+1."""
    if np.isnan(value):
        return "nan"
    if np.isinf(value):
        return "inf" if value > 0 else "-inf"
    mantissa, exponent = float(value).hex().split("p")
    return mantissa.rstrip("0").rstrip(".") + "p" + exponent


def text(values, dtype):
    if np.issubdtype(DTYPES[dtype], np.integer):
        return " ".join(str(int(v)) for v in values)
    return " ".join(hex_text(v) for v in values)


def specials(dtype):
    t = DTYPES[dtype]
    if np.issubdtype(t, np.integer):
        info = np.iinfo(t)
        return np.array([info.min, info.max, 0], dtype=t)
    info = np.finfo(t)
    return np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, info.tiny, -info.smallest_subnormal, info.max],
                    dtype=t)


def case(out, name, dtype, bins, histogram_range, bulk_spec, extra_probes=()):
    data = bulk(dtype, *bulk_spec)
    auto = histogram_range is None
    if isinstance(bins, int):
        edges = np.histogram_bin_edges(data, bins, range=histogram_range)
    else:
        edges = np.asarray(bins, dtype=np.float64)
    probes = neighbours(edges, dtype)
    if histogram_range is not None:
        probes = np.concatenate([probes, neighbours(np.array(histogram_range, dtype=np.float64), dtype)])
    if not auto:  # NumPy refuses NaN and infinities when it takes the range from the data
        probes = np.concatenate([probes, specials(dtype)])
    else:  # and probes beyond the data would move its range
        probes = probes[(probes >= data.min()) & (probes <= data.max())]
    probes = np.concatenate([probes, np.array(extra_probes, dtype=DTYPES[dtype])])
    if dtype == "f16":  # no C++ rounding to half to rely on: write every value out
        probes = np.concatenate([data, probes])
        data = data[:0]
        bulk_spec = (0,) + tuple(bulk_spec[1:])
    every = np.concatenate([data, probes])
    counts, numpy_edges = np.histogram(every, bins, range=histogram_range)
    if auto:
        assert numpy_edges.dtype == edges.dtype and np.array_equal(numpy_edges, edges)
    out.write(f"case {name}\ndtype {dtype}\n")
    if isinstance(bins, int):
        out.write(f"bins {bins}\n")
    else:
        out.write(f"edges {text(edges, 'f64')}\n")
    out.write("range auto\n" if auto else f"range {histogram_range[0]!r} {histogram_range[1]!r}\n")
    count, seed, kind, a, b = bulk_spec
    out.write(f"bulk {count} {seed} {kind} {hex_text(a)} {hex_text(b)}\n")
    out.write(f"probes {text(probes, dtype)}\n")
    out.write(f"numpy_edges {text(numpy_edges.astype(np.float64), 'f64')}\n")
    out.write("counts " + " ".join(str(int(c)) for c in counts) + "\nend\n")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "data/histogram-numpy-cases.txt"
    normal = (1 << 14, 1, "normal", NORMAL_SCALE, 0.0)
    with open(path, "w") as out:
        out.write(f"# numpy.histogram cases, written by scripts/histogram_numpy_fixture.py with NumPy "
                  f"{np.__version__}; see that script for the format.\n")
        # The case: normal f32, 100 bins over [-3, 3] (Python ints: linspace in double).
        case(out, "f32_normal_100_bins_range", "f32", 100, (-3, 3), normal)
        # No range: NumPy takes a.min() and a.max() as float32, so linspace runs in float32.
        case(out, "f32_normal_100_bins_auto", "f32", 100, None, normal)
        case(out, "f32_normal_500_bins_auto", "f32", 500, None, (1 << 14, 2, "normal", NORMAL_SCALE, 0.0))
        case(out, "f32_unit_7_bins", "f32", 7, (0, 1), (4096, 3, "uniform", -0.25, 1.5 / (1 << 24)))
        case(out, "f32_tiny_to_one_3_bins", "f32", 3, (1e-30, 1.0), (4096, 4, "uniform", 0.0, 1.0 / (1 << 24)))
        case(out, "f32_inexact_bounds_13_bins", "f32", 13, (0.1, 0.7), (4096, 5, "uniform", 0.0, 1.0 / (1 << 24)))
        case(out, "f32_1024_bins_range", "f32", 1024, (-3, 3), (1 << 14, 6, "normal", NORMAL_SCALE, 0.0))
        case(out, "f64_normal_100_bins_range", "f64", 100, (-3.0, 3.0), normal)
        case(out, "f64_normal_500_bins_auto", "f64", 500, None, (1 << 14, 7, "normal", NORMAL_SCALE, 0.0))
        case(out, "f64_inexact_bounds_13_bins", "f64", 13, (0.1, 0.7), (4096, 8, "uniform", 0.0, 1.0 / (1 << 24)))
        case(out, "f16_normal_100_bins_range", "f16", 100, (-3, 3), (2048, 9, "normal", NORMAL_SCALE, 0.0))
        case(out, "f16_normal_30_bins_auto", "f16", 30, None, (2048, 10, "normal", NORMAL_SCALE, 0.0))
        case(out, "i32_3_bins_0_to_10", "i32", 3, (0, 10), (4096, 11, "uniform", -2, 15))
        # Edge 25 of linspace(0, 14, 51) is 7.000000000000001: NumPy puts 7 in bin 24.
        case(out, "i32_50_bins_0_to_14", "i32", 50, (0, 14), (4096, 12, "uniform", -1, 17))
        case(out, "i16_7_bins_auto", "i16", 7, None, (4096, 13, "uniform", -30000, 60001))
        case(out, "u8_256_bins_0_to_256", "u8", 256, (0, 256), (4096, 14, "uniform", 0, 256))
        case(out, "i8_100_bins_auto", "i8", 100, None, (4096, 15, "uniform", -128, 256))
        case(out, "u32_300_bins_range", "u32", 300, (0, 4000000000), (4096, 16, "uniform", 0, 4294967295))
        case(out, "i32_97_bins_wide_range", "i32", 97, (-2147483648, 2147483647),
             (4096, 17, "uniform", -2147483648, 4294967295))
        # Explicit edges: log-spaced (not exact in f32), duplicates, and fractional edges for integers.
        log_edges = list(np.geomspace(1e-3, 1e3, 41))
        case(out, "f32_log_edges", "f32", log_edges, None, (4096, 18, "uniform", 0.0, 1100.0 / (1 << 24)))
        case(out, "f64_log_edges", "f64", log_edges, None, (4096, 19, "uniform", 0.0, 1100.0 / (1 << 24)))
        case(out, "f64_duplicate_edges", "f64", [0.0, 1.0, 1.0, 2.0, 5.0, 5.0], None,
             (4096, 20, "uniform", -1.0, 7.0 / (1 << 24)))
        case(out, "i32_fractional_edges", "i32", [0.0, 2.5, 7.0, 10.0], None, (4096, 21, "uniform", -3, 16))
    print("wrote", path)


if __name__ == "__main__":
    main()
