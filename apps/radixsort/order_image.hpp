// A key's place in the sort's order as an unsigned integer of its width: integers numerically,
// floats in the total order -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (the radix
// sort's order, bkt/radix_sort.hpp), descending as the complement. Unsigned comparison of images
// is the sort's comparison of keys, so the external sort's splitters are plain integers.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bkt::radixsort {

template <std::size_t Bytes>
using image_word = std::conditional_t<
    Bytes == 1, std::uint8_t,
    std::conditional_t<Bytes == 2, std::uint16_t, std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

template <class Key>
using image_of_t = image_word<sizeof(Key)>;

template <class Key>
constexpr bool is_float_key = std::is_floating_point_v<Key> || std::is_same_v<Key, __half>;

template <class Key>
image_of_t<Key> order_image(Key key, bool descending) {
  using word = image_of_t<Key>;
  constexpr word sign = word(word{1} << (8 * sizeof(Key) - 1));
  word bits;
  std::memcpy(&bits, &key, sizeof(Key));
  if constexpr (is_float_key<Key>)
    bits = (bits & sign) ? word(~bits) : word(bits | sign);
  else if constexpr (std::is_signed_v<Key>)
    bits = word(bits ^ sign);
  return descending ? word(~bits) : bits;
}

template <class Key>
Key key_of_image(image_of_t<Key> image, bool descending) {
  using word = image_of_t<Key>;
  constexpr word sign = word(word{1} << (8 * sizeof(Key) - 1));
  word bits = descending ? word(~image) : image;
  if constexpr (is_float_key<Key>)
    bits = (bits & sign) ? word(bits & word(~sign)) : word(~bits);
  else if constexpr (std::is_signed_v<Key>)
    bits = word(bits ^ sign);
  Key key;
  std::memcpy(static_cast<void*>(&key), &bits, sizeof(Key));  // __half has no public bits
  return key;
}

}  // namespace bkt::radixsort
