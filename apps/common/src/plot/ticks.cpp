#include "bkt_apps/plot/ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bkt::apps::plot {

std::vector<tick> linear_ticks(double lo, double hi, int target, bool cover) {
  std::vector<tick> ticks;
  char buffer[64];
  if (!(hi > lo) || !std::isfinite(hi - lo)) {
    std::snprintf(buffer, sizeof buffer, "%.6g", lo == 0.0 ? 0.0 : lo);
    ticks.push_back({lo, buffer});
    return ticks;
  }
  const double rough = (hi - lo) / std::max(target, 1);
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  const double fraction = rough / power;
  const double multiple = fraction < 1.5 ? 1.0 : fraction < 3.5 ? 2.0 : fraction < 7.5 ? 5.0 : 10.0;
  const double step = multiple * power;
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  // Ticks are integer multiples of the step, so that rounding does not accumulate.
  const double first = cover ? std::floor(lo / step + 1e-9) : std::ceil(lo / step - 1e-9);
  const double last = cover ? std::ceil(hi / step - 1e-9) : std::floor(hi / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 100; k += 1.0) {
    const double value = k == 0.0 ? 0.0 : k * step;  // no "-0"
    if (decimals <= 6 && std::fabs(value) < 1e15)
      std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    else
      std::snprintf(buffer, sizeof buffer, "%.3g", value);
    ticks.push_back({value, buffer});
  }
  return ticks;
}

std::string power_of_ten_label(int exponent) {
  if (exponent >= -3 && exponent <= 4) {
    std::string label = exponent < 0 ? "0." : "1";
    label.append(static_cast<std::size_t>(exponent < 0 ? -exponent - 1 : exponent), '0');
    if (exponent < 0) label += '1';
    return label;
  }
  static const char* const superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string label = exponent < 0 ? "10⁻" : "10";
  for (char digit : std::to_string(std::abs(exponent))) label += superscripts[digit - '0'];
  return label;
}

std::vector<tick> log_ticks(double lo, double hi, int target) {
  std::vector<tick> ticks;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return linear_ticks(lo, hi, target);
  for (double exponent = std::ceil(std::log10(lo) - 1e-9); exponent <= std::floor(std::log10(hi) + 1e-9);
       exponent += 1.0)
    ticks.push_back({std::pow(10.0, exponent), power_of_ten_label(static_cast<int>(exponent))});
  if (ticks.size() < 2) return linear_ticks(lo, hi, target);
  // Over many decades, keep every stride-th power so that labels do not crowd.
  const std::size_t stride =
      (ticks.size() + static_cast<std::size_t>(std::max(target, 1)) - 1) / static_cast<std::size_t>(std::max(target, 1));
  std::vector<tick> thinned;
  for (std::size_t index = 0; index < ticks.size(); index += stride) thinned.push_back(ticks[index]);
  return thinned;
}

}  // namespace bkt::apps::plot
