// Argument checks of the histograms, shared by the device API and the host API and made before
// any CUDA call.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "bkt/buckets.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/histogram_types.hpp"

namespace bkt::detail::histogram {

/// Workspace of one call: the "outside" total when the caller does not want it.
inline constexpr std::size_t workspace_bytes = sizeof(double);

inline void check_bins(const char* call, std::size_t bins) {
  if (bins < 1 || bins > static_cast<std::size_t>(histogram_max_bins))
    throw_argument(std::string(call) + ": " + std::to_string(bins) + " bins, outside [1, " +
                   std::to_string(histogram_max_bins) + "]");
}

/// The first pair of equal edges, or -1: NumPy refuses such bins ("Too many bins for data range").
/// Only bins within a few ulps of each other can collide, so wider ones skip the scan.
template <class T>
std::int64_t first_equal_edges(const even_bins<T>& b) {
  double error_in_bins;
  if constexpr (std::is_floating_point_v<T>)
    error_in_bins = b.narrow_edges ? edge_error_in_bins<T, float>(static_cast<float>(b.lo), static_cast<float>(b.hi), b.bins)
                                   : edge_error_in_bins<T, double>(b.lo, b.hi, b.bins);
  else
    error_in_bins = edge_error_in_bins<double, double>(static_cast<double>(b.lo), static_cast<double>(b.hi), b.bins);
  if (error_in_bins < 0.25) return -1;  // edges move by less than a quarter bin: they ascend
  for (int i = 0; i < b.bins; ++i)
    if (!(b.edge(i) < b.edge(i + 1))) return i;
  return -1;
}

template <class T>
even_bins<T> checked_even_bins(std::size_t bins, histogram_level<T> lo, histogram_level<T> hi,
                               edge_precision precision = edge_precision::f64) {
  check_bins("histogram_even", bins);
  if constexpr (std::is_integral_v<T>) {
    if (!(lo < hi)) throw_argument("histogram_even: the range [lo, hi] is empty (lo must be below hi)");
    if (lo < -(std::int64_t{1} << 40) || hi > (std::int64_t{1} << 40))
      throw_argument("histogram_even: integer bounds must lie within +-2^40");
    // even_bins multiplies (x - lo) by the bin count in 64 bits.
    if (static_cast<std::uint64_t>(hi - lo) > ~std::uint64_t{0} / bins)
      throw_argument("histogram_even: (hi - lo) * bins must stay below 2^64 for integer data");
  } else {
    if (!std::isfinite(lo) || !std::isfinite(hi)) throw_argument("histogram_even: lo and hi must be finite");
    if (!(lo < hi)) throw_argument("histogram_even: the range [lo, hi] is empty (lo must be below hi)");
    const bool narrow = std::is_same_v<T, float> && precision == edge_precision::data;
    const double width = narrow ? static_cast<double>(static_cast<float>(hi) - static_cast<float>(lo)) : hi - lo;
    const T first = static_cast<T>(lo), last = static_cast<T>(hi);
    // even_bins computes x - lo in T: it cannot overflow when the range's width does not.
    if (!std::isfinite(width) || !std::isfinite(first) || !std::isfinite(last) || !std::isfinite(last - first))
      throw_argument("histogram_even: hi - lo must be finite in the data's type");
    if (!(first < last)) throw_argument("histogram_even: lo and hi are equal once rounded to the data's type");
  }
  const auto b = even_bins<T>::make(lo, hi, static_cast<int>(bins), precision);
  if (const std::int64_t i = first_equal_edges(b); i >= 0)
    throw_argument("histogram_even: " + std::to_string(bins) + " bins are narrower than the data's type resolves " +
                   "over this range: edges " + std::to_string(i) + " and " + std::to_string(i + 1) + " are equal");
  return b;
}

/// `edges` is in device memory for the device API, in host memory for the host API (which also
/// checks that they ascend).
template <class T>
range_bins<T> checked_range_bins(std::size_t bins, std::span<const T> edges) {
  check_bins("histogram_range", bins);
  expect_data("histogram_range", "edges", edges);
  if (edges.size() != bins + 1)
    throw_argument("histogram_range: edges must hold one more value than there are bins");
  return range_bins<T>{edges.data(), static_cast<int>(bins)};
}

}  // namespace bkt::detail::histogram
