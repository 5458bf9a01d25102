// The packed peak key: one 64-bit word per candidate pixel whose unsigned maximum is the Högbom
// choice (largest |R|, ties to the smallest pixel index) and which carries R itself exactly.
//
//   bits 63..32  |R| as float bits (sign cleared; a non-negative float's bits order like its value)
//   bits 31..1   0x7fffffff - index (the smaller index gives the larger key among equal |R|)
//   bit  0       the sign bit of R
//
// Because the key holds R[p] exactly (|R| bits plus the sign), the next launch reads the peak's
// value from the key and never from the residual, which its other blocks are already rewriting.
// 0 means "no candidate": every real key has index <= max_pixel_index, so bits 31..1 are >= 1.
#pragma once

#include <cstdint>
#include <cstring>

#include "bkt/config.hpp"

namespace bkt::clean::gpu {

/// Pixel indices must stay below this (and images at or below 2^30 pixels: see plane_geometry).
inline constexpr std::uint32_t max_pixel_index = 0x7ffffffeu;
inline constexpr std::uint64_t no_peak = 0;

BKT_HOST_DEVICE inline std::uint32_t float_bits(float value) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(value);
#else
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

BKT_HOST_DEVICE inline float bits_float(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

/// The key of a candidate pixel `index` holding the non-NaN residual `value`.
BKT_HOST_DEVICE inline std::uint64_t pack_peak(float value, std::uint32_t index) {
  const std::uint32_t bits = float_bits(value);
  return (std::uint64_t{bits & 0x7fffffffu} << 32) | (std::uint64_t{0x7fffffffu - index} << 1) | (bits >> 31);
}

/// |R| of a key (0 for no_peak).
BKT_HOST_DEVICE inline float peak_magnitude(std::uint64_t key) { return bits_float(static_cast<std::uint32_t>(key >> 32)); }

/// R, bit for bit, of a key.
BKT_HOST_DEVICE inline float peak_value(std::uint64_t key) {
  return bits_float(static_cast<std::uint32_t>(key >> 32) | (static_cast<std::uint32_t>(key & 1u) << 31));
}

/// The pixel index of a key.
BKT_HOST_DEVICE inline std::uint32_t peak_index(std::uint64_t key) {
  return 0x7fffffffu - (static_cast<std::uint32_t>(key) >> 1);
}

/// The largest key whose |R| <= level (level >= 0): the keys above it are those with |R| > level.
BKT_HOST_DEVICE inline std::uint64_t largest_key_at_or_below(float level) {
  return (std::uint64_t{float_bits(level) & 0x7fffffffu} << 32) | 0xffffffffu;
}

}  // namespace bkt::clean::gpu
