// histogram_even, counted and weighted, for the data types of bkt/histogram.hpp.
#include "instantiate.hpp"

namespace bkt {

template <class T>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts,
                    histogram_level<T> lo, histogram_level<T> hi, edge_precision precision, std::int64_t* d_outside,
                    workspace& ws, cudaStream_t stream) {
  histogram<T>(data, counts, detail::histogram::checked_even_bins<T>(counts.size(), lo, hi, precision), d_outside, ws,
               stream);
}

template <class T, class W>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                    std::span<double> sums, histogram_level<T> lo, histogram_level<T> hi, edge_precision precision,
                    double* d_outside, workspace& ws, cudaStream_t stream) {
  histogram<T, W>(data, weights, sums, detail::histogram::checked_even_bins<T>(sums.size(), lo, hi, precision),
                  d_outside, ws, stream);
}

#define BKT_INSTANTIATE(T)                                                                                       \
  template void histogram_even<T>(std::span<const T>, std::span<std::int64_t>, histogram_level<T>,              \
                                  histogram_level<T>, edge_precision, std::int64_t*, workspace&, cudaStream_t);  \
  template void histogram_even<T, float>(std::span<const T>, std::span<const float>, std::span<double>,         \
                                         histogram_level<T>, histogram_level<T>, edge_precision, double*,        \
                                         workspace&, cudaStream_t);                                              \
  template void histogram_even<T, double>(std::span<const T>, std::span<const double>, std::span<double>,       \
                                          histogram_level<T>, histogram_level<T>, edge_precision, double*,       \
                                          workspace&, cudaStream_t);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
