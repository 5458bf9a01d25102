// Host-memory selection: the GPU when one is usable, the CPU reference (bkt/ref/select.hpp)
// otherwise. Both paths check the arguments the same way and throw bkt::error.
#include <limits>
#include <string>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/select/arguments.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/select.hpp"
#include "bkt/select.hpp"
#include "../host_backend.hpp"
#include "bkt/types.hpp"

namespace bkt::host {
namespace {

using namespace bkt::detail::select;

template <class T>
void copy_back(std::span<T> host, const device_buffer<T>& device, cudaStream_t stream) {
  if (device.size() > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

}  // namespace

template <class T>
T select_kth(std::span<const std::type_identity_t<T>> data, std::int64_t k, const select_options& options,
             backend where) {
  bkt::detail::expect_data("select_kth", "data", data);
  expect_rank("select_kth", k, data.size());
  if (!detail::use_gpu(where)) return ref::select_kth<T>(data, k);
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  device_buffer<T> d_result(1, stream);
  bkt::select_kth<T>(d_data.span(), k, d_result.data(), ws, stream, options);
  return read_sync(d_result.data(), stream);
}

template <class T>
void multiselect(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                 std::span<T> results, const select_options& options, backend where) {
  check_multiselect<T>(data, ranks, results);
  if (ranks.empty()) return;
  if (!detail::use_gpu(where)) return ref::multiselect<T>(data, ranks, results);
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  device_buffer<T> d_results(static_cast<std::int64_t>(ranks.size()), stream);
  bkt::multiselect<T>(d_data.span(), ranks, d_results.span(), ws, stream, options);
  copy_back(results, d_results, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class T>
approx_selection<T> approx_select(std::span<const std::type_identity_t<T>> data, std::int64_t k,
                                  const approx_select_options& options, backend where) {
  bkt::detail::expect_data("approx_select", "data", data);
  expect_rank("approx_select", k, data.size());
  expect_approx_options(options);
  if (!detail::use_gpu(where)) return ref::approx_select<T>(data, k);
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  device_buffer<approx_selection<T>> d_result(1, stream);
  bkt::approx_select<T>(d_data.span(), k, d_result.data(), ws, stream, options);
  return read_sync(d_result.data(), stream);
}

template <class T, class Index>
void top_k(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, const top_k_options& options, backend where) {
  check_top_k<T>("top_k", data, k, "values_out", values_out, "indices_out", indices_out);
  expect_index_fits<Index>("top_k", data.size());
  if (k == 0 || (values_out.empty() && indices_out.empty())) return;
  if (!detail::use_gpu(where)) return ref::top_k<T, Index>(data, k, values_out, indices_out, options);
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  device_buffer<T> d_values(values_out.empty() ? 0 : k, stream);
  device_buffer<Index> d_indices(indices_out.empty() ? 0 : k, stream);
  bkt::top_k<T, Index>(d_data.span(), k, d_values.span(), d_indices.span(), ws, stream, options);
  copy_back(values_out, d_values, stream);
  copy_back(indices_out, d_indices, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class T, class Index>
void top_k_batched(std::span<const std::type_identity_t<T>> data, std::int64_t rows, std::int64_t k,
                   std::span<T> values_out, std::span<Index> indices_out, const top_k_options& options,
                   backend where) {
  check_top_k_batched<T, Index>(data, rows, k, values_out, indices_out);
  const std::size_t selected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(k);
  if (selected == 0 || (values_out.empty() && indices_out.empty())) return;
  if (!detail::use_gpu(where)) return ref::top_k_batched<T, Index>(data, rows, k, values_out, indices_out, options);
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  const auto count = static_cast<std::int64_t>(selected);
  device_buffer<T> d_values(values_out.empty() ? 0 : count, stream);
  device_buffer<Index> d_indices(indices_out.empty() ? 0 : count, stream);
  bkt::top_k_batched<T, Index>(d_data.span(), rows, k, d_values.span(), d_indices.span(), ws, stream, options);
  copy_back(values_out, d_values, stream);
  copy_back(indices_out, d_indices, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

#define BKT_INSTANTIATE_INDEX(T, I)                                                                                  \
  template void top_k<T, I>(std::span<const T>, std::int64_t, std::span<T>, std::span<I>, const top_k_options&,    \
                            backend);                                                                              \
  template void top_k_batched<T, I>(std::span<const T>, std::int64_t, std::int64_t, std::span<T>, std::span<I>,    \
                                    const top_k_options&, backend);
#define BKT_INSTANTIATE(T)                                                                                           \
  template T select_kth<T>(std::span<const T>, std::int64_t, const select_options&, backend);                       \
  template void multiselect<T>(std::span<const T>, std::span<const std::int64_t>, std::span<T>,                     \
                               const select_options&, backend);                                                    \
  template approx_selection<T> approx_select<T>(std::span<const T>, std::int64_t, const approx_select_options&,     \
                                                backend);                                                          \
  BKT_INSTANTIATE_INDEX(T, std::uint32_t)                                                                            \
  BKT_INSTANTIATE_INDEX(T, std::int64_t)
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_INDEX

}  // namespace bkt::host
