// top_k (uint32 and int64 positions) and top_k_pairs (4- and 8-byte values) for every selection type.
#include "bkt/detail/key_types.hpp"
#include "single.cuh"

namespace bkt {
#define BKT_INSTANTIATE(T)                                                                                        \
  template void top_k<T, std::uint32_t>(std::span<const T>, std::int64_t, std::span<T>, std::span<std::uint32_t>, \
                                        workspace&, cudaStream_t, const top_k_options&);                          \
  template void top_k<T, std::int64_t>(std::span<const T>, std::int64_t, std::span<T>, std::span<std::int64_t>,   \
                                       workspace&, cudaStream_t, const top_k_options&);                           \
  template void detail::top_k_pairs<T, std::uint32_t>(std::span<const T>, std::span<const std::uint32_t>,         \
                                                      std::int64_t, std::span<T>, std::span<std::uint32_t>,       \
                                                      workspace&, cudaStream_t, const top_k_options&);            \
  template void detail::top_k_pairs<T, std::uint64_t>(std::span<const T>, std::span<const std::uint64_t>,         \
                                                      std::int64_t, std::span<T>, std::span<std::uint64_t>,       \
                                                      workspace&, cudaStream_t, const top_k_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt
