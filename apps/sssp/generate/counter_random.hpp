// Counter-based random numbers: the n-th draw of a stream is a pure function of (key, n), so each
// edge draws its own numbers and the graph does not depend on how many threads made it.
#pragma once

#include <cstdint>

namespace bkt::sssp::generate {

/// SplitMix64's output function (Steele, Lea, Flood: "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a bijective 64-bit mix with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/// The key of the stream a seed names, with a tag so that different uses of one seed (edges,
/// weights, the vertex permutation) draw unrelated numbers.
constexpr std::uint64_t stream_key(std::uint64_t seed, std::uint64_t tag) {
  return mix64(mix64(seed + 0x9e3779b97f4a7c15ull) ^ (tag * 0xd1b54a32d192ed03ull));
}

/// Draw number `counter` of stream `key`: SplitMix64 at position counter, offset by the key.
constexpr std::uint64_t random_bits(std::uint64_t key, std::uint64_t counter) {
  return mix64(key + (counter + 1) * 0x9e3779b97f4a7c15ull);
}

/// A value in [lo, hi] from 32 random bits by multiply-shift (Lemire 2019); the bias is below
/// (hi - lo + 1) / 2^32, far under what a test of the graphs could see.
constexpr std::uint32_t uniform_in(std::uint32_t bits, std::uint32_t lo, std::uint32_t hi) {
  const std::uint64_t range = std::uint64_t{hi} - lo + 1;
  return lo + static_cast<std::uint32_t>((std::uint64_t{bits} * range) >> 32);
}

}  // namespace bkt::sssp::generate
