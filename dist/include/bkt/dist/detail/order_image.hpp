// The distributed sort's order as one 64-bit word per key: the key's order-preserving image
// (bkt/detail/radix_bits.hpp), complemented within the key's width for descending order. Ascending
// images then list keys in the requested order, whichever it is, so the sampling, the splitters
// and the searches below compare plain unsigned words.
#pragma once

#include <cstdint>

#include "bkt/config.hpp"
#include "bkt/detail/radix_bits.hpp"

namespace bkt::dist::detail {

template <class Key>
BKT_HOST_DEVICE inline std::uint64_t order_image(const Key& key, bool descending) {
  using word = bkt::detail::radix_word<Key>;
  const word bits = bkt::detail::radix_bits(key);
  return static_cast<std::uint64_t>(descending ? static_cast<word>(~bits) : bits);
}

/// order_image of a sorted array, element by element: what the splitter search reads.
template <class Key>
struct image_reader {
  const Key* keys;
  bool descending;
  BKT_HOST_DEVICE std::uint64_t operator()(std::int64_t i) const { return order_image(keys[i], descending); }
};

}  // namespace bkt::dist::detail
