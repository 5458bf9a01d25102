#include "axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "number_format.hpp"

namespace bkt::apps::histogram {

std::vector<tick> linear_ticks(double lo, double hi, int target, bool cover) {
  std::vector<tick> ticks;
  if (!(hi > lo) || !std::isfinite(hi - lo)) {
    ticks.push_back({lo, format_double(lo)});
    return ticks;
  }
  const double rough = (hi - lo) / target;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  const double fraction = rough / power;
  const double multiple = fraction < 1.5 ? 1.0 : fraction < 3.5 ? 2.0 : fraction < 7.5 ? 5.0 : 10.0;
  const double step = multiple * power;
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  // Ticks are integer multiples of the step, so that rounding does not accumulate.
  const double first = cover ? std::floor(lo / step + 1e-9) : std::ceil(lo / step - 1e-9);
  const double last = cover ? std::ceil(hi / step - 1e-9) : std::floor(hi / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 100; k += 1.0) {
    const double value = k * step;
    char buffer[64];
    if (decimals <= 6 && std::fabs(value) < 1e15)
      std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value == 0.0 ? 0.0 : value);
    else
      std::snprintf(buffer, sizeof buffer, "%.3g", value);
    ticks.push_back({value, buffer});
  }
  return ticks;
}

std::vector<tick> log_ticks(double lo, double hi, int target) {
  std::vector<tick> ticks;
  for (double exponent = std::ceil(std::log10(lo) - 1e-9); exponent <= std::floor(std::log10(hi) + 1e-9);
       exponent += 1.0) {
    const double value = std::pow(10.0, exponent);
    ticks.push_back({value, format_double(value)});
  }
  if (ticks.size() < 2) return linear_ticks(lo, hi, target);
  // Over many decades, keep every stride-th power so that labels do not overlap.
  const std::size_t stride = (ticks.size() + static_cast<std::size_t>(target) - 1) / static_cast<std::size_t>(target);
  std::vector<tick> thinned;
  for (std::size_t index = 0; index < ticks.size(); index += stride) thinned.push_back(ticks[index]);
  return thinned;
}

}  // namespace bkt::apps::histogram
