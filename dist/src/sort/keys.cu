// bkt::dist::sort_keys for every radix sort key type.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt::dist {

template <class Key>
sort_result sort_keys(const communicator& comm, std::span<const std::type_identity_t<Key>> keys_in,
                      std::span<Key> keys_out, workspace& ws, cudaStream_t stream, const sort_options& options) {
  return detail::run_sort<Key, std::uint32_t>(comm, keys_in, {}, keys_out, {}, detail::payload::none, ws, stream,
                                              options, "bkt::dist::sort_keys");
}

#define BKT_INSTANTIATE(Key)                                                                                      \
  template sort_result sort_keys<Key>(const communicator&, std::span<const Key>, std::span<Key>, workspace&, \
                                      cudaStream_t, const sort_options&);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt::dist
