// The histograms' limits (bkt/histogram.hpp has the calls; bkt/histogram_bins.hpp the bin
// functors, the bounds' type histogram_level and edge_precision). Plain C++, no CUDA headers.
#pragma once

#include <cstdint>

namespace bkt {

/// Most bins a histogram takes (the fewest is 1).
inline constexpr std::int64_t histogram_max_bins = std::int64_t{1} << 24;

}  // namespace bkt
