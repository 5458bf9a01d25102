// The order-preserving unsigned image of a key: unsigned integers as they are, signed integers with
// the sign bit flipped, floats (half, bfloat16, float, double) with the sign bit flipped (positive)
// or all bits flipped (negative).
// Comparing images as unsigned integers orders keys as radix sort does: -NaN < -inf < ... < -0.0 <
// +0.0 < ... < +inf < +NaN.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "bkt/config.hpp"

namespace bkt::detail {

template <class Key>
using radix_word = std::conditional_t<sizeof(Key) == 1, std::uint8_t,
                   std::conditional_t<sizeof(Key) == 2, std::uint16_t,
                   std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>>>;

/// Floating-point keys: the built-in types and CUDA's two 16-bit formats.
template <class Key>
inline constexpr bool is_radix_float =
    std::is_floating_point_v<Key> || std::is_same_v<Key, __half> || std::is_same_v<Key, __nv_bfloat16>;

template <class Key>
BKT_HOST_DEVICE inline radix_word<Key> radix_bits(const Key& key) {
  static_assert((std::is_arithmetic_v<Key> || is_radix_float<Key>) && sizeof(Key) <= 8,
                "integer or floating-point keys");
  using word = radix_word<Key>;
  constexpr word sign = word{1} << (8 * sizeof(Key) - 1);
  word bits;
  std::memcpy(&bits, &key, sizeof(Key));
  if constexpr (is_radix_float<Key>) {
    return (bits & sign) ? static_cast<word>(~bits) : static_cast<word>(bits | sign);
  } else if constexpr (std::is_signed_v<Key>) {
    return static_cast<word>(bits ^ sign);
  } else {
    return bits;
  }
}

}  // namespace bkt::detail
