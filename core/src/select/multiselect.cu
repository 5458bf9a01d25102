// multiselect (bkt/select.hpp): a few distinct ranks run a search each; many ranks sort the
// selection words once (keys only: equal words are equal elements, so no positions are needed)
// and read every rank from the sorted words.
#include <algorithm>
#include <vector>

#include "bkt/detail/key_types.hpp"
#include "single.cuh"

namespace bkt {
namespace detail::select {

/// Up to this many distinct ranks, one search per rank beats one sort.
inline constexpr std::size_t searches_before_sorting = 16;

/// results[i] = the element whose selection word is sorted[ranks[i]].
template <class T>
__global__ void values_at_ranks_kernel(const radix_word<T>* sorted, const std::int64_t* ranks, std::int64_t count,
                                       T* results) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    results[i] = from_select_bits<T>(sorted[ranks[i]]);
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
  using W = radix_word<T>;
  workspace_layout layout;
  const auto words_at = layout.add(sizeof(W) * size);
  const auto sorted_at = layout.add(sizeof(W) * size);
  const auto ranks_at = layout.add(sizeof(std::int64_t) * count);
  const auto sort_bytes = radix_sort_workspace_bytes(size, sizeof(W));
  const auto sort_at = layout.add(sort_bytes);
  void* base = ws.reserve(layout.total_bytes(), stream);
  auto* words = slice_at<W>(base, words_at);
  auto* sorted = slice_at<W>(base, sorted_at);
  auto* device_ranks = slice_at<std::int64_t>(base, ranks_at);
  oriented_words<T, std::uint32_t>(data.data(), nullptr, size, false, words, stream);
  workspace sort_ws(slice_at<std::byte>(base, sort_at), sort_bytes);
  radix_sort_keys<W>(std::span<const W>(words, size), std::span<W>(sorted, size), sort_ws, stream);
  // From pageable memory the copy has read `ranks` by the time it returns.
  BKT_CUDA_CHECK(cudaMemcpyAsync(device_ranks, ranks.data(), sizeof(std::int64_t) * count, cudaMemcpyHostToDevice,
                                 stream));
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 1024));
  values_at_ranks_kernel<T><<<blocks, 256, 0, stream>>>(sorted, device_ranks, count, results.data());
  BKT_CHECK_LAUNCH(stream);
}

#define BKT_INSTANTIATE(T)                                                                                \
  template void multiselect<T>(std::span<const T>, std::span<const std::int64_t>, std::span<T>, workspace&, \
                               cudaStream_t, const select_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
