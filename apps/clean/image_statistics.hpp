// Figures of an image that the summaries report, over the pixels that are not NaN.
#pragma once

#include <cmath>
#include <cstdint>

#include "image.hpp"

namespace bkt::clean {

/// Root mean square over the pixels that are not NaN.
inline double finite_rms(const image& picture) {
  double sum = 0;
  std::int64_t count = 0;
  for (float value : picture.pixels)
    if (!std::isnan(value)) {
      sum += static_cast<double>(value) * value;
      ++count;
    }
  return count > 0 ? std::sqrt(sum / static_cast<double>(count)) : 0;
}

/// The pixels of `model` that are neither zero nor NaN; `total` receives their sum.
inline std::int64_t nonzero_pixels(const image& model, double& total) {
  std::int64_t count = 0;
  total = 0;
  for (float value : model.pixels)
    if (value != 0 && !std::isnan(value)) {
      ++count;
      total += value;
    }
  return count;
}

}  // namespace bkt::clean
