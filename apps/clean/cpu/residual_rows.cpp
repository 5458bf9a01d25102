#include "cpu/residual_rows.hpp"

#include <cmath>

// GCC on x86-64 builds each hot loop twice, for AVX2+FMA and for the baseline, and picks one when
// the program loads; both give the same bits because fmaf is exactly rounded either way (the
// baseline calls libm). The loops are vectorised even at -O2 (GCC 12 -O2 only vectorises the
// cheapest loops).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BKT_CLEAN_HOT_LOOP \
  __attribute__((target_clones("arch=x86-64-v3", "default"), optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define BKT_CLEAN_HOT_LOOP
#endif

namespace bkt::clean::cpu {

BKT_CLEAN_HOT_LOOP
std::int32_t subtract_and_find_largest(float* residual, const float* psf, const std::uint8_t* candidates,
                                       std::int64_t count, float flux) {
  std::int32_t largest = no_candidate;
  if (candidates == nullptr) {
    for (std::int64_t i = 0; i < count; ++i) {
      const float value = std::fmaf(-flux, psf[i], residual[i]);
      residual[i] = value;
      const std::int32_t key = magnitude_key(value);
      largest = key > largest ? key : largest;
    }
    return largest;
  }
  for (std::int64_t i = 0; i < count; ++i) {
    const float value = std::fmaf(-flux, psf[i], residual[i]);
    residual[i] = value;
    const std::int32_t key = candidates[i] == 1 ? magnitude_key(value) : no_candidate;
    largest = key > largest ? key : largest;
  }
  return largest;
}

BKT_CLEAN_HOT_LOOP
std::int32_t find_largest(const float* values, const std::uint8_t* candidates, std::int64_t count) {
  std::int32_t largest = no_candidate;
  if (candidates == nullptr) {
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int32_t key = magnitude_key(values[i]);
      largest = key > largest ? key : largest;
    }
    return largest;
  }
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int32_t key = candidates[i] == 1 ? magnitude_key(values[i]) : no_candidate;
    largest = key > largest ? key : largest;
  }
  return largest;
}

std::int64_t find_first_with_key(const float* values, const std::uint8_t* candidates, std::int64_t count,
                                 std::int32_t key) {
  for (std::int64_t i = 0; i < count; ++i)
    if ((candidates == nullptr || candidates[i] == 1) && magnitude_key(values[i]) == key) return i;
  return count;
}

}  // namespace bkt::clean::cpu
