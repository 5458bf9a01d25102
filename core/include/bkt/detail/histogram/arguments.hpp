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
#include "bkt/histogram.hpp"

namespace bkt::detail::histogram {

/// Workspace of one call: the "outside" total when the caller does not want it.
inline constexpr std::size_t workspace_bytes = sizeof(double);

inline void check_bins(const char* call, std::size_t bins) {
  if (bins < 1 || bins > static_cast<std::size_t>(histogram_max_bins))
    throw_argument(std::string(call) + ": " + std::to_string(bins) + " bins, outside [1, " +
                   std::to_string(histogram_max_bins) + "]");
}

template <class T>
even_bins<T> checked_even_bins(std::size_t bins, histogram_level<T> lo, histogram_level<T> hi) {
  check_bins("histogram_even", bins);
  if (!(lo < hi)) throw_argument("histogram_even: the range [lo, hi) is empty (lo must be below hi)");
  if constexpr (std::is_integral_v<T>) {
    if (lo < -(std::int64_t{1} << 40) || hi > (std::int64_t{1} << 40))
      throw_argument("histogram_even: integer bounds must lie within +-2^40");
    // even_bins multiplies (x - lo) by the bin count in 64 bits.
    if (static_cast<std::uint64_t>(hi - lo) > ~std::uint64_t{0} / bins)
      throw_argument("histogram_even: (hi - lo) * bins must stay below 2^64 for integer data");
  } else if (!std::isfinite(hi - lo)) {
    // even_bins computes x - lo in the data's precision: it cannot overflow when hi - lo does not.
    throw_argument("histogram_even: hi - lo must be finite");
  }
  return even_bins<T>::make(lo, hi, static_cast<int>(bins));
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
