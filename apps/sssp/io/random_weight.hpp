// Random edge weights that depend only on (seed, edge index), never on how the work was split.
#pragma once

#include <cstdint>

namespace bkt::sssp::detail {

/// splitmix64's finalizer (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): every input bit affects every output bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The weight of input edge `index` (0-based, in file order): lo + hash % (hi - lo + 1), where
/// hash mixes the seed and the index like splitmix64's stream (seed + (index + 1) * golden gamma).
constexpr std::uint32_t random_weight(std::uint64_t seed, std::uint64_t index, std::uint32_t lo, std::uint32_t hi) {
  const std::uint64_t span = std::uint64_t{hi} - lo + 1;
  const std::uint64_t hash = mix64(seed + (index + 1) * 0x9e3779b97f4a7c15ULL);
  return static_cast<std::uint32_t>(lo + hash % span);
}

}  // namespace bkt::sssp::detail
