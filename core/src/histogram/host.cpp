// Host-memory histograms: the GPU when one is usable, the CPU reference otherwise.
#include <algorithm>
#include <cmath>

#include "bkt/buckets.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/histogram.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/multisplit.hpp"
#include "../host_backend.hpp"

namespace bkt {

std::size_t histogram_workspace_bytes(std::int64_t bins, bool) {
  BKT_EXPECTS(bins >= 1 && bins <= histogram_max_bins, "histogram_workspace_bytes: bins outside [1, 2^24]");
  return sizeof(double);
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
std::int64_t histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts, histogram_level<T> lo, histogram_level<T> hi,
                            backend where) {
  BKT_EXPECTS(!counts.empty() && static_cast<std::int64_t>(counts.size()) <= histogram_max_bins,
              "histogram_even: bins outside [1, 2^24]");
  BKT_EXPECTS(lo < hi, "histogram_even: the range [lo, hi) is empty (lo must be below hi)");
  if constexpr (std::is_integral_v<T>)
    BKT_EXPECTS(lo >= -(std::int64_t{1} << 40) && hi <= (std::int64_t{1} << 40),
                "histogram_even: integer bounds must lie within +-2^40");
  else
    BKT_EXPECTS(std::isfinite(hi - lo), "histogram_even: hi - lo must be finite");
  if (!detail::use_gpu(where))
    return ref::histogram<T>(data, counts, even_bins<T>::make(lo, hi, static_cast<int>(counts.size())));
  return on_gpu<T>(data, counts, [&](std::span<const T> d_data, std::span<std::int64_t> d_counts,
                                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
    bkt::histogram_even<T>(d_data, d_counts, lo, hi, d_outside, ws, stream);
  });
}

template <class T>
std::int64_t histogram_range(std::span<const std::type_identity_t<T>> data,
                             std::span<const std::type_identity_t<T>> edges, std::span<std::int64_t> counts,
                             backend where) {
  BKT_EXPECTS(!counts.empty() && static_cast<std::int64_t>(counts.size()) <= histogram_max_bins,
              "histogram_range: bins outside [1, 2^24]");
  BKT_EXPECTS(edges.size() == counts.size() + 1, "histogram_range: edges must hold one more value than there are bins");
  BKT_EXPECTS(std::is_sorted(edges.begin(), edges.end()), "histogram_range: edges must be ascending");
  if (!detail::use_gpu(where))
    return ref::histogram<T>(data, counts, range_bins<T>{edges.data(), static_cast<int>(counts.size())});
  return on_gpu<T>(data, counts, [&](std::span<const T> d_data, std::span<std::int64_t> d_counts,
                                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
    auto d_edges = to_device(edges, stream);
    bkt::histogram_range<T>(d_data, d_edges.span(), d_counts, d_outside, ws, stream);
  });
}

#define BKT_INSTANTIATE(T)                                                                                 \
  template std::int64_t histogram_even<T>(std::span<const T>, std::span<std::int64_t>, histogram_level<T>, histogram_level<T>, backend);    \
  template std::int64_t histogram_range<T>(std::span<const T>, std::span<const T>, std::span<std::int64_t>, \
                                           backend);
BKT_INSTANTIATE(std::int8_t)
BKT_INSTANTIATE(std::uint8_t)
BKT_INSTANTIATE(std::int16_t)
BKT_INSTANTIATE(std::uint16_t)
BKT_INSTANTIATE(std::int32_t)
BKT_INSTANTIATE(std::uint32_t)
BKT_INSTANTIATE(float)
BKT_INSTANTIATE(double)
#undef BKT_INSTANTIATE

}  // namespace host
}  // namespace bkt
