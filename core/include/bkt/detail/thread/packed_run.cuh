// A thread's run of consecutive elements held as 32-bit words: small types then cost one register
// per four elements instead of one each, and a run loads with one vector instruction.
#pragma once

#include <cstdint>
#include <cstring>

namespace bkt::detail {

/// `Items` consecutive elements of T (1, 2, 4, 8 or 16 bytes). Index get/set with compile-time
/// constants only (unrolled loops), or the words move to local memory.
template <class T, int Items>
struct packed_run {
  static constexpr int bytes = Items * static_cast<int>(sizeof(T));
  static constexpr int words = (bytes + 3) / 4;
  /// Whether load() can use vector instructions (the source must be aligned to min(bytes, 16)).
  static constexpr bool vector_loadable = bytes == 4 || bytes == 8 || bytes % 16 == 0;
  static constexpr int alignment = bytes >= 16 ? 16 : bytes;

  std::uint32_t word[words];

  __device__ __forceinline__ T get(int i) const {
    T value;
    if constexpr (sizeof(T) % 4 == 0) {
      std::memcpy(&value, &word[i * static_cast<int>(sizeof(T) / 4)], sizeof(T));
    } else {
      const std::uint32_t bits = word[i * sizeof(T) / 4] >> (8 * (i * sizeof(T) % 4));
      std::memcpy(&value, &bits, sizeof(T));
    }
    return value;
  }

  __device__ __forceinline__ void set(int i, const T& value) {
    if constexpr (sizeof(T) % 4 == 0) {
      std::memcpy(&word[i * static_cast<int>(sizeof(T) / 4)], &value, sizeof(T));
    } else {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &value, sizeof(T));
      const int shift = 8 * static_cast<int>(i * sizeof(T) % 4);
      const std::uint32_t mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
      std::uint32_t& w = word[i * sizeof(T) / 4];
      w = (w & ~mask) | (bits << shift);
    }
  }

  /// All items from `p` with vector loads; requires vector_loadable and `alignment`.
  __device__ __forceinline__ void load_vector(const T* p) {
    static_assert(vector_loadable);
    if constexpr (bytes % 16 == 0) {
#pragma unroll
      for (int k = 0; k < bytes / 16; ++k) {
        const uint4 v = reinterpret_cast<const uint4*>(p)[k];
        word[4 * k] = v.x, word[4 * k + 1] = v.y, word[4 * k + 2] = v.z, word[4 * k + 3] = v.w;
      }
    } else if constexpr (bytes == 8) {
      const uint2 v = *reinterpret_cast<const uint2*>(p);
      word[0] = v.x, word[1] = v.y;
    } else {
      word[0] = *reinterpret_cast<const std::uint32_t*>(p);
    }
  }
};

}  // namespace bkt::detail
