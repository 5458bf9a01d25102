// Host-memory selection: the GPU when one is usable, the CPU reference (bkt/ref/select.hpp)
// otherwise. Both paths check the arguments the same way and throw bkt::error.
#include <limits>
#include <string>

#include "bkt/detail/arguments.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/select.hpp"
#include "bkt/select.hpp"
#include "../host_backend.hpp"
#include "bkt/detail/key_types.hpp"

namespace bkt::host {
namespace {

template <class T>
void copy_back(std::span<T> host, const device_buffer<T>& device, cudaStream_t stream) {
  if (device.size() > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.size_bytes(), cudaMemcpyDeviceToHost, stream));
}

/// 0 <= k < n: a rank.
void expect_rank(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) >= n)
    bkt::detail::throw_argument(std::string(call) + ": rank " + std::to_string(k) + " is outside [0, " +
                                std::to_string(n) + ")");
}

/// 0 <= k <= n: a count of elements to keep.
void expect_k(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) > n)
    bkt::detail::throw_argument(std::string(call) + ": k = " + std::to_string(k) + " is outside [0, " +
                                std::to_string(n) + "]");
}

/// An output that is either empty (skipped) or holds at least `needed` elements.
template <class U>
void expect_room(const char* call, const char* name, std::span<U> out, std::size_t needed) {
  bkt::detail::expect_data(call, name, out);
  if (!out.empty() && out.size() < needed)
    bkt::detail::throw_argument(std::string(call) + ": " + name + " holds " + std::to_string(out.size()) +
                                " elements, fewer than the " + std::to_string(needed) + " selected");
}

/// Positions in [0, n) must fit in Index.
template <class Index>
void expect_index_fits(const char* call, std::size_t n) {
  if (n > 0 && static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
    bkt::detail::throw_argument(std::string(call) + ": " + std::to_string(n) +
                                " positions do not fit the index type; use std::int64_t indices");
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
  bkt::detail::expect_data("multiselect", "data", data);
  bkt::detail::expect_data("multiselect", "ranks", ranks);
  bkt::detail::expect_capacity("multiselect", "results", results, ranks.size());
  for (const std::int64_t k : ranks) expect_rank("multiselect", k, data.size());
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
  if (options.candidates < 1 || options.sample_size < 1)
    bkt::detail::throw_argument("approx_select: candidates and sample_size must be positive");
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
  bkt::detail::expect_data("top_k", "data", data);
  expect_k("top_k", k, data.size());
  expect_room("top_k", "values_out", values_out, static_cast<std::size_t>(k));
  expect_room("top_k", "indices_out", indices_out, static_cast<std::size_t>(k));
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
  bkt::detail::expect_data("top_k_batched", "data", data);
  if (rows < 0 || (rows == 0 && !data.empty()) ||
      (rows > 0 && data.size() % static_cast<std::uint64_t>(rows) != 0))
    bkt::detail::throw_argument("top_k_batched: " + std::to_string(data.size()) + " elements do not make " +
                                std::to_string(rows) + " rows of equal length");
  const std::size_t cols = rows == 0 ? 0 : data.size() / static_cast<std::size_t>(rows);
  if (rows > 0) expect_k("top_k_batched", k, cols);
  if (k < 0) bkt::detail::throw_argument("top_k_batched: k = " + std::to_string(k) + " is negative");
  const std::size_t selected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(k);
  expect_room("top_k_batched", "values_out", values_out, selected);
  expect_room("top_k_batched", "indices_out", indices_out, selected);
  expect_index_fits<Index>("top_k_batched", cols);
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
