#include "colour_scale.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace bkt::clean {
namespace {

struct control_point {
  double t;
  double red, green, blue;
};

// Control points picked for this tool; lightness grows roughly evenly along the sequential map,
// and the diverging one is symmetric in lightness about its white middle.
constexpr std::array<control_point, 6> sequential_points = {{
    {0.00, 8, 6, 30},
    {0.20, 62, 18, 100},
    {0.45, 150, 40, 110},
    {0.65, 215, 80, 70},
    {0.85, 248, 165, 40},
    {1.00, 252, 250, 185},
}};
constexpr std::array<control_point, 5> diverging_points = {{
    {0.00, 30, 60, 150},
    {0.25, 110, 160, 215},
    {0.50, 245, 245, 245},
    {0.75, 225, 130, 100},
    {1.00, 150, 25, 35},
}};

template <std::size_t N>
rgb interpolate(const std::array<control_point, N>& points, double t) {
  t = std::clamp(t, 0.0, 1.0);
  std::size_t upper = 1;
  while (upper + 1 < N && points[upper].t < t) ++upper;
  const control_point& a = points[upper - 1];
  const control_point& b = points[upper];
  const double f = (t - a.t) / (b.t - a.t);
  const auto mix = [f](double x, double y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * f)); };
  return {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
}

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

rgb colour_at(colour_map map, double t) {
  if (std::isnan(t)) return {128, 128, 128};
  return map == colour_map::sequential ? interpolate(sequential_points, t) : interpolate(diverging_points, t);
}

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
