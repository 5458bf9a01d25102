// bkt::dist histograms: the single-GPU histogram on each rank, then one NCCL group that sums the
// bins and the outside count over the ranks.
#include <array>
#include <bit>
#include <cstring>
#include <exception>
#include <string>

#include "../comm/access.hpp"
#include "../comm/collectives.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/types.hpp"
#include "bkt/dist/histogram.hpp"
#include "bkt/histogram.hpp"

namespace bkt::dist {
namespace detail {
namespace {

/// A histogram bound as a word the ranks can compare (its bits; floats by their bit pattern).
template <class Level>
std::int64_t level_word(Level level) {
  std::int64_t word = 0;
  std::memcpy(&word, &level, sizeof(Level));
  return word;
}

/// Runs `local(outside)` (the single-GPU histogram into `bins`, its outside total into a workspace
/// slot), agrees with the other ranks, and sums bins and outside over them.
template <class Out, class Local>
void run_histogram(const communicator& comm, const char* call, std::int64_t items, std::span<Out> bins,
                   Out* d_outside, std::array<std::int64_t, agreed_words> parameters, workspace& ws,
                   cudaStream_t stream, const Local& local) {
  const device_scope scope(comm.device());
  call_record mine;
  mine.items = items;
  mine.agreed = parameters;
  static constexpr std::array<const char*, 5> names = {"the element size", "the bin count", "lo", "hi",
                                                       "the weight type"};
  std::exception_ptr local_error;
  Out* outside = nullptr;
  try {
    bkt::detail::expect_data(call, "bins", bins);
    outside = static_cast<Out*>(ws.own().reserve(sizeof(Out), stream));
    local(outside);
  } catch (const std::exception& e) {
    mine.status = classify(e);
    local_error = std::current_exception();
  }
  (void)agree_sync(comm, call, mine, names, local_error, stream);
  all_reduce_sum(comm, bins.data(), bins.size(), outside, 1, stream);
  if (d_outside != nullptr)
    BKT_CUDA_CHECK(cudaMemcpyAsync(d_outside, outside, sizeof(Out), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace
}  // namespace detail

template <class T>
void histogram_even(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                    std::span<std::int64_t> counts, histogram_level<T> lo, histogram_level<T> hi,
                    std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  detail::run_histogram<std::int64_t>(
      comm, "bkt::dist::histogram_even", static_cast<std::int64_t>(data.size()), counts, d_outside,
      {sizeof(T), static_cast<std::int64_t>(counts.size()), detail::level_word(lo), detail::level_word(hi), 0}, ws,
      stream, [&](std::int64_t* outside) {
        bkt::histogram_even<T>(data, counts, lo, hi, outside, ws.primitives(), stream);
      });
}

template <class T>
void histogram_range(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                     std::span<const std::type_identity_t<T>> edges, std::span<std::int64_t> counts,
                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  detail::run_histogram<std::int64_t>(
      comm, "bkt::dist::histogram_range", static_cast<std::int64_t>(data.size()), counts, d_outside,
      {sizeof(T), static_cast<std::int64_t>(counts.size()), 0, 0, 0}, ws, stream, [&](std::int64_t* outside) {
        bkt::histogram_range<T>(data, edges, counts, outside, ws.primitives(), stream);
      });
}

template <class T, class W>
void histogram_even(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                    std::span<const std::type_identity_t<W>> weights, std::span<double> sums, histogram_level<T> lo,
                    histogram_level<T> hi, double* d_outside, workspace& ws, cudaStream_t stream) {
  detail::run_histogram<double>(
      comm, "bkt::dist::histogram_even", static_cast<std::int64_t>(data.size()), sums, d_outside,
      {sizeof(T), static_cast<std::int64_t>(sums.size()), detail::level_word(lo), detail::level_word(hi), sizeof(W)},
      ws, stream, [&](double* outside) {
        bkt::histogram_even<T, W>(data, weights, sums, lo, hi, outside, ws.primitives(), stream);
      });
}

template <class T, class W>
void histogram_range(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                     std::span<const std::type_identity_t<W>> weights, std::span<const std::type_identity_t<T>> edges,
                     std::span<double> sums, double* d_outside, workspace& ws, cudaStream_t stream) {
  detail::run_histogram<double>(
      comm, "bkt::dist::histogram_range", static_cast<std::int64_t>(data.size()), sums, d_outside,
      {sizeof(T), static_cast<std::int64_t>(sums.size()), 0, 0, sizeof(W)}, ws, stream, [&](double* outside) {
        bkt::histogram_range<T, W>(data, weights, edges, sums, outside, ws.primitives(), stream);
      });
}

#define BKT_INSTANTIATE_WEIGHTED(T, W)                                                                             \
  template void histogram_even<T, W>(const communicator&, std::span<const T>, std::span<const W>, std::span<double>, \
                                     histogram_level<T>, histogram_level<T>, double*, workspace&, cudaStream_t);    \
  template void histogram_range<T, W>(const communicator&, std::span<const T>, std::span<const W>,                 \
                                      std::span<const T>, std::span<double>, double*, workspace&, cudaStream_t);
#define BKT_INSTANTIATE(T)                                                                                        \
  template void histogram_even<T>(const communicator&, std::span<const T>, std::span<std::int64_t>,             \
                                  histogram_level<T>, histogram_level<T>, std::int64_t*, workspace&, cudaStream_t); \
  template void histogram_range<T>(const communicator&, std::span<const T>, std::span<const T>,                 \
                                   std::span<std::int64_t>, std::int64_t*, workspace&, cudaStream_t);           \
  BKT_INSTANTIATE_WEIGHTED(T, float)                                                                              \
  BKT_INSTANTIATE_WEIGHTED(T, double)
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_WEIGHTED

}  // namespace bkt::dist
