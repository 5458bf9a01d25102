// multiselect (bkt/select.hpp): a few distinct ranks run the two-pivot search each; many ranks
// sort the oriented words once and read every rank from the order.
#include <algorithm>
#include <vector>

#include "bkt/detail/key_types.hpp"
#include "single.cuh"

namespace bkt {
namespace detail::select {

/// Up to this many distinct ranks, one search per rank beats one sort.
inline constexpr std::size_t searches_before_sorting = 16;

template <class T, class P>
__global__ void values_at_ranks_kernel(const T* data, const P* order, const std::int64_t* ranks, std::int64_t count,
                                       T* results) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    results[i] = data[order[ranks[i]]];
}

}  // namespace detail::select

template <class T>
void multiselect(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                 std::span<T> results, workspace& ws, cudaStream_t stream, const select_options& options) {
  using namespace detail;
  using namespace detail::select;
  check_multiselect<T>(data, ranks, results);
  const auto size = static_cast<std::int64_t>(data.size());
  if (ranks.empty()) return;
  std::vector<std::int64_t> distinct(ranks.begin(), ranks.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const auto count = static_cast<std::int64_t>(ranks.size());
  if (distinct.size() <= searches_before_sorting && options.algorithm != select_algorithm::radix_sort) {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const auto first = std::find(ranks.begin(), ranks.end(), ranks[i]) - ranks.begin();
      if (static_cast<std::size_t>(first) < i) {
        BKT_CUDA_CHECK(cudaMemcpyAsync(results.data() + i, results.data() + first, sizeof(T),
                                       cudaMemcpyDeviceToDevice, stream));
      } else {
        bkt::select_kth<T>(data, ranks[i], results.data() + i, ws, stream, options);
      }
    }
    return;
  }
  with_positions(size, [&]<class P>() {
    void* ranks_memory = nullptr;
    const P* order = positions_by_sorting<T, P>(data.data(), size, false, ws, stream, sizeof(std::int64_t) * count,
                                                &ranks_memory);
    auto* device_ranks = static_cast<std::int64_t*>(ranks_memory);
    // From pageable memory the copy has read `ranks` by the time it returns.
    BKT_CUDA_CHECK(cudaMemcpyAsync(device_ranks, ranks.data(), sizeof(std::int64_t) * count,
                                   cudaMemcpyHostToDevice, stream));
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 1024));
    values_at_ranks_kernel<<<blocks, 256, 0, stream>>>(data.data(), order, device_ranks, count, results.data());
    BKT_CHECK_LAUNCH(stream);
  });
}

#define BKT_INSTANTIATE(T)                                                                                \
  template void multiselect<T>(std::span<const T>, std::span<const std::int64_t>, std::span<T>, workspace&, \
                               cudaStream_t, const select_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
