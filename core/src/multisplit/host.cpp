// Host-memory multisplit: the GPU when one is usable, the CPU reference otherwise.
#include "bkt/detail/multisplit/arguments.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/multisplit.hpp"
#include "bkt/ref/multisplit.hpp"
#include "../host_backend.hpp"
#include "bkt/types.hpp"

namespace bkt::host {
namespace {

/// The functor as the GPU needs it: tables it points to copied into `table`.
template <class Fn>
Fn on_device(const Fn& fn, device_buffer<unsigned char>&, cudaStream_t) {
  return fn;
}

template <class Key>
splitter_buckets<Key> on_device(const splitter_buckets<Key>& fn, device_buffer<unsigned char>& table,
                                cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(fn.num_splitters) * sizeof(Key);
  table = to_device(std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(fn.splitters), bytes), stream);
  return {reinterpret_cast<const Key*>(table.data()), fn.num_splitters};
}

template <class T>
void copy_back(std::span<T> host, const device_buffer<T>& device, cudaStream_t stream) {
  if (device.size() > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

}  // namespace

template <class Key, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                std::span<std::int64_t> bucket_offsets, int num_buckets, BucketFn bucket_of, backend where) {
  bkt::detail::multisplit::check_common<Key>("multisplit", keys_in, bucket_offsets, num_buckets, bucket_of);
  BKT_EXPECTS(keys_out.size() >= keys_in.size(), "multisplit: output smaller than input");
  if (!detail::use_gpu(where)) return ref::multisplit<Key>(keys_in, keys_out, bucket_offsets, num_buckets, bucket_of);
  const detail::call_stream stream;
  workspace ws;
  device_buffer<unsigned char> table;
  const auto n = static_cast<std::int64_t>(keys_in.size());
  auto d_in = to_device(keys_in, stream);
  device_buffer<Key> d_out(n, stream);
  device_buffer<std::int64_t> d_offsets(num_buckets + 1, stream);
  bkt::multisplit<Key>(d_in.span(), d_out.span(), d_offsets.span(), num_buckets, on_device(bucket_of, table, stream),
                       ws, stream);
  copy_back(keys_out, d_out, stream);
  copy_back(bucket_offsets, d_offsets, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class Key, class Word, class BucketFn>
void detail::multisplit_pairs(std::span<const Key> keys_in, std::span<const Word> values_in, std::span<Key> keys_out,
                              std::span<Word> values_out, std::span<std::int64_t> bucket_offsets, int num_buckets,
                              BucketFn bucket_of, backend where) {
  bkt::detail::multisplit::check_common<Key>("multisplit", keys_in, bucket_offsets, num_buckets, bucket_of);
  BKT_EXPECTS(values_in.size() == keys_in.size(), "multisplit: keys and values differ in size");
  BKT_EXPECTS(keys_out.size() >= keys_in.size() && values_out.size() >= keys_in.size(),
              "multisplit: output smaller than input");
  if (!use_gpu(where))
    return ref::multisplit<Key, Word>(keys_in, values_in, keys_out, values_out, bucket_offsets, num_buckets, bucket_of);
  const call_stream stream;
  workspace ws;
  device_buffer<unsigned char> table;
  const auto n = static_cast<std::int64_t>(keys_in.size());
  auto d_keys = to_device(keys_in, stream);
  auto d_values = to_device(values_in, stream);
  device_buffer<Key> d_keys_out(n, stream);
  device_buffer<Word> d_values_out(n, stream);
  device_buffer<std::int64_t> d_offsets(num_buckets + 1, stream);
  bkt::multisplit<Key, Word>(d_keys.span(), d_values.span(), d_keys_out.span(), d_values_out.span(), d_offsets.span(),
                             num_buckets, on_device(bucket_of, table, stream), ws, stream);
  copy_back(keys_out, d_keys_out, stream);
  copy_back(values_out, d_values_out, stream);
  copy_back(bucket_offsets, d_offsets, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

#define BKT_INSTANTIATE_FN(K, Fn)                                                                               \
  template void multisplit<K, Fn<K>>(std::span<const K>, std::span<K>, std::span<std::int64_t>, int, Fn<K>,    \
                                     backend);                                                                  \
  template void detail::multisplit_pairs<K, std::uint32_t, Fn<K>>(                                             \
      std::span<const K>, std::span<const std::uint32_t>, std::span<K>, std::span<std::uint32_t>,              \
      std::span<std::int64_t>, int, Fn<K>, backend);                                                           \
  template void detail::multisplit_pairs<K, std::uint64_t, Fn<K>>(                                             \
      std::span<const K>, std::span<const std::uint64_t>, std::span<K>, std::span<std::uint64_t>,              \
      std::span<std::int64_t>, int, Fn<K>, backend);
#define BKT_INSTANTIATE(K)                     \
  BKT_INSTANTIATE_FN(K, bit_range_buckets)     \
  BKT_INSTANTIATE_FN(K, delta_buckets)         \
  BKT_INSTANTIATE_FN(K, splitter_buckets)
BKT_FOR_EACH_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_FN

}  // namespace bkt::host
