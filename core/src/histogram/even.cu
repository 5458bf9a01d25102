// histogram_even, counted and weighted, for the data types of bkt/histogram.hpp.
#include <cmath>
#include <string>

#include "instantiate.hpp"

namespace bkt {
namespace {

template <class T>
even_bins<T> checked_even_bins(std::size_t bins, histogram_level<T> lo, histogram_level<T> hi) {
  detail::histogram::check_bins("histogram_even", bins);
  BKT_EXPECTS(lo < hi, "histogram_even: the range [lo, hi) is empty (lo must be below hi)");
  if constexpr (std::is_integral_v<T>)
    BKT_EXPECTS(lo >= -(std::int64_t{1} << 40) && hi <= (std::int64_t{1} << 40),
                "histogram_even: integer bounds must lie within +-2^40");
  else
    BKT_EXPECTS(std::isfinite(hi - lo), "histogram_even: hi - lo must be finite");
  return even_bins<T>::make(lo, hi, static_cast<int>(bins));
}

}  // namespace

template <class T>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts, histogram_level<T> lo, histogram_level<T> hi,
                    std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  histogram<T>(data, counts, checked_even_bins<T>(counts.size(), lo, hi), d_outside, ws, stream);
}

template <class T, class W>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                    std::span<double> sums, histogram_level<T> lo, histogram_level<T> hi, double* d_outside, workspace& ws, cudaStream_t stream) {
  histogram<T, W>(data, weights, sums, checked_even_bins<T>(sums.size(), lo, hi), d_outside, ws, stream);
}

#define BKT_INSTANTIATE(T)                                                                                     \
  template void histogram_even<T>(std::span<const T>, std::span<std::int64_t>, histogram_level<T>, histogram_level<T>, std::int64_t*, workspace&, \
                                  cudaStream_t);                                                               \
  template void histogram_even<T, float>(std::span<const T>, std::span<const float>, std::span<double>, histogram_level<T>, histogram_level<T>,  \
                                         double*, workspace&, cudaStream_t);                                   \
  template void histogram_even<T, double>(std::span<const T>, std::span<const double>, std::span<double>, histogram_level<T>, histogram_level<T>, \
                                          double*, workspace&, cudaStream_t);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
