// radix_sort_keys, both forms, for every key type of bkt/radix_sort.hpp.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt {
#define BKT_INSTANTIATE(K)                                                                                       \
  template void radix_sort_keys<K>(std::span<const K>, std::span<K>, workspace&, cudaStream_t,                  \
                                   const radix_sort_options&);                                                  \
  template void radix_sort_keys<K>(double_buffer<K>&, workspace&, cudaStream_t, const radix_sort_options&);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt
