// Key-only select_if and select_flagged for the element types of bkt/compact.hpp.
#include "bkt/compact.cuh"
#include "bkt/types.hpp"

namespace bkt {

// Explicit template arguments pick the generic functor overload in bkt/compact.cuh.
template <class T>
void select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
               compare_with<T> pred, workspace& ws, cudaStream_t stream) {
  select_if<T, compare_with<T>>(in, out, d_num_selected, pred, ws, stream);
}

template <class T>
void select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const std::uint8_t> flags,
                    std::span<T> out, std::int64_t* d_num_selected, workspace& ws, cudaStream_t stream) {
  select_flagged<T, std::uint8_t>(in, flags, out, d_num_selected, ws, stream);
}

#define BKT_INSTANTIATE(T)                                                                                   \
  template void select_if<T>(std::span<const T>, std::span<T>, std::int64_t*, compare_with<T>, workspace&,   \
                             cudaStream_t);                                                                  \
  template void select_flagged<T>(std::span<const T>, std::span<const std::uint8_t>, std::span<T>,           \
                                  std::int64_t*, workspace&, cudaStream_t);
BKT_FOR_EACH_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
