// Which bins a run uses, and the type it computes them in, following numpy.histogram for the same
// data type. The library bins int8..int32, uint8..uint32, float and double; this file decides,
// from the data's dtype and the command line, what the library gets and what the tool prints:
//  - even bins (--bins, --range): the library's histogram_even, whose edges are NumPy's
//    numpy.linspace edges and are printed as they are. --range LO:HI acts as NumPy's Python-float
//    range (f32 data: edges computed in double, rounded to f32); without --range the bounds are
//    the data's finite min and max in its own type, as NumPy's a.min() and a.max() (f32 data:
//    edges computed in f32). Integer data with integer bounds bins in its own type; fractional
//    bounds, bounds beyond +-2^40 or (hi - lo) * bins past 2^64, and 64-bit integers bin in f64.
//    f16 data bins in f64 between the float16 edges NumPy would compute (half_edges.hpp).
//  - edges (--edges, --log): the library's histogram_range. f32 data is compared with the f64
//    edges exactly by rounding each lower edge up and the last edge down to f32 (x >= e exactly
//    when x >= e rounded up, for any float x); integer data keeps its type for integer edges;
//    everything else bins in f64.
//  - 64-bit integer data always bins in f64, each value checked to be exact (|x| <= 2^53).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bkt/histogram_bins.hpp"
#include "bkt_apps/dtype.hpp"
#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// The bins of one run, ready for the library.
struct bin_plan {
  binning_kind kind = binning_kind::even;  // what was asked for (--bins, --log, --edges)
  std::int64_t bins = 1;
  dtype binned_as = dtype::f64;  // the type the data is binned in: the data's own, or f64
  bool library_even = true;      // histogram_even over [lo, hi]; else histogram_range on library_edges
  double lo = 0.0, hi = 1.0;     // even: the bounds the library gets (integers for integer types)
  bkt::edge_precision precision = bkt::edge_precision::f64;
  std::vector<double> edges;          // bins + 1: the edges as NumPy reports them (printed)
  std::vector<double> library_edges;  // range bins: values of binned_as the library compares with
};

/// The finite values of the data seen so far: what --range takes when it is not given.
struct data_extent {
  std::int64_t finite = 0;  // finite values seen
  double min = 0.0, max = 0.0;
  std::optional<double> min_positive;  // for --log
};

/// N even bins over [lo, hi] given on the command line. Throws a usage error when lo >= hi, either
/// is not finite, or the bins are narrower than the binned type resolves (NumPy's "Too many bins").
bin_plan plan_even(dtype data, std::int64_t bins, double lo, double hi);

/// N even bins over the data's finite [min, max] (the max lands in the closed last bin); one
/// distinct value v gets [v - 0.5, v + 0.5] as in NumPy, or [v, the next value] where that rounds
/// back to v. Throws when there is no finite value.
bin_plan plan_even_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input);

/// N bins evenly spaced in log10 over [lo, hi]; lo > 0. Values <= 0 fall below the first bin.
bin_plan plan_log(dtype data, std::int64_t bins, double lo, double hi);

/// Log bins from the extent: [smallest positive value, max].
bin_plan plan_log_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input);

/// Bins between edges read from `file` (checked: at least 2, finite, ascending, at most 2^24 bins;
/// errors name the file and the edge's 1-based position). Equal edges make empty bins, as in NumPy.
bin_plan plan_edges(dtype data, std::vector<double> edges, const std::string& file);

/// Edges spaced evenly in log10: the first exactly lo, the last exactly hi.
std::vector<double> log_edges(double lo, double hi, std::int64_t bins);

/// Checks --range LO:HI before any input is read: finite, LO < HI, and LO > 0 for --log (usage
/// errors naming the option).
void check_range(double lo, double hi, bool log);

/// Checks a --bins value against the library's range, 1 to 2^24 (usage error otherwise).
void check_bin_count(std::int64_t bins);

}  // namespace bkt::apps::histogram
