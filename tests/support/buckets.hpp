// Bucket functors and per-type parameters shared by the multisplit and histogram tests (plain C++;
// the functors also run on the GPU). Parameters put keys below, inside and above each range.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "bkt/buckets.hpp"
#include "bkt/config.hpp"
#include "bkt/detail/radix_bits.hpp"
#include "generators.hpp"

namespace bkt::test {

/// A radix digit from the middle of the key: 8 bits (6 for one-byte keys).
template <class T>
bkt::bit_range_buckets<T> middle_digit() {
  if constexpr (sizeof(T) == 1) return {2, 6};
  else return {static_cast<int>(4 * sizeof(T)) - 3, 8};
}

/// The top 8 bits: sign and exponent of floats, so NaN, inf and -0.0 get buckets of their own.
template <class T>
bkt::bit_range_buckets<T> top_digit() {
  return {static_cast<int>(8 * sizeof(T)) - 8, 8};
}

/// 97 buckets starting inside T's range (floats: at -1e5, 2e3 wide), so that keys fall below the
/// first bucket, in every bucket and above the last.
template <class T>
bkt::delta_buckets<T> delta_for() {
  if constexpr (std::is_floating_point_v<T>) {
    return {.lo = T(-1e5), .delta = T(2e3), .buckets = 97};
  } else {
    using limits = std::numeric_limits<T>;
    const T lo = std::is_signed_v<T> ? static_cast<T>(limits::lowest() / 2) : static_cast<T>(limits::max() / 4);
    const std::uint64_t delta = std::max<std::uint64_t>(static_cast<std::uint64_t>(limits::max()) / 64, 1);
    return {.lo = lo, .delta = delta, .buckets = 97};
  }
}

/// `count` sorted splitters drawn from the uniform generator, every fifth one repeated (empty
/// buckets between equal splitters); never NaN.
template <class T>
std::vector<T> sorted_splitters(int count, std::uint64_t seed) {
  std::vector<T> splitters = generators<T>()[0].make(count, seed);
  std::sort(splitters.begin(), splitters.end());
  for (int i = 5; i < count; i += 5) splitters[i] = splitters[i - 1];
  return splitters;
}

/// A user functor: key % 7 for integers (negative for negative keys) and (radix bits % 7) - 1 for
/// floats, so with 5 buckets some ids fall below 0 or past the end and go to the last bucket.
struct mod_seven {
  template <class T>
  BKT_HOST_DEVICE int operator()(const T& key) const {
    if constexpr (std::is_floating_point_v<T>) return static_cast<int>(bkt::detail::radix_bits(key) % 7u) - 1;
    else return static_cast<int>(key % 7);
  }
};
inline constexpr int mod_seven_buckets = 5;

/// A 32-bit mixer (lowbias32): spreads any key set across buckets.
BKT_HOST_DEVICE inline std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/// hash(key) % num_buckets for 32-bit keys.
struct hash_buckets {
  std::uint32_t num_buckets = 1;
  BKT_HOST_DEVICE int operator()(std::uint32_t key) const { return static_cast<int>(mix32(key) % num_buckets); }
};

/// Histogram limits per type: the middle three quarters of an integer type's range, [-5e5, 5e5)
/// for floats (the uniform generator spans +-1e6), so some keys fall outside on both sides.
template <class T>
std::pair<T, T> histogram_limits() {
  if constexpr (std::is_floating_point_v<T>) {
    return {T(-5e5), T(5e5)};
  } else {
    using limits = std::numeric_limits<T>;
    const double lo = static_cast<double>(limits::lowest()), hi = static_cast<double>(limits::max());
    return {static_cast<T>(lo + (hi - lo) / 8), static_cast<T>(hi - (hi - lo) / 8)};
  }
}

}  // namespace bkt::test
