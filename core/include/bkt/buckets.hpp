// Bucket functors: what multisplit and the histograms classify elements by. Each maps a key to a
// bucket id in [0, num_buckets); they run on the GPU and the CPU alike, so the CPU references and
// the host API's CPU path use the very same arithmetic.
//
// A user functor is any trivially copyable type with `int operator()(const Key&) const` usable on
// the device (a struct with a __device__ operator, or an extended __device__ lambda). Ids outside
// [0, num_buckets) are clamped into the last bucket, so a wrong functor cannot write out of bounds.
// A functor whose bucket costs a few integer instructions may declare
// `static constexpr bool cheap_bucket = true;`: multisplit of keys up to 4 bytes (alone or with
// values of up to 4 bytes) then runs it a second time on each key as it writes the key out,
// instead of keeping the key's bucket id in shared memory (faster for u32 radix sorts:
// docs/primitives/multisplit.md). It must give the same id both times.
//
// Policies for floating-point keys:
//  - bit_range_buckets looks at bits, not values: -0.0 and +0.0 differ, NaNs sort by their bits
//    (negative NaNs first, positive NaNs last), exactly as radix sort orders them.
//  - delta_buckets and splitter_buckets compare values: -0.0 equals +0.0, and NaN goes to the last
//    bucket (it compares as larger than every splitter, like a value above the range).
//  - even_bins and range_bins (histograms, bkt/histogram_bins.hpp) follow numpy.histogram: the
//    last bin is closed; NaN and values outside [first edge, last edge] go to the extra bucket
//    `bins`, which the histograms report as "outside".
#pragma once

#include <cstdint>
#include <type_traits>

#include "bkt/config.hpp"
#include "bkt/detail/radix_bits.hpp"
#include "bkt/histogram_bins.hpp"

namespace bkt {

/// Bucket = bits [first_bit, first_bit + num_bits) of the key's order-preserving unsigned image
/// (bkt/detail/radix_bits.hpp): the radix digit, so multisplit with it is one pass of LSD radix sort.
/// num_bits from 0 to 16; 2^num_bits buckets.
template <class Key>
struct bit_range_buckets {
  int first_bit = 0;
  int num_bits = 8;
  static constexpr bool cheap_bucket = true;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    const auto shifted = detail::radix_bits(key) >> first_bit;
    return static_cast<int>(shifted & ((1u << num_bits) - 1u));
  }
  BKT_HOST_DEVICE int num_buckets() const { return 1 << num_bits; }
};

/// Bucket = floor((key - lo) / delta), clamped to [0, num_buckets - 1]: delta-stepping's buckets.
/// Integers divide exactly; floats compute in the key's own precision. delta must be positive (and
/// finite for floats). Keys below lo
/// go to bucket 0; NaN to the last bucket.
template <class Key>
struct delta_buckets {
  using delta_type = std::conditional_t<std::is_floating_point_v<Key>, Key, std::uint64_t>;
  Key lo{};
  delta_type delta{1};
  int buckets = 1;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    if constexpr (std::is_floating_point_v<Key>) {
      if (!(key >= lo)) return key != key ? buckets - 1 : 0;  // NaN last, below the range first
      const Key steps = (key - lo) / delta;
      return steps >= static_cast<Key>(buckets - 1) ? buckets - 1 : static_cast<int>(steps);
    } else {
      if (key < lo) return 0;
      using wide = std::conditional_t<(sizeof(Key) <= 4), std::uint32_t, std::uint64_t>;
      const wide distance = static_cast<wide>(key) - static_cast<wide>(lo);
      if (delta > static_cast<std::uint64_t>(static_cast<wide>(~wide{0}))) return 0;  // wider than any distance
      const wide steps = distance / static_cast<wide>(delta);
      return steps >= static_cast<wide>(buckets - 1) ? buckets - 1 : static_cast<int>(steps);
    }
  }
  BKT_HOST_DEVICE int num_buckets() const { return buckets; }
};

/// Bucket = the number of splitters s with s <= key (num_splitters + 1 buckets): bucket i holds
/// [splitters[i-1], splitters[i]). `splitters` is sorted ascending, in device memory for GPU calls
/// and host memory for CPU calls; the GPU searches a copy in shared memory when the splitters fit in
/// 32 KB, else in global memory.
template <class Key>
struct splitter_buckets {
  const Key* splitters = nullptr;
  int num_splitters = 0;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    // Branch-free binary search for the first splitter greater than key; NaN passes every splitter.
    int first = 0;
    for (int count = num_splitters; count > 0;) {
      const int half = count / 2;
      const bool right = !(key < splitters[first + half]);
      first = right ? first + half + 1 : first;
      count = right ? count - half - 1 : half;
    }
    return first;
  }
  BKT_HOST_DEVICE int num_buckets() const { return num_splitters + 1; }
};

}  // namespace bkt
