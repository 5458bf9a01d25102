// The selection order's unsigned image: radix_bits (bkt/detail/radix_bits.hpp), except that every
// NaN maps to the largest word, so NaNs of either sign are equal and above +inf (bkt/select.hpp).
#pragma once

#include <cstring>
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

/// The element whose selection word is w (the inverse of select_bits; the NaN word gives a NaN).
template <class T>
BKT_HOST_DEVICE inline T from_select_bits(radix_word<T> w) {
  using word = radix_word<T>;
  constexpr word sign = word{1} << (8 * sizeof(T) - 1);
  word bits = w;
  if constexpr (std::is_floating_point_v<T>) {
    bits = (w & sign) ? static_cast<word>(w ^ sign) : static_cast<word>(~w);
  } else if constexpr (std::is_signed_v<T>) {
    bits = static_cast<word>(w ^ sign);
  }
  T x;
  std::memcpy(&x, &bits, sizeof(T));
  return x;
}

}  // namespace bkt::detail
