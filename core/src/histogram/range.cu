// histogram_range, counted and weighted, for the data types of bkt/histogram.hpp.
#include "instantiate.hpp"

namespace bkt {

template <class T>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<T>> edges,
                     std::span<std::int64_t> counts, std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  histogram<T>(data, counts, detail::histogram::checked_range_bins<T>(counts.size(), edges), d_outside, ws, stream);
}

template <class T, class W>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                     std::span<const std::type_identity_t<T>> edges, std::span<double> sums, double* d_outside,
                     workspace& ws, cudaStream_t stream) {
  histogram<T, W>(data, weights, sums, detail::histogram::checked_range_bins<T>(sums.size(), edges), d_outside, ws, stream);
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
