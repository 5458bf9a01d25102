// SampleSelect's device pieces beside the library's count and compaction passes: the splitter
// search tree in shared memory (the count kernel binds it once per block) and the sample gather.
#pragma once

#include <cstdint>

#include "bkt/detail/multisplit/shared_table.cuh"
#include "bkt/detail/select/splitter_buckets.hpp"

namespace bkt::detail::multisplit {

/// The count pass searches a shared copy of a level's splitters (at most 127 words).
template <class W>
struct shared_table<select::splitter_tree<W>> {
  using fn = select::splitter_tree<W>;
  static std::size_t bytes(const fn& f) { return sizeof(W) * static_cast<std::size_t>(f.count); }
  __device__ static fn bind(const fn& f, unsigned char* shared) {
    return fn{copy_table(f.splitters, static_cast<std::size_t>(f.count), shared), f.count, f.range};
  }
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

/// out[i] = data[p_i] for `count` positions drawn uniformly with replacement from [0, size), or
/// out[i] = data[i] when `whole` (the base case reads every element of a small level).
template <class T>
__global__ void gather_sample_kernel(const T* data, std::int64_t size, int count, std::uint64_t seed, bool whole,
                                     T* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const auto at = whole ? static_cast<std::uint64_t>(i)
                        : __umul64hi(mix64(seed + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(i + 1)),
                                     static_cast<std::uint64_t>(size));
  out[i] = data[at];
}

}  // namespace bkt::detail::select
