// Host-memory histograms: the GPU when one is usable, the CPU reference otherwise.
#include <algorithm>

#include "bkt/detail/histogram/arguments.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/histogram.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/multisplit.hpp"
#include "../host_backend.hpp"
#include "bkt/types.hpp"

namespace bkt {

std::size_t histogram_workspace_bytes(std::int64_t bins, bool) {
  BKT_EXPECTS(bins >= 1 && bins <= histogram_max_bins, "histogram_workspace_bytes: bins outside [1, 2^24]");
  return detail::histogram::workspace_bytes;
}

namespace host {
namespace {

/// Runs `call(d_data, d_counts, d_outside, ws, stream)` on device copies; returns the outside count.
template <class T, class Call>
std::int64_t on_gpu(std::span<const T> data, std::span<std::int64_t> counts, Call call) {
  const detail::call_stream stream;
  workspace ws;
  auto d_data = to_device(data, stream);
  device_buffer<std::int64_t> d_counts(static_cast<std::int64_t>(counts.size()), stream);
  device_buffer<std::int64_t> d_outside(1, stream);
  call(d_data.span(), d_counts.span(), d_outside.data(), ws, stream);
  BKT_CUDA_CHECK(cudaMemcpyAsync(counts.data(), d_counts.data(), d_counts.size_bytes(), cudaMemcpyDeviceToHost, stream));
  return read_sync(d_outside.data(), stream);
}

}  // namespace

template <class T>
std::int64_t histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts,
                            histogram_level<T> lo, histogram_level<T> hi, backend where,
                            edge_precision precision) {
  const auto bins = bkt::detail::histogram::checked_even_bins<T>(counts.size(), lo, hi, precision);
  if (!detail::use_gpu(where)) return ref::histogram<T>(data, counts, bins);
  return on_gpu<T>(data, counts, [&](std::span<const T> d_data, std::span<std::int64_t> d_counts,
                                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
    bkt::histogram_even<T>(d_data, d_counts, lo, hi, precision, d_outside, ws, stream);
  });
}

template <class T>
std::int64_t histogram_range(std::span<const std::type_identity_t<T>> data,
                             std::span<const std::type_identity_t<T>> edges, std::span<std::int64_t> counts,
                             backend where) {
  const auto bins = bkt::detail::histogram::checked_range_bins<T>(counts.size(), edges);
  BKT_EXPECTS(std::is_sorted(edges.begin(), edges.end()), "histogram_range: edges must be ascending");
  if (!detail::use_gpu(where)) return ref::histogram<T>(data, counts, bins);
  return on_gpu<T>(data, counts, [&](std::span<const T> d_data, std::span<std::int64_t> d_counts,
                                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
    auto d_edges = to_device(edges, stream);
    bkt::histogram_range<T>(d_data, d_edges.span(), d_counts, d_outside, ws, stream);
  });
}

#define BKT_INSTANTIATE(T)                                                                                   \
  template std::int64_t histogram_even<T>(std::span<const T>, std::span<std::int64_t>, histogram_level<T>,    \
                                          histogram_level<T>, backend, edge_precision);                                        \
  template std::int64_t histogram_range<T>(std::span<const T>, std::span<const T>, std::span<std::int64_t>,   \
                                           backend);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace host
}  // namespace bkt
