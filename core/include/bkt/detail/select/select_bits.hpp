// The selection order's unsigned image: radix_bits (bkt/detail/radix_bits.hpp), except that every
// NaN maps to the largest word, so NaNs of either sign are equal and above +inf (bkt/select.hpp).
#pragma once

#include <type_traits>

#include "bkt/detail/radix_bits.hpp"

namespace bkt::detail {

template <class T>
BKT_HOST_DEVICE inline radix_word<T> select_bits(const T& x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return static_cast<radix_word<T>>(~radix_word<T>{0});
  }
  return radix_bits(x);
}

}  // namespace bkt::detail
