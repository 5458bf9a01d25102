// bkt::dist::sort_pairs for every radix sort key type and 4- and 8-byte values.
#include "bkt/types.hpp"
#include "sort.cuh"

namespace bkt::dist::detail {

template <class Key, class Word>
sort_result sort_pairs(const communicator& comm, std::span<const Key> keys_in, std::span<const Word> values_in,
                       std::span<Key> keys_out, std::span<Word> values_out, workspace& ws, cudaStream_t stream,
                       const sort_options& options) {
  return run_sort<Key, Word>(comm, keys_in, values_in, keys_out, values_out, payload::values, ws, stream, options,
                             "bkt::dist::sort_pairs");
}

#define BKT_INSTANTIATE_WORD(Key, Word)                                                                          \
  template sort_result sort_pairs<Key, Word>(const communicator&, std::span<const Key>, std::span<const Word>, \
                                             std::span<Key>, std::span<Word>, workspace&, cudaStream_t,        \
                                             const sort_options&);
#define BKT_INSTANTIATE(Key)                   \
  BKT_INSTANTIATE_WORD(Key, std::uint32_t) \
  BKT_INSTANTIATE_WORD(Key, std::uint64_t)
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_WORD

}  // namespace bkt::dist::detail
