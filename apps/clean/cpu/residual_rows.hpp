// The hot loops of Högbom's CLEAN on the CPU: subtract the shifted PSF from a run of residual pixels
// and find their largest |value| in the same pass.
//
// A magnitude is compared as an integer key: the bits of |value| (sign cleared). For non-NaN
// floats that order is the order of |value| (-0 and +0 tie), and an integer max vectorises where a
// float max with NaN rules does not. Pixels that may not take a component get no_candidate.
#pragma once

#include <cstdint>
#include <cstring>

namespace bkt::clean::cpu {

inline constexpr std::int32_t no_candidate = -1;

/// The order key of |value| (see above).
inline std::int32_t magnitude_key(float value) {
  std::int32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits & 0x7fffffff;
}

/// The float whose magnitude key is `key` (key >= 0).
inline float magnitude_of_key(std::int32_t key) {
  float value;
  std::memcpy(&value, &key, sizeof value);
  return value;
}

/// residual[i] = fmaf(-flux, psf[i], residual[i]) for i < count (NaN stays NaN); returns the
/// largest key over the candidates (candidates[i] == 1) among them, or no_candidate.
std::int32_t subtract_and_find_largest(float* residual, const float* psf, const std::uint8_t* candidates,
                                       std::int64_t count, float flux);

/// The largest key over the candidates among count values, or no_candidate.
std::int32_t find_largest(const float* values, const std::uint8_t* candidates, std::int64_t count);

/// The first i < count whose value is a candidate with this key (key >= 0); count if none.
std::int64_t find_first_with_key(const float* values, const std::uint8_t* candidates, std::int64_t count,
                                 std::int32_t key);

}  // namespace bkt::clean::cpu
