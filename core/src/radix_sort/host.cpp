// Host-memory radix sort: the GPU when one is usable, the parallel CPU radix sort otherwise.
#include "bkt/detail/arguments.hpp"
#include "bkt/detail/radix_sort/plan.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/radix_sort.hpp"
#include "../host_backend.hpp"
#include "cpu_sort.hpp"
#include "bkt/types.hpp"

namespace bkt::host {
namespace {

template <class T>
void copy_back(std::span<T> host, const device_buffer<T>& device, cudaStream_t stream) {
  if (device.size() > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

/// Validates the options the same way on both paths (bkt::error for a bad bit range or width).
template <class Key>
void check_options(const radix_sort_options& options) {
  (void)bkt::detail::radix_sort::make_plan(sizeof(Key), options);
}

}  // namespace

template <class Key>
void radix_sort_keys(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                     const radix_sort_options& options, backend where) {
  check_options<Key>(options);
  bkt::detail::expect_capacity("radix_sort_keys", "key output", keys_out, keys_in.size());
  if (!detail::use_gpu(where))
    return bkt::detail::radix_sort_cpu::sort<Key, void>(
        {keys_in.data(), keys_out.data(), nullptr, nullptr, static_cast<std::int64_t>(keys_in.size())}, options);
  const detail::call_stream stream;
  workspace ws;
  auto d_in = to_device(keys_in, stream);
  device_buffer<Key> d_out(d_in.size(), stream);
  bkt::radix_sort_keys<Key>(d_in.span(), d_out.span(), ws, stream, options);
  copy_back(keys_out, d_out, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class Key, class Word>
void detail::radix_sort_pairs(std::span<const Key> keys_in, std::span<const Word> values_in, std::span<Key> keys_out,
                              std::span<Word> values_out, const radix_sort_options& options, backend where) {
  check_options<Key>(options);
  bkt::detail::expect_same_size("radix_sort_pairs", "keys", keys_in.size(), "values", values_in.size());
  bkt::detail::expect_capacity("radix_sort_pairs", "key output", keys_out, keys_in.size());
  bkt::detail::expect_capacity("radix_sort_pairs", "value output", values_out, keys_in.size());
  if (!use_gpu(where))
    return bkt::detail::radix_sort_cpu::sort<Key, Word>({keys_in.data(), keys_out.data(), values_in.data(),
                                                          values_out.data(), static_cast<std::int64_t>(keys_in.size())},
                                                         options);
  const call_stream stream;
  workspace ws;
  auto d_keys = to_device(keys_in, stream);
  auto d_values = to_device(values_in, stream);
  device_buffer<Key> d_keys_out(d_keys.size(), stream);
  device_buffer<Word> d_values_out(d_keys.size(), stream);
  bkt::radix_sort_pairs<Key, Word>(d_keys.span(), d_values.span(), d_keys_out.span(), d_values_out.span(), ws, stream,
                                   options);
  copy_back(keys_out, d_keys_out, stream);
  copy_back(values_out, d_values_out, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class Key, class Index>
void radix_sort_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, const radix_sort_options& options, backend where) {
  check_options<Key>(options);
  if (!keys_out.empty()) bkt::detail::expect_capacity("radix_sort_indices", "key output", keys_out, keys_in.size());
  bkt::detail::expect_capacity("radix_sort_indices", "index output", indices_out, keys_in.size());
  BKT_EXPECTS(sizeof(Index) >= 8 || keys_in.size() <= (std::size_t{1} << 32),
              "radix_sort_indices: 32-bit indices need at most 2^32 keys");
  if (!detail::use_gpu(where))
    return bkt::detail::radix_sort_cpu::sort<Key, Index>(
        {keys_in.data(), keys_out.empty() ? nullptr : keys_out.data(), nullptr, indices_out.data(),
         static_cast<std::int64_t>(keys_in.size())},
        options);
  const detail::call_stream stream;
  workspace ws;
  auto d_in = to_device(keys_in, stream);
  device_buffer<Key> d_keys_out(keys_out.empty() ? 0 : d_in.size(), stream);
  device_buffer<Index> d_indices(d_in.size(), stream);
  bkt::radix_sort_indices<Key, Index>(d_in.span(), d_keys_out.span(), d_indices.span(), ws, stream, options);
  copy_back(keys_out, d_keys_out, stream);
  copy_back(indices_out, d_indices, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

#define BKT_INSTANTIATE(K)                                                                                           \
  template void radix_sort_keys<K>(std::span<const K>, std::span<K>, const radix_sort_options&, backend);          \
  template void detail::radix_sort_pairs<K, std::uint32_t>(std::span<const K>, std::span<const std::uint32_t>,     \
                                                           std::span<K>, std::span<std::uint32_t>,                 \
                                                           const radix_sort_options&, backend);                    \
  template void detail::radix_sort_pairs<K, std::uint64_t>(std::span<const K>, std::span<const std::uint64_t>,     \
                                                           std::span<K>, std::span<std::uint64_t>,                 \
                                                           const radix_sort_options&, backend);                    \
  template void radix_sort_indices<K, std::uint32_t>(std::span<const K>, std::span<K>, std::span<std::uint32_t>,   \
                                                     const radix_sort_options&, backend);                          \
  template void radix_sort_indices<K, std::int64_t>(std::span<const K>, std::span<K>, std::span<std::int64_t>,     \
                                                    const radix_sort_options&, backend);
BKT_FOR_EACH_RADIX_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt::host
