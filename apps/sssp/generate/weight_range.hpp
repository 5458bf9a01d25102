// The integer weights a generator draws from.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace bkt::sssp::generate {

/// Weights uniform in [lo, hi], both included.
struct weight_range {
  std::uint32_t lo = 1;
  std::uint32_t hi = 1;
};

/// Throws std::invalid_argument when lo > hi.
inline void check_weight_range(const weight_range& weights) {
  if (weights.lo > weights.hi) throw std::invalid_argument("weight range: lo is above hi");
}

}  // namespace bkt::sssp::generate
