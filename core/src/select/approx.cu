// approx_select (bkt/select.hpp): sampled candidates, one counting pass, the closest candidate.
#include "bkt/types.hpp"
#include "bkt/detail/select/approx_kernels.cuh"
#include "single.cuh"

namespace bkt {

template <class T>
void approx_select(std::span<const std::type_identity_t<T>> data, std::int64_t k, approx_selection<T>* result,
                   workspace& ws, cudaStream_t stream, const approx_select_options& options) {
  using namespace detail;
  using namespace detail::select;
  expect_data("approx_select", "data", data);
  expect_rank("approx_select", k, data.size());
  expect_approx_options(options);
  if (result == nullptr) throw_argument("approx_select: the result pointer is null");
  const auto size = static_cast<std::int64_t>(data.size());
  using W = radix_word<T>;
  const int count = options.candidates;
  with_positions(size, [&]<class P>() {
    workspace_layout layout;
    const auto words_at = layout.add(sizeof(W) * count);
    const auto positions_at = layout.add(sizeof(P) * count);
    const auto counts_at = layout.add(sizeof(unsigned long long) * (2 * count + 1));
    void* base = ws.reserve(layout.total_bytes(), stream);
    auto* words = slice_at<W>(base, words_at);
    auto* positions = slice_at<P>(base, positions_at);
    auto* counts = slice_at<unsigned long long>(base, counts_at);

    // The sample is one block's sort: at most block * items records.
    constexpr int block = 512, items = 16;
    using sorter = block_record_sort<block, items, W, P>;
    const std::size_t sort_bytes = sizeof(typename sorter::storage);
    auto candidates = approx_candidates_kernel<block, items, T, P>;
    allow_shared_bytes(candidates, sort_bytes);
    candidates<<<1, block, sort_bytes, stream>>>(input_records<T, P>{data.data(), size, false}, k, count,
                                                 options.sample_size, options.seed, words, positions);
    BKT_CHECK_LAUNCH(stream);
    BKT_CUDA_CHECK(cudaMemsetAsync(counts, 0, sizeof(unsigned long long) * (2 * count + 1), stream));
    constexpr int count_block = 512;
    auto counter = approx_count_kernel<count_block, T>;
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(
        (size + count_block - 1) / count_block, resident_blocks(counter, count_block, 0)));
    counter<<<blocks, count_block, 0, stream>>>(data.data(), size, words, count, counts);
    BKT_CHECK_LAUNCH(stream);
    // The kernel writes the fields; zeroing first also defines the padding after a 4-byte value,
    // which a caller's copy of the whole struct reads (initcheck reports it otherwise).
    BKT_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(approx_selection<T>), stream));
    approx_choose_kernel<256, T><<<1, 256, 0, stream>>>(data.data(), words, positions, count, counts, k, result);
    BKT_CHECK_LAUNCH(stream);
  });
}

#define BKT_INSTANTIATE(T)                                                                             \
  template void approx_select<T>(std::span<const T>, std::int64_t, approx_selection<T>*, workspace&, \
                                 cudaStream_t, const approx_select_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
