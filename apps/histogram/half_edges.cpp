#include "half_edges.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bkt::apps::histogram {

double round_to_half(double value) {
  if (!std::isfinite(value) || value == 0.0) return value;
  const double magnitude = std::fabs(value);
  // 65520 lies halfway between the largest half, 65504, and 2^16, where the next one would be.
  if (magnitude >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), value);
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent - 1), 2^exponent)
  // 11 significant bits; the last one is never below 2^-24 (half's subnormals).
  const int unit = std::max(exponent - 11, -24);
  return std::copysign(std::ldexp(std::nearbyint(std::ldexp(magnitude, -unit)), unit), value);
}

// NumPy computes float16 arithmetic in float32 and rounds to half; that double rounding gives the
// correctly rounded result for +, *, / of halves (24 >= 2 * 11 + 2 bits), which double computes
// here: products and sums of halves are exact in double, quotients rounded once before.
std::vector<double> half_linspace(double lo, double hi, int bins) {
  const double delta = round_to_half(hi - lo);
  const double step = round_to_half(delta / bins);
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1);
  for (int index = 0; index < bins; ++index) {
    const double position = round_to_half(index);  // numpy.arange in float16
    const double offset =
        step != 0.0 ? round_to_half(position * step) : round_to_half(round_to_half(position / bins) * delta);
    edges[static_cast<std::size_t>(index)] = round_to_half(offset + lo);
  }
  edges.back() = hi;
  return edges;
}

}  // namespace bkt::apps::histogram
