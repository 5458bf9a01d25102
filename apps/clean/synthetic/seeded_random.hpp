// Random numbers that are the same on every platform for a seed: std::mt19937_64 is fully
// specified, but the standard distributions are not, so the two used here are written out.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace bkt::clean::synthetic {

class seeded_random {
 public:
  explicit seeded_random(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  /// Uniform in [low, high).
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  /// Standard normal (Box-Muller; 1 - uniform() is never 0).
  double normal() {
    const double radius = std::sqrt(-2 * std::log(1 - uniform()));
    return radius * std::cos(2 * std::numbers::pi * uniform());
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace bkt::clean::synthetic
