// The bin functor of the distributed radix select: one round looks at one 8-bit digit of the
// selection image (bkt/detail/select/select_bits.hpp) of the elements whose higher bits match one
// of the prefixes still searched. Used by the GPU histogram pass and by the CPU simulation.
#pragma once

#include <cstdint>

#include "bkt/config.hpp"
#include "bkt/detail/select/select_bits.hpp"

namespace bkt::dist::detail {

inline constexpr int select_digit_bits = 8;
inline constexpr int select_digit_bins = 1 << select_digit_bits;

/// Bin g * 256 + digit for an element whose bits above `shift + 8` equal prefixes[g] (prefixes
/// ascending, distinct); num_prefixes * 256 (outside) for every other element.
template <class T>
struct prefix_digit_bins {
  const std::uint64_t* prefixes = nullptr;
  int num_prefixes = 0;
  int shift = 0;

  BKT_HOST_DEVICE int operator()(const T& x) const {
    const auto image = static_cast<std::uint64_t>(bkt::detail::select_bits(x));
    const int high = shift + select_digit_bits;
    const std::uint64_t prefix = high >= 64 ? 0 : image >> high;
    int first = 0;  // the first prefix >= prefix
    for (int count = num_prefixes; count > 0;) {
      const int half = count / 2;
      const bool below = prefixes[first + half] < prefix;
      first = below ? first + half + 1 : first;
      count = below ? count - half - 1 : half;
    }
    if (first == num_prefixes || prefixes[first] != prefix) return num_prefixes * select_digit_bins;
    return first * select_digit_bins + static_cast<int>((image >> shift) & (select_digit_bins - 1));
  }
  BKT_HOST_DEVICE int num_buckets() const { return num_prefixes * select_digit_bins + 1; }
};

}  // namespace bkt::dist::detail
