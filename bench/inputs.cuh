// Benchmark inputs generated on the device: element i comes from a hash of i, so every run and
// every peer sees the same data without a host copy of 2^28 elements.
#pragma once

#include <cstdint>

namespace bkt::bench {

/// 64 well-mixed bits from an index (the SplitMix64 finaliser, first two rounds).
__device__ inline std::uint64_t hashed_index(std::int64_t i) {
  std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h;
}

}  // namespace bkt::bench
