// radix_sort_indices with std::int64_t indices, for every key type of bkt/radix_sort.hpp.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt {
#define BKT_INSTANTIATE(K)                                                                                      \
  template void radix_sort_indices<K, std::int64_t>(std::span<const K>, std::span<K>, std::span<std::int64_t>, workspace&,   \
                                             cudaStream_t, const radix_sort_options&);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt
