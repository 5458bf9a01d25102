// histogram_range, counted and weighted, for the data types of bkt/histogram.hpp.
#include "instantiate.hpp"

namespace bkt {
namespace {

template <class T>
range_bins<T> checked_range_bins(std::size_t bins, std::span<const T> edges) {
  detail::histogram::check_bins("histogram_range", bins);
  detail::expect_data("histogram_range", "edges", edges);
  BKT_EXPECTS(edges.size() == bins + 1, "histogram_range: edges must hold one more value than there are bins");
  return range_bins<T>{edges.data(), static_cast<int>(bins)};
}

}  // namespace

template <class T>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<T>> edges,
                     std::span<std::int64_t> counts, std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  histogram<T>(data, counts, checked_range_bins<T>(counts.size(), edges), d_outside, ws, stream);
}

template <class T, class W>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                     std::span<const std::type_identity_t<T>> edges, std::span<double> sums, double* d_outside,
                     workspace& ws, cudaStream_t stream) {
  histogram<T, W>(data, weights, sums, checked_range_bins<T>(sums.size(), edges), d_outside, ws, stream);
}

#define BKT_INSTANTIATE(T)                                                                                      \
  template void histogram_range<T>(std::span<const T>, std::span<const T>, std::span<std::int64_t>,             \
                                   std::int64_t*, workspace&, cudaStream_t);                                     \
  template void histogram_range<T, float>(std::span<const T>, std::span<const float>, std::span<const T>,       \
                                          std::span<double>, double*, workspace&, cudaStream_t);                 \
  template void histogram_range<T, double>(std::span<const T>, std::span<const double>, std::span<const T>,     \
                                           std::span<double>, double*, workspace&, cudaStream_t);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
