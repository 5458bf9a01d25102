// Benchmark inputs generated on the device: element i comes from a hash of i, so every run and
// every peer sees the same data without a host copy of 2^28 elements.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "bkt/error.hpp"

namespace bkt::bench {

/// 64 well-mixed bits from an index (the SplitMix64 finaliser, first two rounds).
__device__ inline std::uint64_t hashed_index(std::int64_t i) {
  std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h;
}

/// Element i of a benchmark input: integers uniform over their range, floats uniform in [0, 1)
/// (multiples of 2^-24, so never 1).
template <class T>
__device__ T uniform_key(std::int64_t i) {
  const std::uint64_t h = hashed_index(i);
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(h >> 40) * static_cast<T>(0x1.0p-24);
  else
    return static_cast<T>(h >> (64 - 8 * sizeof(T)));
}

/// uniform_key as a functor, for fill().
template <class T>
struct uniform_keys {
  __device__ T operator()(std::int64_t i) const { return uniform_key<T>(i); }
};

/// Positions as values: element i is i.
template <class T>
struct positions {
  __device__ T operator()(std::int64_t i) const { return static_cast<T>(i); }
};

template <class T, class Make>
__global__ void fill_kernel(T* out, std::int64_t n, Make make) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = make(i);
}

/// out[i] = make(i) for every i in [0, n), on `stream`; make is a device functor of the index.
template <class T, class Make>
void fill(T* out, std::int64_t n, Make make, cudaStream_t stream) {
  fill_kernel<<<1024, 256, 0, stream>>>(out, n, make);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::bench
