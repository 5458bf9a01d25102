#include "colour_scale.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bkt::clean {
namespace {

/// The finite values, sorted: percentiles are then lookups.
std::vector<float> sorted_finite(const image& picture) {
  std::vector<float> values;
  values.reserve(picture.pixels.size());
  for (float value : picture.pixels)
    if (std::isfinite(value)) values.push_back(value);
  std::sort(values.begin(), values.end());
  return values;
}

double percentile(const std::vector<float>& sorted, double percent) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(std::lround(percent / 100 * static_cast<double>(sorted.size() - 1)));
  return sorted[index];
}

}  // namespace

double display_stretch::apply(double value) const {
  if (std::isnan(value)) return value;
  const double span = high - low;
  double t = 0;
  if (asinh) t = std::asinh(std::max(value - low, 0.0) / softening) / std::asinh(span / softening);
  else t = (value - low) / span;
  return std::clamp(t, 0.0, 1.0);
}

double display_stretch::value_at(double t) const {
  if (asinh) return low + softening * std::sinh(t * std::asinh((high - low) / softening));
  return low + t * (high - low);
}

std::string display_stretch::name() const { return asinh ? "asinh" : "linear"; }

display_stretch restored_stretch(const image& restored) {
  const auto values = sorted_finite(restored);
  display_stretch stretch;
  stretch.low = percentile(values, 0.5);
  stretch.high = values.empty() ? 1 : static_cast<double>(values.back());
  if (!(stretch.high > stretch.low)) stretch.high = stretch.low + 1;
  const double sigma = (percentile(values, 84) - percentile(values, 16)) / 2;
  const double median = percentile(values, 50);
  if (sigma > 0 && stretch.high - median > 50 * sigma) {
    stretch.asinh = true;
    stretch.softening = 3 * sigma;
  }
  return stretch;
}

display_stretch residual_stretch(const image& residual) {
  const auto values = sorted_finite(residual);
  double extent = std::max(std::fabs(percentile(values, 0.5)), std::fabs(percentile(values, 99.5)));
  if (!(extent > 0)) extent = 1;
  return {-extent, extent, false, 1};
}

}  // namespace bkt::clean
