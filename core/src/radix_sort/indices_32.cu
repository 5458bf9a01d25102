// radix_sort_indices with std::uint32_t indices, for every key type of bkt/radix_sort.hpp.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt {
#define BKT_INSTANTIATE(K)                                                                                      \
  template void radix_sort_indices<K, std::uint32_t>(std::span<const K>, std::span<K>, std::span<std::uint32_t>, workspace&,   \
                                             cudaStream_t, const radix_sort_options&);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt
