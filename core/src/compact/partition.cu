// Key-only stable_partition for the element types of bkt/compact.hpp.
#include "bkt/compact.cuh"
#include "bkt/types.hpp"

namespace bkt {

template <class T>
void stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
                      compare_with<T> pred, workspace& ws, cudaStream_t stream) {
  stable_partition<T, compare_with<T>>(in, out, d_num_selected, pred, ws, stream);
}

#define BKT_INSTANTIATE(T)                                                                                       \
  template void stable_partition<T>(std::span<const T>, std::span<T>, std::int64_t*, compare_with<T>, workspace&, \
                                    cudaStream_t);
BKT_FOR_EACH_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
