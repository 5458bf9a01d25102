// Key-value stable_partition for the key types of bkt/compact.hpp and 4- and 8-byte values.
#include "bkt/compact.cuh"
#include "bkt/types.hpp"

namespace bkt::detail {

template <class K, class W>
void stable_partition_pairs(std::span<const K> keys_in, std::span<const W> values_in, std::span<K> keys_out,
                            std::span<W> values_out, std::int64_t* d_num_selected, compare_with<K> pred,
                            workspace& ws, cudaStream_t stream) {
  bkt::stable_partition<K, W, compare_with<K>>(keys_in, values_in, keys_out, values_out, d_num_selected, pred, ws,
                                               stream);
}

#define BKT_INSTANTIATE_WORD(K, W)                                                                                \
  template void stable_partition_pairs<K, W>(std::span<const K>, std::span<const W>, std::span<K>, std::span<W>, \
                                             std::int64_t*, compare_with<K>, workspace&, cudaStream_t);
#define BKT_INSTANTIATE(K) BKT_INSTANTIATE_WORD(K, std::uint32_t) BKT_INSTANTIATE_WORD(K, std::uint64_t)
BKT_FOR_EACH_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_WORD

}  // namespace bkt::detail
