// select_kth, and its baselines (bkt/detail/select/baselines.hpp), for every selection type.
#include "bkt/types.hpp"
#include "single.cuh"

namespace bkt {
#define BKT_INSTANTIATE(T)                                                                                  \
  template void select_kth<T>(std::span<const T>, std::int64_t, T*, workspace&, cudaStream_t,               \
                              const select_options&);                                                       \
  template void detail::select_kth_baseline<T>(std::span<const T>, std::int64_t, T*, workspace&, cudaStream_t, \
                                               detail::select_baseline, const select_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
}  // namespace bkt
