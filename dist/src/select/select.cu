// bkt::dist::select_kth and multiselect: the radix select of bkt/dist/detail/select_plan.hpp, one
// histogram pass per 8-bit digit (bkt/histogram.cuh with the prefix functor), its counts summed by
// ncclAllReduce.
#include <array>
#include <exception>
#include <string>
#include <vector>

#include "../comm/access.hpp"
#include "../comm/collectives.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/types.hpp"
#include "bkt/detail/select/select_bits.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/dist/detail/prefix_bins.hpp"
#include "bkt/dist/detail/select_plan.hpp"
#include "bkt/dist/select.hpp"
#include "bkt/histogram.cuh"

namespace bkt::dist {
namespace detail {

using bkt::detail::slice_at;
using bkt::detail::workspace_layout;
namespace {

/// Bins of the histogram pass: the histogram counts at most 2^24 bins.
constexpr std::int64_t max_select_ranks = 65536;

template <class T>
void run_multiselect(const communicator& comm, std::span<const T> data, std::span<const std::int64_t> ranks,
                     std::span<T> results, workspace& ws, cudaStream_t stream, const char* call) {
  const device_scope scope(comm.device());
  const auto num_requests = static_cast<std::int64_t>(ranks.size());
  call_record mine;
  mine.items = static_cast<std::int64_t>(data.size());
  mine.agreed = {static_cast<std::int64_t>(sizeof(T)), std::is_floating_point_v<T> ? 1 : 0, num_requests,
                 digest(ranks), 0};
  static constexpr std::array<const char*, 4> names = {"the element size", "the element kind", "the number of ranks",
                                                       "the requested ranks"};
  std::exception_ptr local_error;
  workspace_layout layout;
  const std::size_t requests = static_cast<std::size_t>(std::max<std::int64_t>(num_requests, 1));
  const std::size_t at_counts = layout.add(requests * select_digit_bins * sizeof(std::int64_t));
  const std::size_t at_prefixes = layout.add(requests * sizeof(std::uint64_t));
  const std::size_t at_outside = layout.add(sizeof(std::int64_t));
  void* base = nullptr;
  try {
    bkt::detail::expect_data(call, "data", data);
    if (num_requests > max_select_ranks)
      bkt::detail::throw_argument(std::string(call) + ": " + std::to_string(num_requests) +
                                  " ranks, more than the 65536 one call takes");
    bkt::detail::expect_data(call, "results", results);
    if (results.size() < ranks.size())
      bkt::detail::throw_argument(std::string(call) + ": results hold " + std::to_string(results.size()) +
                                  " elements, fewer than the " + std::to_string(ranks.size()) + " ranks");
    base = ws.own().reserve(layout.total_bytes(), stream);
    (void)ws.primitives().reserve(histogram_workspace_bytes(1), stream);
  } catch (const std::exception& e) {
    mine.status = classify(e);
    local_error = std::current_exception();
  }
  const agreement agreed = agree_sync(comm, call, mine, names, local_error, stream);
  for (const std::int64_t k : ranks)
    if (k < 0 || k >= agreed.total)
      throw_everywhere(call, "rank " + std::to_string(k) + " outside [0, " + std::to_string(agreed.total) + ")");
  if (num_requests == 0) return;

  auto* counts = slice_at<std::int64_t>(base, at_counts);
  auto* prefixes = slice_at<std::uint64_t>(base, at_prefixes);
  auto* outside = slice_at<std::int64_t>(base, at_outside);
  radix_select_plan rounds(ranks, 8 * static_cast<int>(sizeof(T)));
  std::vector<std::int64_t> host_counts;
  while (!rounds.done()) {
    const auto& groups = rounds.prefixes();
    const int bins = rounds.num_bins();
    BKT_CUDA_CHECK(cudaMemcpyAsync(prefixes, groups.data(), groups.size() * sizeof(std::uint64_t),
                                   cudaMemcpyHostToDevice, stream));
    if (data.empty()) {
      BKT_CUDA_CHECK(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(bins) * sizeof(std::int64_t), stream));
    } else {
      const prefix_digit_bins<T> bin_of{prefixes, static_cast<int>(groups.size()), rounds.shift()};
      histogram<T>(data, {counts, static_cast<std::size_t>(bins)}, bin_of, outside, ws.primitives(), stream);
    }
    all_reduce_sum(comm, counts, static_cast<std::size_t>(bins), nullptr, 0, stream);
    host_counts.resize(static_cast<std::size_t>(bins));
    BKT_CUDA_CHECK(cudaMemcpyAsync(host_counts.data(), counts, host_counts.size() * sizeof(std::int64_t),
                                   cudaMemcpyDeviceToHost, stream));
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
    rounds.advance(host_counts);
  }
  std::vector<T> values(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i)
    values[i] = bkt::detail::from_select_bits<T>(static_cast<bkt::detail::radix_word<T>>(rounds.image(i)));
  BKT_CUDA_CHECK(cudaMemcpyAsync(results.data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

}  // namespace
}  // namespace detail

template <class T>
void select_kth(const communicator& comm, std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result,
                workspace& ws, cudaStream_t stream) {
  detail::run_multiselect<T>(comm, data, std::span<const std::int64_t>(&k, 1), std::span<T>(result, 1), ws, stream,
                             "bkt::dist::select_kth");
}

template <class T>
void multiselect(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                 std::span<const std::int64_t> ranks, std::span<T> results, workspace& ws, cudaStream_t stream) {
  detail::run_multiselect<T>(comm, data, ranks, results, ws, stream, "bkt::dist::multiselect");
}

#define BKT_INSTANTIATE(T)                                                                                        \
  template void select_kth<T>(const communicator&, std::span<const T>, std::int64_t, T*, workspace&, cudaStream_t); \
  template void multiselect<T>(const communicator&, std::span<const T>, std::span<const std::int64_t>,           \
                               std::span<T>, workspace&, cudaStream_t);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt::dist
