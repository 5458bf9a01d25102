// The host's share of each chunk: split what falls outside the bins into below, above and NaN (the
// library counts them as one), and for weighted runs check the weights. One cheap pass over data
// that was just read, overlapping the GPU's work on the same chunk.
#pragma once

#include <span>
#include <type_traits>

#include "bin_spec.hpp"
#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// Adds the chunk's outside elements to `tally`, by the library's rule: outside when
/// !(x >= first edge && x <= last edge), NaN first, then below, else above. `weights` is empty or
/// as long as `data`. Every binned type converts to double exactly.
template <class T>
void split_outside(std::span<const T> data, std::span<const double> weights, const bin_spec<T>& spec,
                   outside_tally& tally) {
  const bool weighted = !weights.empty();
  for (std::size_t index = 0; index < data.size(); ++index) {
    const T x = data[index];
    const auto value = static_cast<double>(x);
    if (value >= spec.first_edge && value <= spec.last_edge) continue;
    const double weight = weighted ? weights[index] : 0.0;
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) {
        ++tally.nan;
        tally.nan_weight += weight;
        continue;
      }
    }
    if (value < spec.first_edge) {
      ++tally.below;
      tally.below_weight += weight;
    } else {
      ++tally.above;
      tally.above_weight += weight;
    }
  }
}

}  // namespace bkt::apps::histogram
