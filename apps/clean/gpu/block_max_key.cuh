// Maximum of 64-bit peak keys across a warp and across a block.
#pragma once

#include <cstdint>

namespace bkt::clean::gpu {

/// Every lane gets the warp's largest key: five butterfly steps.
__device__ inline std::uint64_t warp_max_key(std::uint64_t key) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    const std::uint64_t other = __shfl_xor_sync(0xffffffffu, static_cast<unsigned long long>(key), offset);
    key = other > key ? other : key;
  }
  return key;
}

/// Every thread gets the block's largest key. `warp_keys` holds one word per warp and `result`
/// one word, both in shared memory. Two barriers; safe to call again right away (warp 0 has read
/// warp_keys before the second barrier, and every thread reads *result before it can reach the
/// next call's first barrier, after which alone *result is rewritten).
__device__ inline std::uint64_t block_max_key(std::uint64_t key, std::uint64_t* warp_keys, std::uint64_t* result) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  key = warp_max_key(key);
  if (lane == 0) warp_keys[warp] = key;
  __syncthreads();
  if (warp == 0) {
    const int warps = (blockDim.x + 31) / 32;
    std::uint64_t mine = lane < warps ? warp_keys[lane] : 0;
    mine = warp_max_key(mine);
    if (lane == 0) *result = mine;
  }
  __syncthreads();
  return *result;
}

}  // namespace bkt::clean::gpu
