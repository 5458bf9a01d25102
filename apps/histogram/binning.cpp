#include "binning.hpp"

#include <cmath>
#include <limits>

#include "bkt/histogram.hpp"
#include "bkt_apps/app_error.hpp"
#include "number_format.hpp"

namespace bkt::apps::histogram {
namespace {

/// Where the bounds or edges came from, for error messages: "--range 5:1" (a usage error) or a
/// file name (bad data).
struct origin {
  std::string name;
  int code;
};

[[noreturn]] void fail(const origin& from, const std::string& problem) {
  throw app_error(from.name + ": " + problem, from.code);
}

bool is_small_integer_type(dtype type) {
  return !dtype_is_float(type) && dtype_size(type) <= 4;
}

/// The smallest and largest value of a 8- to 32-bit integer dtype.
std::pair<double, double> integer_limits(dtype type) {
  return visit_dtype(type, []<class T>(std::type_identity<T>) {
    return std::pair<double, double>(static_cast<double>(std::numeric_limits<T>::lowest()),
                                     static_cast<double>(std::numeric_limits<T>::max()));
  });
}

/// The next value of the data above `value`: what makes the data's maximum fall inside [lo, hi).
/// For integer data that is value + 1 (even when the bins are computed in f64, as for --log), else
/// the next float or double.
double next_above(double value, dtype data, dtype binned_as) {
  if (!dtype_is_float(data) && value + 1.0 > value) return value + 1.0;
  if (binned_as == dtype::f32) return std::nextafter(static_cast<float>(value), std::numeric_limits<float>::infinity());
  return std::nextafter(value, std::numeric_limits<double>::infinity());
}

/// Checks even bounds in the binned type T: finite, lo < hi, a finite hi - lo, and a finite scale
/// bins / (hi - lo) (else the library's (x - lo) * scale would overflow).
template <class T>
void check_float_range(const origin& from, std::int64_t bins, double lo, double hi) {
  const T narrow_lo = static_cast<T>(lo), narrow_hi = static_cast<T>(hi);
  const char* type = sizeof(T) == 4 ? "f32" : "f64";
  if (!std::isfinite(narrow_lo) || !std::isfinite(narrow_hi)) fail(from, std::string("bounds beyond the range of ") + type);
  if (!(narrow_lo < narrow_hi)) fail(from, std::string("LO and HI are equal once rounded to ") + type);
  if (!std::isfinite(narrow_hi - narrow_lo)) fail(from, std::string("HI - LO overflows ") + type + "; give a narrower --range");
  const T scale = static_cast<T>(static_cast<double>(bins) / (static_cast<double>(narrow_hi) - static_cast<double>(narrow_lo)));
  if (!std::isfinite(scale)) fail(from, std::to_string(bins) + " bins are narrower than " + type + " can resolve");
}

bin_plan plan_even_from(const origin& from, dtype data, std::int64_t bins, double lo, double hi) {
  check_bin_count(bins);
  if (!std::isfinite(lo) || !std::isfinite(hi)) fail(from, "LO and HI must be finite");
  if (!(lo < hi)) fail(from, "LO must be below HI");
  bin_plan plan;
  plan.kind = binning_kind::even;
  plan.bins = bins;
  const bool integral = lo == std::floor(lo) && hi == std::floor(hi);
  const double integer_bound = static_cast<double>(std::int64_t{1} << 40);  // the library's limit
  // bkt::even_bins computes (x - lo) * bins in 64 bits; near the +-2^40 bounds with many bins that
  // product can pass 2^64 and wrap, so such ranges bin in f64 instead.
  const bool product_fits = integral && lo >= -integer_bound && hi <= integer_bound &&
                            static_cast<std::uint64_t>(hi - lo) <= ~std::uint64_t{0} / static_cast<std::uint64_t>(bins);
  if (is_small_integer_type(data) && product_fits) {
    plan.binned_as = data;
  } else if (data == dtype::f32) {
    check_float_range<float>(from, bins, lo, hi);
    plan.binned_as = dtype::f32;
    lo = static_cast<float>(lo);
    hi = static_cast<float>(hi);
  } else {
    check_float_range<double>(from, bins, lo, hi);
    plan.binned_as = dtype::f64;
  }
  plan.lo = lo;
  plan.hi = hi;
  plan.edges = even_edges(lo, hi, bins);
  return plan;
}

bin_plan plan_edges_from(const origin& from, dtype data, std::vector<double> edges, binning_kind kind) {
  if (edges.size() < 2) fail(from, "needs at least 2 edges, found " + std::to_string(edges.size()));
  if (static_cast<std::int64_t>(edges.size()) - 1 > bkt::histogram_max_bins)
    fail(from, std::to_string(edges.size() - 1) + " bins, more than the 2^24 the library bins");
  for (std::size_t index = 0; index < edges.size(); ++index) {
    const std::string position = "edge " + std::to_string(index + 1);
    if (std::isnan(edges[index])) fail(from, position + " is NaN");
    if (!std::isfinite(edges[index])) fail(from, position + " is infinite");
    if (index > 0 && !(edges[index - 1] < edges[index]))
      fail(from, "edges must be strictly ascending: " + position + " (" + format_double(edges[index]) +
                     ") is not above edge " + std::to_string(index) + " (" + format_double(edges[index - 1]) + ")");
  }
  bin_plan plan;
  plan.kind = kind;
  plan.bins = static_cast<std::int64_t>(edges.size()) - 1;
  plan.binned_as = dtype::f64;
  if (data == dtype::f32) {
    // f32 data is binned against f32 edges: each edge rounds to the nearest float, and rounding must
    // not merge two edges (a bin that could hold nothing is almost certainly a mistake).
    plan.binned_as = dtype::f32;
    for (std::size_t index = 0; index < edges.size(); ++index) {
      const float rounded = static_cast<float>(edges[index]);
      if (!std::isfinite(rounded)) fail(from, "edge " + std::to_string(index + 1) + " is beyond the range of f32");
      edges[index] = rounded;
      if (index > 0 && !(edges[index - 1] < edges[index]))
        fail(from, "edges " + std::to_string(index) + " and " + std::to_string(index + 1) +
                       " are equal once rounded to f32");
    }
  } else if (is_small_integer_type(data)) {
    // Integer data keeps its type only when every edge is one of its values; else compare in f64
    // (exact for every 32-bit integer).
    const auto [lowest, highest] = integer_limits(data);
    bool exact = true;
    for (double edge : edges) exact = exact && edge == std::floor(edge) && edge >= lowest && edge <= highest;
    if (exact) plan.binned_as = data;
  }
  plan.edges = std::move(edges);
  plan.lo = plan.edges.front();
  plan.hi = plan.edges.back();
  return plan;
}

origin range_origin(double lo, double hi, const char* option) {
  return {std::string(option) + " " + format_double(lo) + ":" + format_double(hi), exit_usage};
}

/// The type even or log bins of `data` are computed in when the bounds come from the data itself.
dtype extent_type(dtype data) {
  if (data == dtype::f32 || is_small_integer_type(data)) return data;
  return dtype::f64;
}

}  // namespace

void check_bin_count(std::int64_t bins) {
  if (bins < 1 || bins > bkt::histogram_max_bins)
    throw usage_error("--bins " + std::to_string(bins) + ": must be between 1 and 16777216 (2^24)");
}

std::vector<double> even_edges(double lo, double hi, std::int64_t bins) {
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1);
  for (std::int64_t index = 0; index < bins; ++index)
    edges[static_cast<std::size_t>(index)] = lo + static_cast<double>(index) * (hi - lo) / static_cast<double>(bins);
  edges.back() = hi;
  return edges;
}

std::vector<double> log_edges(double lo, double hi, std::int64_t bins) {
  const double first = std::log10(lo), last = std::log10(hi);
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1);
  edges.front() = lo;
  for (std::int64_t index = 1; index < bins; ++index)
    edges[static_cast<std::size_t>(index)] =
        std::pow(10.0, first + static_cast<double>(index) * (last - first) / static_cast<double>(bins));
  edges.back() = hi;
  return edges;
}

void check_range(double lo, double hi, bool log) {
  const origin from = range_origin(lo, hi, "--range");
  if (!std::isfinite(lo) || !std::isfinite(hi)) fail(from, "LO and HI must be finite");
  if (log && !(lo > 0.0)) fail(from, "--log needs LO > 0");
  if (!(lo < hi)) fail(from, "LO must be below HI");
}

bin_plan plan_even(dtype data, std::int64_t bins, double lo, double hi) {
  check_range(lo, hi, false);
  return plan_even_from(range_origin(lo, hi, "--range"), data, bins, lo, hi);
}

bin_plan plan_even_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input) {
  if (extent.finite == 0) throw app_error(input + ": no finite values to take the range from; give --range LO:HI");
  const dtype binned_as = extent_type(data);
  double lo = extent.min, hi = next_above(extent.max, data, binned_as);
  if (extent.min == extent.max && dtype_is_float(data)) {
    // One distinct value: centre it in a bin of width 1 (as NumPy does), unless the value is so
    // large that +-0.5 vanishes in rounding; then [v, next value).
    const double below = binned_as == dtype::f32 ? static_cast<float>(extent.min - 0.5) : extent.min - 0.5;
    const double above = binned_as == dtype::f32 ? static_cast<float>(extent.max + 0.5) : extent.max + 0.5;
    if (below < extent.min && above > extent.max) lo = below, hi = above;
  }
  const origin from{input + ": the data's range [" + format_double(extent.min) + ", " + format_double(extent.max) + "]",
                    exit_bad_input};
  if (!std::isfinite(hi)) fail(from, "the maximum is the largest finite value of its type; give --range LO:HI");
  return plan_even_from(from, data, bins, lo, hi);
}

bin_plan plan_log(dtype data, std::int64_t bins, double lo, double hi) {
  check_bin_count(bins);
  check_range(lo, hi, true);
  return plan_edges_from(range_origin(lo, hi, "--range"), data, log_edges(lo, hi, bins), binning_kind::log);
}

bin_plan plan_log_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input) {
  check_bin_count(bins);
  if (!extent.min_positive) throw app_error(input + ": no positive values to take a log range from; give --range LO:HI");
  const dtype binned_as = data == dtype::f32 ? dtype::f32 : dtype::f64;
  double lo = *extent.min_positive, hi = next_above(extent.max, data, binned_as);
  if (lo == extent.max) lo = extent.max / std::sqrt(10.0), hi = extent.max * std::sqrt(10.0);  // one decade around it
  const origin from{input + ": the data's positive range [" + format_double(lo) + ", " + format_double(extent.max) + "]",
                    exit_bad_input};
  if (!std::isfinite(hi)) fail(from, "the maximum is the largest finite value of its type; give --range LO:HI");
  return plan_edges_from(from, data, log_edges(lo, hi, bins), binning_kind::log);
}

bin_plan plan_edges(dtype data, std::vector<double> edges, const std::string& file) {
  return plan_edges_from(origin{file, exit_bad_input}, data, std::move(edges), binning_kind::edges);
}

}  // namespace bkt::apps::histogram
