// top_k (uint32 and int64 positions) and top_k_pairs (4- and 8-byte values), and their baselines
// (bkt/detail/select/baselines.hpp), for every selection type.
#include "bkt/types.hpp"
#include "single.cuh"

namespace bkt {
#define BKT_INSTANTIATE_INDEX(T, I)                                                                          \
  template void top_k<T, I>(std::span<const T>, std::int64_t, std::span<T>, std::span<I>, workspace&,       \
                            cudaStream_t, const top_k_options&);                                            \
  template void detail::top_k_baseline<T, I>(std::span<const T>, std::int64_t, std::span<T>, std::span<I>,  \
                                             workspace&, cudaStream_t, detail::select_baseline,             \
                                             const top_k_options&);
#define BKT_INSTANTIATE_WORD(T, W)                                                                           \
  template void detail::top_k_pairs<T, W>(std::span<const T>, std::span<const W>, std::int64_t, std::span<T>, \
                                          std::span<W>, workspace&, cudaStream_t, const top_k_options&);    \
  template void detail::top_k_pairs_baseline_words<T, W>(std::span<const T>, std::span<const W>, std::int64_t, \
                                                         std::span<T>, std::span<W>, workspace&, cudaStream_t, \
                                                         detail::select_baseline, const top_k_options&);
#define BKT_INSTANTIATE(T)                   \
  BKT_INSTANTIATE_INDEX(T, std::uint32_t)    \
  BKT_INSTANTIATE_INDEX(T, std::int64_t)     \
  BKT_INSTANTIATE_WORD(T, std::uint32_t)     \
  BKT_INSTANTIATE_WORD(T, std::uint64_t)
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_WORD
#undef BKT_INSTANTIATE_INDEX
}  // namespace bkt
