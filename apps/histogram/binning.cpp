#include "binning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "bkt/histogram.hpp"
#include "bkt_apps/app_error.hpp"
#include "half_edges.hpp"
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

/// The next value of the data's type above `value` (integers: value + 1 where f64 still tells).
double next_value_above(dtype data, double value) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  if (data == dtype::f32) return std::nextafter(static_cast<float>(value), std::numeric_limits<float>::infinity());
  if (data == dtype::f16) {
    double step = 0x1p-24;  // half's smallest subnormal; doubled until the sum rounds past value
    while (round_to_half(value + step) <= value) step *= 2;
    return round_to_half(value + step);
  }
  if (!dtype_is_float(data) && value + 1.0 > value) return value + 1.0;
  return std::nextafter(value, infinity);
}

/// The even bins' edges as the library computes them, in the binned type T, as doubles.
template <class T>
std::vector<double> library_even_edges(const bin_plan& plan) {
  const auto bins = bkt::even_bins<T>::make(static_cast<bkt::histogram_level<T>>(plan.lo),
                                            static_cast<bkt::histogram_level<T>>(plan.hi), static_cast<int>(plan.bins),
                                            plan.precision);
  std::vector<double> edges(static_cast<std::size_t>(plan.bins) + 1);
  for (std::int64_t index = 0; index <= plan.bins; ++index)
    edges[static_cast<std::size_t>(index)] = static_cast<double>(bins.edge(static_cast<int>(index)));
  return edges;
}

/// NumPy refuses bins whose edges repeat ("Too many bins for data range"); so does the tool.
void check_edges_ascend(const origin& from, const bin_plan& plan) {
  for (std::size_t index = 0; index + 1 < plan.edges.size(); ++index)
    if (!(plan.edges[index] < plan.edges[index + 1]))
      fail(from, std::to_string(plan.bins) + " bins are narrower than " + std::string(dtype_name(plan.binned_as)) +
                     " resolves here: edges " + std::to_string(index + 1) + " and " + std::to_string(index + 2) +
                     " are both " + format_edge(plan.edges[index], plan.binned_as == dtype::f32));
}

/// Checks even bounds in the binned float type T: finite once rounded to T, apart, and a finite
/// width there (the library computes x - lo in T).
template <class T>
void check_float_range(const origin& from, double lo, double hi) {
  const T narrow_lo = static_cast<T>(lo), narrow_hi = static_cast<T>(hi);
  const char* type = sizeof(T) == 4 ? "f32" : "f64";
  if (!std::isfinite(narrow_lo) || !std::isfinite(narrow_hi)) fail(from, std::string("bounds beyond the range of ") + type);
  if (!(narrow_lo < narrow_hi)) fail(from, std::string("LO and HI are equal once rounded to ") + type);
  if (!std::isfinite(narrow_hi - narrow_lo)) fail(from, std::string("HI - LO overflows ") + type + "; give a narrower --range");
}

/// Even bins over [lo, hi], bounds as NumPy would get them: `precision` says whether f32 data's
/// edges are computed in double (a range given as Python numbers) or in f32 (bounds of the data's
/// own type, as when NumPy takes them from the data).
bin_plan plan_even_from(const origin& from, dtype data, std::int64_t bins, double lo, double hi,
                        bkt::edge_precision precision) {
  check_bin_count(bins);
  if (!std::isfinite(lo) || !std::isfinite(hi)) fail(from, "LO and HI must be finite");
  if (!(lo < hi)) fail(from, "LO must be below HI");
  bin_plan plan;
  plan.kind = binning_kind::even;
  plan.bins = bins;
  plan.lo = lo;
  plan.hi = hi;
  plan.precision = precision;
  if (data == dtype::f16) {
    // NumPy's edges for float16 data are float16 values: from a double linspace for a given range,
    // from a float16 one for the data's own bounds. The data, exact in f64, bins between them.
    plan.binned_as = dtype::f64;
    plan.library_even = false;
    if (precision == bkt::edge_precision::data) {
      plan.edges = half_linspace(lo, hi, static_cast<int>(bins));
    } else {
      plan.edges = library_even_edges<double>(plan);
      for (double& edge : plan.edges) edge = round_to_half(edge);
    }
    plan.library_edges = plan.edges;
    if (!std::isfinite(plan.edges.front()) || !std::isfinite(plan.edges.back()))
      fail(from, "bounds beyond the range of f16");
    check_edges_ascend(from, plan);
    return plan;
  }
  const bool integral = lo == std::floor(lo) && hi == std::floor(hi);
  const double integer_bound = static_cast<double>(std::int64_t{1} << 40);  // the library's limit
  // bkt::even_bins computes (x - lo) * bins in 64 bits; near the +-2^40 bounds with many bins that
  // product can pass 2^64 and wrap, so such ranges bin in f64 instead (where NumPy bins them too).
  const bool product_fits = integral && lo >= -integer_bound && hi <= integer_bound &&
                            static_cast<std::uint64_t>(hi - lo) <= ~std::uint64_t{0} / static_cast<std::uint64_t>(bins);
  if (is_small_integer_type(data) && product_fits) {
    plan.binned_as = data;
  } else if (data == dtype::f32) {
    check_float_range<float>(from, lo, hi);
    plan.binned_as = dtype::f32;
  } else {
    check_float_range<double>(from, lo, hi);
    plan.binned_as = dtype::f64;
  }
  plan.edges = visit_dtype(plan.binned_as, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, __half> || (std::is_integral_v<T> && sizeof(T) == 8))
      return std::vector<double>{};  // never binned in these
    else
      return library_even_edges<T>(plan);
  });
  check_edges_ascend(from, plan);
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
    if (index > 0 && edges[index - 1] > edges[index])
      fail(from, "edges must be ascending: " + position + " (" + format_double(edges[index]) + ") is below edge " +
                     std::to_string(index) + " (" + format_double(edges[index - 1]) + ")");
  }
  bin_plan plan;
  plan.kind = kind;
  plan.bins = static_cast<std::int64_t>(edges.size()) - 1;
  plan.library_even = false;
  plan.binned_as = dtype::f64;
  plan.library_edges = edges;
  if (data == dtype::f32) {
    // NumPy compares f32 data with f64 edges in f64. For a float x, x >= e exactly when x >= e
    // rounded up to a float, and x <= e exactly when x <= e rounded down: so f32 edges, lower ones
    // rounded up and the last rounded down, give NumPy's bins. Should that last edge fall below
    // the one before it, the data bins in f64 instead.
    std::vector<double> rounded(edges.size());
    for (std::size_t index = 0; index < edges.size(); ++index) {
      const bool last = index + 1 == edges.size();
      float edge = static_cast<float>(edges[index]);
      if (!last && edge < edges[index]) edge = std::nextafter(edge, std::numeric_limits<float>::infinity());
      if (last && edge > edges[index]) edge = std::nextafter(edge, -std::numeric_limits<float>::infinity());
      rounded[index] = edge;
    }
    if (std::is_sorted(rounded.begin(), rounded.end())) {
      plan.binned_as = dtype::f32;
      plan.library_edges = std::move(rounded);
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

}  // namespace

void check_bin_count(std::int64_t bins) {
  if (bins < 1 || bins > bkt::histogram_max_bins)
    throw usage_error("--bins " + std::to_string(bins) + ": must be between 1 and 16777216 (2^24)");
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
  return plan_even_from(range_origin(lo, hi, "--range"), data, bins, lo, hi, bkt::edge_precision::f64);
}

bin_plan plan_even_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input) {
  if (extent.finite == 0) throw app_error(input + ": no finite values to take the range from; give --range LO:HI");
  double lo = extent.min, hi = extent.max;
  if (lo == hi) {
    // One distinct value: NumPy widens the range by 0.5 each way, in the data's type (float32
    // arithmetic for f32, float16 for f16, double for integers), and refuses the bins when that
    // rounds back to the value; here the range is then [v, the next value of the type].
    const auto in_type = [&](double value) {
      if (data == dtype::f32) return static_cast<double>(static_cast<float>(value));
      if (data == dtype::f16) return round_to_half(value);
      return value;
    };
    lo = in_type(extent.min - 0.5);
    hi = in_type(extent.max + 0.5);
    if (!(lo < extent.min && hi > extent.max)) {
      lo = extent.min;
      hi = next_value_above(data, lo);
    }
  }
  const origin from{input + ": the data's range [" + format_double(extent.min) + ", " + format_double(extent.max) + "]",
                    exit_bad_input};
  if (!std::isfinite(hi)) fail(from, "the range is wider than the data's type holds; give --range LO:HI");
  return plan_even_from(from, data, bins, lo, hi, bkt::edge_precision::data);
}

bin_plan plan_log(dtype data, std::int64_t bins, double lo, double hi) {
  check_bin_count(bins);
  check_range(lo, hi, true);
  return plan_edges_from(range_origin(lo, hi, "--range"), data, log_edges(lo, hi, bins), binning_kind::log);
}

bin_plan plan_log_from_extent(dtype data, std::int64_t bins, const data_extent& extent, const std::string& input) {
  check_bin_count(bins);
  if (!extent.min_positive) throw app_error(input + ": no positive values to take a log range from; give --range LO:HI");
  double lo = *extent.min_positive, hi = extent.max;
  if (lo == hi) lo = extent.max / std::sqrt(10.0), hi = extent.max * std::sqrt(10.0);  // one decade around it
  const origin from{input + ": the data's positive range [" + format_double(lo) + ", " + format_double(extent.max) + "]",
                    exit_bad_input};
  if (!std::isfinite(hi)) fail(from, "the range is wider than f64 holds; give --range LO:HI");
  return plan_edges_from(from, data, log_edges(lo, hi, bins), binning_kind::log);
}

bin_plan plan_edges(dtype data, std::vector<double> edges, const std::string& file) {
  return plan_edges_from(origin{file, exit_bad_input}, data, std::move(edges), binning_kind::edges);
}

}  // namespace bkt::apps::histogram
