#include "number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace bkt::apps::histogram {
namespace {

// std::to_chars without a format gives the shortest representation that round-trips, choosing
// fixed or scientific notation by length: exactly "enough digits to be unambiguous".
template <class T>
std::string shortest(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto [end, code] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return code == std::errc{} ? std::string(buffer, end) : std::string("?");
}

}  // namespace

std::string format_double(double value) { return shortest(value == 0.0 ? 0.0 : value); }  // no "-0"

std::string format_float(float value) { return shortest(value == 0.0f ? 0.0f : value); }

std::string format_edge(double edge, bool single_precision) {
  return single_precision ? format_float(static_cast<float>(edge)) : format_double(edge);
}

std::string format_fraction(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6f", fraction);
  return buffer;
}

}  // namespace bkt::apps::histogram
