// SampleSelect's device pieces beside the library's count and compaction passes: the splitter
// search tree in shared memory (the count kernel binds it once per block) and the sample gather.
#pragma once

#include <cstdint>

#include "bkt/detail/multisplit/shared_table.cuh"
#include "bkt/detail/select/splitter_buckets.hpp"

namespace bkt::detail::multisplit {

/// The count pass searches a shared copy of a level's splitters, as for splitter_buckets.
template <class W>
struct shared_table<select::splitter_tree<W>> {
  using fn = select::splitter_tree<W>;
  using search = shared_table<splitter_buckets<W>>;
  static std::size_t bytes(const fn& f) { return search::bytes(f.search); }
  __device__ static fn bind(const fn& f, unsigned char* shared) { return fn{search::bind(f.search, shared), f.range}; }
};

}  // namespace bkt::detail::multisplit

namespace bkt::detail::select {

/// splitmix64's finalizer: independent positions from (seed, i).
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The i-th of a sample's positions, drawn uniformly with replacement from [0, size).
__device__ inline std::uint64_t sample_position(std::uint64_t seed, int i, std::int64_t size) {
  return __umul64hi(mix64(seed + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(i + 1)),
                    static_cast<std::uint64_t>(size));
}

/// out[i] = data[p_i] for `count` sample positions p_i.
template <class T>
__global__ void gather_sample_kernel(const T* data, std::int64_t size, int count, std::uint64_t seed, T* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = data[sample_position(seed, i, size)];
}

}  // namespace bkt::detail::select
