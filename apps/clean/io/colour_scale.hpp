// How the quick-look plot turns pixel values into colours: a stretch to [0, 1] chosen from the
// image's percentiles; the colour maps themselves are bkt::apps::plot's.
#pragma once

#include <string>

#include "../image.hpp"

namespace bkt::clean {

/// Pixel value -> [0, 1]: linear between low and high, or asinh, which stays linear within about
/// `softening` of low and logarithmic far above it, so that faint emission and bright sources
/// both show.
struct display_stretch {
  double low = 0;
  double high = 1;
  bool asinh = false;
  double softening = 1;

  double apply(double value) const;    // clamped to [0, 1]; NaN stays NaN
  double value_at(double t) const;     // the inverse, for colour-bar labels
  std::string name() const;            // "linear" or "asinh"
};

/// For a restored image: from the 0.5th percentile to the maximum; asinh when the maximum stands
/// far (> 50 sigma, sigma from the 16th-84th percentile spread) above the median, else linear.
display_stretch restored_stretch(const image& restored);

/// For a residual image: linear and symmetric about 0, out to the larger of |0.5th| and |99.5th|
/// percentile.
display_stretch residual_stretch(const image& residual);

}  // namespace bkt::clean
