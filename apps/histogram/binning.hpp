// Which bins a run uses, and the type it computes them in. The library bins int8..int32, uint8..
// uint32, float and double; this file decides, from the data's dtype and the command line, the
// exact bounds or edges the library gets and the type the data is handed over in:
//  - even bins (--bins, --range): in the data's own type. Integer data with integer bounds is binned
//    exactly by the library's integer rule; fractional bounds, bounds beyond +-2^40, ranges so wide
//    that (hi - lo) * bins passes 2^64, and 64-bit integers bin in f64.
//  - edges (--edges, --log): in the data's type when every edge is exactly a value of it (f32
//    data: edges rounded to f32, which must stay strictly ascending), else in f64.
//  - 64-bit integer data always bins in f64, each value checked to be exact (|x| <= 2^53).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bkt_apps/dtype.hpp"
#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// The bins of one run, ready for the library.
struct bin_plan {
  binning_kind kind = binning_kind::even;
  std::int64_t bins = 1;
  dtype binned_as = dtype::f64;  // the type the data is binned in: the data's own, or f64
  double lo = 0.0, hi = 1.0;     // even bins: [lo, hi), exact values of binned_as (integers for integer types)
  std::vector<double> edges;     // bins + 1 ascending, exact values of binned_as; nominal for even bins
};

/// The finite values of the data seen so far: what --range takes when it is not given.
struct data_extent {
  std::int64_t finite = 0;  // finite values seen
  double min = 0.0, max = 0.0;
  std::optional<double> min_positive;  // for --log
};

/// N even bins over [lo, hi). Throws a usage error when lo >= hi, hi - lo is not finite in the
/// binned type, or the bins are narrower than the type can resolve.
bin_plan plan_even(dtype data, std::int64_t bins, double lo, double hi);

/// N even bins from the data's finite extent: [min, max] with the upper end nudged to the next value
/// of the data's type so that the max lands in the last bin (max + 1 for integers, the next float or
/// double otherwise); one distinct float value v gets [v - 0.5, v + 0.5). Throws when there is no
/// finite value.
bin_plan plan_even_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input);

/// N bins evenly spaced in log10 over [lo, hi); lo > 0. Values <= 0 fall below the first bin.
bin_plan plan_log(dtype data, std::int64_t bins, double lo, double hi);

/// Log bins from the extent: [smallest positive value, max] nudged like plan_even_from_extent.
bin_plan plan_log_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input);

/// Bins between edges read from `file` (checked: at least 2, finite, strictly ascending, at most
/// 2^24 bins; errors name the file and the edge's 1-based position).
bin_plan plan_edges(dtype data, std::vector<double> edges, const std::string& file);

/// Nominal edges of even bins: lo + i * (hi - lo) / bins, the last exactly hi.
std::vector<double> even_edges(double lo, double hi, std::int64_t bins);

/// Edges spaced evenly in log10: the first exactly lo, the last exactly hi.
std::vector<double> log_edges(double lo, double hi, std::int64_t bins);

/// Checks --range LO:HI before any input is read: finite, LO < HI, and LO > 0 for --log (usage
/// errors naming the option).
void check_range(double lo, double hi, bool log);

/// Checks a --bins value against the library's range, 1 to 2^24 (usage error otherwise).
void check_bin_count(std::int64_t bins);

}  // namespace bkt::apps::histogram
