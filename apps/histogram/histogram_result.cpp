#include "histogram_result.hpp"

#include <cinttypes>
#include <cstdio>

#include "number_format.hpp"

namespace bkt::apps::histogram {

double histogram_result::value(std::int64_t bin) const {
  const auto index = static_cast<std::size_t>(bin);
  return weighted() ? sums[index] : static_cast<double>(counts[index]);
}

double histogram_result::in_range_total() const {
  if (weighted()) {
    double total = 0.0;
    for (double sum : sums) total += sum;
    return total;
  }
  std::int64_t total = 0;
  for (std::int64_t count : counts) total += count;
  return static_cast<double>(total);
}

double histogram_result::outside_total() const { return below() + above() + nan(); }

std::string value_name(const histogram_result& result) { return result.weighted() ? "weight" : "count"; }

std::string format_value(const histogram_result& result, double value) {
  if (result.weighted()) return format_double(value);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%" PRId64, static_cast<std::int64_t>(value));
  return buffer;
}

}  // namespace bkt::apps::histogram
