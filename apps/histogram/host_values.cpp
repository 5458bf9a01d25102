#include "host_values.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps::histogram {
namespace {

constexpr double exact_limit = 9007199254740992.0;  // 2^53: every integer up to it is a double

template <class T>
double checked_double(T value, std::int64_t element, const std::string& name) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
    // Compare as integers: converting first would round 2^53 + 1 down to 2^53 and hide it.
    const bool exact = std::is_signed_v<T> ? (value >= -static_cast<T>(exact_limit) && value <= static_cast<T>(exact_limit))
                                           : value <= static_cast<T>(exact_limit);
    if (!exact)
      throw app_error(name + ": element " + std::to_string(element + 1) + " (" + std::to_string(value) +
                      ") is not exactly representable as f64 (|x| > 2^53); 64-bit integers are binned as f64");
  }
  return static_cast<double>(value);
}

}  // namespace

void widen_to_f64(dtype type, const void* data, std::int64_t count, double* out, std::int64_t first_element,
                  const std::string& name) {
  visit_dtype(type, [&]<class T>(std::type_identity<T>) {
    const T* values = static_cast<const T*>(data);
    for (std::int64_t index = 0; index < count; ++index)
      out[index] = checked_double(values[index], first_element + index, name);
  });
}

void weights_to_f64(dtype type, const void* weights, std::int64_t count, double* out, std::int64_t first_element,
                    const std::string& name) {
  visit_dtype(type, [&]<class T>(std::type_identity<T>) {
    const T* values = static_cast<const T*>(weights);
    for (std::int64_t index = 0; index < count; ++index) {
      out[index] = static_cast<double>(values[index]);
      if (!std::isfinite(out[index]))
        throw app_error(name + ": weight " + std::to_string(first_element + index + 1) + " is " +
                        (std::isnan(out[index]) ? "NaN" : "infinite"));
    }
  });
}

void extend(data_extent& extent, dtype type, const void* data, std::int64_t count, std::int64_t first_element,
            const std::string& name) {
  visit_dtype(type, [&]<class T>(std::type_identity<T>) {
    const T* values = static_cast<const T*>(data);
    for (std::int64_t index = 0; index < count; ++index) {
      const double value = checked_double(values[index], first_element + index, name);
      if (!std::isfinite(value)) continue;
      extent.min = extent.finite == 0 ? value : std::min(extent.min, value);
      extent.max = extent.finite == 0 ? value : std::max(extent.max, value);
      ++extent.finite;
      if (value > 0.0 && (!extent.min_positive || value < *extent.min_positive)) extent.min_positive = value;
    }
  });
}

}  // namespace bkt::apps::histogram
