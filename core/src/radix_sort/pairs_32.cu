// radix_sort_pairs, both forms, with 32-bit values, for every key type of bkt/radix_sort.hpp.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt::detail {
#define BKT_INSTANTIATE(K)                                                                                       \
  template void radix_sort_pairs<K, std::uint32_t>(std::span<const K>, std::span<const std::uint32_t>,     \
                                                   std::span<K>, std::span<std::uint32_t>, workspace&,       \
                                                   cudaStream_t, const radix_sort_options&);                  \
  template void radix_sort_pairs<K, std::uint32_t>(double_buffer<K>&, double_buffer<std::uint32_t>&,       \
                                                   workspace&, cudaStream_t, const radix_sort_options&);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt::detail
