// The passes of one radix sort: which bits each pass splits by, and the workspace they share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bkt/config.hpp"
#include "bkt/detail/multisplit/tile_shape.hpp"
#include "bkt/detail/radix_bits.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/radix_sort_types.hpp"

namespace bkt::detail::radix_sort {

/// The digit of one pass: bits [first_bit, first_bit + num_bits) of the key's image, complemented
/// for a descending sort, so that every pass is an ascending stable multisplit.
template <class Key>
struct radix_digit {
  int first_bit = 0;  // below the key's width, also for a pass of zero bits
  unsigned mask = 0;  // (1 << num_bits) - 1
  unsigned flip = 0;  // the digit mask when descending, else 0
  static constexpr bool cheap_bucket = true;  // see bkt/buckets.hpp
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    // 32-bit arithmetic for keys of up to 4 bytes: a 64-bit shift costs two instructions per key.
    using word = std::conditional_t<sizeof(Key) <= 4, std::uint32_t, std::uint64_t>;
    const word image = radix_bits(key);
    return static_cast<int>((static_cast<unsigned>(image >> first_bit) & mask) ^ flip);
  }
};

inline constexpr int max_digit_bits = 8;  // multisplit's single-pass limit of 256 buckets

struct pass_plan {
  static constexpr int max_passes = 64;
  int passes = 0;
  int first_bit[max_passes] = {};
  int num_bits[max_passes] = {};
  int widest = 0;  // the most bits of any pass; digit counts are 2^widest apart per pass
  bool descending = false;

  int digit_stride() const { return 1 << widest; }
  template <class Key>
  radix_digit<Key> digit(int pass) const {
    const unsigned mask = (1u << num_bits[pass]) - 1u;
    return {num_bits[pass] > 0 ? first_bit[pass] : 0, mask, descending ? mask : 0u};
  }
};

/// The passes for keys of `key_bytes` bytes; throws bkt::error on an invalid bit range or digit
/// width. At least one pass (of zero bits, a stable copy, when the bit range is empty).
pass_plan make_plan(std::size_t key_bytes, const radix_sort_options& options);

/// Workspace slices of one sort.
struct sort_layout {
  std::size_t totals = 0;        // passes x digit_stride 64-bit digit counts
  std::size_t offsets = 0;       // passes x (digit_stride + 1) bucket offsets
  std::size_t lone_buckets = 0;  // per pass, the digit every key has, or -1
  std::size_t pass_state = 0;    // a tile counter, then the look-back words: zeroed before each pass
  std::size_t pass_state_bytes = 0;
  std::size_t status = 0;        // the look-back words, within pass_state
  std::size_t keys[2] = {};      // spare key buffers (0 bytes where the form needs none)
  std::size_t values = 0;        // spare value buffer
  std::size_t total = 0;
};

sort_layout make_layout(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes, const pass_plan& plan,
                        radix_sort_form form);

}  // namespace bkt::detail::radix_sort
