// bkt::ref::dist: the distributed histograms of bkt/dist/histogram.hpp simulated on the CPU: each
// rank's histogram by the single-GPU library's CPU path, summed over the ranks as the all-reduce
// sums them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "bkt/histogram.hpp"

namespace bkt::ref::dist {

/// counts = the histogram of all ranks' data; returns the elements outside every bin.
template <class T>
std::int64_t histogram_even(const std::vector<std::vector<T>>& data, std::span<std::int64_t> counts,
                            histogram_level<T> lo, histogram_level<T> hi) {
  std::vector<std::int64_t> local(counts.size());
  std::int64_t outside = 0;
  std::fill(counts.begin(), counts.end(), 0);
  for (const auto& part : data) {
    outside += bkt::host::histogram_even<T>(part, local, lo, hi, bkt::host::backend::cpu);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += local[i];
  }
  return outside;
}

/// counts = the histogram between `edges` (host memory) of all ranks' data; returns the outside.
template <class T>
std::int64_t histogram_range(const std::vector<std::vector<T>>& data, std::span<const T> edges,
                             std::span<std::int64_t> counts) {
  std::vector<std::int64_t> local(counts.size());
  std::int64_t outside = 0;
  std::fill(counts.begin(), counts.end(), 0);
  for (const auto& part : data) {
    outside += bkt::host::histogram_range<T>(part, edges, local, bkt::host::backend::cpu);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += local[i];
  }
  return outside;
}

}  // namespace bkt::ref::dist
