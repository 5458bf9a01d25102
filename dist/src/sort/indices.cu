// bkt::dist::sort_indices for every radix sort key type and both index types.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt::dist {

template <class Key, class Index>
sort_result sort_indices(const communicator& comm, std::span<const std::type_identity_t<Key>> keys_in,
                         std::span<Key> keys_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                         const sort_options& options) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::int64_t>,
                "indices: std::uint32_t or std::int64_t");
  using word = detail::value_word<sizeof(Index)>;
  return detail::run_sort<Key, word>(comm, keys_in, {}, keys_out,
                                     {reinterpret_cast<word*>(indices_out.data()), indices_out.size()},
                                     detail::payload::positions, ws, stream, options, "bkt::dist::sort_indices");
}

#define BKT_INSTANTIATE_INDEX(Key, Index)                                                                       \
  template sort_result sort_indices<Key, Index>(const communicator&, std::span<const Key>, std::span<Key>, \
                                                std::span<Index>, workspace&, cudaStream_t, const sort_options&);
#define BKT_INSTANTIATE(Key)                    \
  BKT_INSTANTIATE_INDEX(Key, std::uint32_t) \
  BKT_INSTANTIATE_INDEX(Key, std::int64_t)
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_INDEX

}  // namespace bkt::dist
