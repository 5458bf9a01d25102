// Warp building blocks that work in registers: lane numbers and masks, a prefix sum and a sum over
// the 32 lanes. Device code only (nvcc). Every function that shuffles must be called by all 32
// lanes of the warp (full_warp_mask), with the warp converged.
#pragma once

#include <cstdint>

namespace bkt {

/// Threads of a warp.
inline constexpr int warp_threads = 32;
/// The mask of all 32 lanes, for the *_sync intrinsics.
inline constexpr unsigned full_warp_mask = 0xffffffffu;

/// This thread's lane in its warp, 0 to 31 (for one-dimensional blocks).
__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) & (warp_threads - 1); }

/// Bits of the lanes below this one.
__device__ __forceinline__ unsigned lane_mask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

/// Inclusive prefix sum over the warp's lanes. Callers pack several small counts into one word
/// (one 16-bit field each) so that a single five-step scan ranks them all.
__device__ __forceinline__ std::uint32_t warp_inclusive_sum(std::uint32_t value) {
#pragma unroll
  for (int offset = 1; offset < warp_threads; offset *= 2) {
    const std::uint32_t other = __shfl_up_sync(full_warp_mask, value, offset);
    if (lane_id() >= offset) value += other;
  }
  return value;
}

/// Sum of a 64-bit value over the warp, returned to every lane.
__device__ __forceinline__ std::uint64_t warp_sum(std::uint64_t value) {
#pragma unroll
  for (int offset = warp_threads / 2; offset > 0; offset /= 2)
    value += __shfl_xor_sync(full_warp_mask, value, offset);
  return value;
}

}  // namespace bkt
