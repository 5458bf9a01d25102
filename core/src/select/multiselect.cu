// multiselect (bkt/select.hpp): a few distinct ranks run a search each; more share one bucket
// pass (bkt/detail/select/multiselect_kernels.cuh): a sample chooses up to 16383 buckets (span
// buckets, or splitters with equality buckets when it shows heavy values), one pass counts them,
// another gathers the buckets that hold ranks, and one block per such bucket selects by radix
// digits (a bucket with many ranks is sorted instead). The radix_sort baseline
// (bkt/detail/select/baselines.hpp) sorts the selection words once and reads every rank; the
// splitter-search baselines replace the per-rank search.
#include <algorithm>
#include <vector>

#include "bkt/device/occupancy.cuh"
#include "bkt/types.hpp"
#include "bkt/detail/select/multiselect_kernels.cuh"
#include "single.cuh"

namespace bkt {
namespace detail::select {

/// Up to this many distinct ranks, one search per rank beats the bucket passes.
inline constexpr std::size_t searches_before_buckets = 16;
/// A target bucket with more ranks than this is sorted rather than searched once per rank.
inline constexpr int searches_per_target = 4;
inline constexpr int bucket_pass_block = 1024;
inline constexpr int select_block = 512;

/// The sizes of one bucket multiselect and where its arrays live in the workspace. The gathered
/// words get what is left of n / 4 elements (at least min(n, 4096) words) once the fixed arrays
/// are placed; the sample and its sort, done before any gathering, share their memory.
template <class T>
struct bucket_plan {
  using W = radix_word<T>;
  int sample, wanted, blocks, stride, max_targets;
  std::int64_t capacity;
  std::size_t header, splitters, cells, block_counts, totals, starts, ranks, rank_bucket, local_rank,
      span_cells, distinct_results, index, targets, target_count, slot_base, listed, gathered_sort, gathered_sort_bytes,
      shared_region, sample_words, sorted_sample, sample_sort, sample_sort_bytes, total;

  bucket_plan(std::int64_t size, std::int64_t distinct, std::int64_t requested, std::int64_t resident) {
    // At least 2^18 elements a block: the per-block counts of mid-sized inputs then leave room for
    // the span buckets within n / 4 elements.
    const std::int64_t wide = std::max<std::int64_t>(size >> 18, 1);
    // Each block counts fewer than 2^32 elements per bucket.
    blocks = static_cast<int>(std::max(std::min(wide, resident), (size >> 31) + 1));
    sample = static_cast<int>(std::clamp<std::int64_t>(size / 64, std::min<std::int64_t>(size, 256), 65536));
    // The per-block counts take at most n / 32 elements' bytes.
    const std::int64_t counts_cap = static_cast<std::int64_t>(size * sizeof(T) / 32) / (std::int64_t{blocks} * 8);
    wanted = static_cast<int>(std::clamp<std::int64_t>(std::min<std::int64_t>(sample / 8, counts_cap), 1,
                                                       classifier_max_splitters));
    stride = 2 * wanted + 1;
    max_targets = static_cast<int>(std::min<std::int64_t>(distinct, stride));
    const std::int64_t sorted_at_most = std::max<std::int64_t>(size / 8, 2048);
    gathered_sort_bytes = radix_sort_workspace_bytes(sorted_at_most, sizeof(W), 0, {}, radix_sort_form::double_buffer);
    sample_sort_bytes = radix_sort_workspace_bytes(sample, sizeof(W), 0, {}, radix_sort_form::double_buffer);
    workspace_layout layout;
    header = layout.add(sizeof(classifier_header<W>));
    splitters = layout.add(sizeof(W) * classifier_max_splitters);
    cells = layout.add(sizeof(unsigned short) * (shared_classifier<W>::cell_count + 1));
    span_cells = layout.add(span_classifier<W>::bytes);
    block_counts = layout.add(sizeof(unsigned) * static_cast<std::size_t>(blocks) * stride);
    totals = layout.add(sizeof(unsigned long long) * stride);
    starts = layout.add(sizeof(unsigned long long) * stride);
    ranks = layout.add(sizeof(std::int64_t) * distinct);
    rank_bucket = layout.add(sizeof(int) * distinct);
    local_rank = layout.add(sizeof(unsigned long long) * distinct);
    distinct_results = layout.add(sizeof(T) * distinct);
    index = layout.add(sizeof(std::int64_t) * requested);
    targets = layout.add(sizeof(target_bucket) * max_targets);
    target_count = layout.add(sizeof(int));
    slot_base = layout.add(sizeof(unsigned) * max_targets);
    listed = layout.add(sizeof(int) * max_targets);
    gathered_sort = layout.add(gathered_sort_bytes);
    workspace_layout sampling;
    sample_words = sampling.add(sizeof(W) * sample);
    sorted_sample = sampling.add(sizeof(W) * sample);
    sample_sort = sampling.add(sample_sort_bytes);
    const std::int64_t budget = static_cast<std::int64_t>((size / 4) * sizeof(T)) -
                                static_cast<std::int64_t>(layout.total_bytes() + workspace_alignment);
    capacity = std::max<std::int64_t>(budget / static_cast<std::int64_t>(sizeof(W)), std::min<std::int64_t>(size, 4096));
    capacity = std::min<std::int64_t>({capacity, size, (std::int64_t{1} << 31) - 1, 2 * sorted_at_most});
    shared_region = layout.add(std::max(sizeof(W) * static_cast<std::size_t>(capacity), sampling.total_bytes()));
    total = layout.total_bytes();
  }
};

/// Answers `ranks` by the bucket passes; `distinct` holds them ascending, each once.
template <class T>
void multiselect_by_buckets(const T* data, std::int64_t size, std::span<const std::int64_t> ranks,
                            const std::vector<std::int64_t>& distinct, T* results, workspace& ws, cudaStream_t stream,
                            std::uint64_t seed) {
  using W = radix_word<T>;
  std::vector<std::int64_t> index(ranks.size());
  for (std::size_t q = 0; q < ranks.size(); ++q)
    index[q] = std::lower_bound(distinct.begin(), distinct.end(), ranks[q]) - distinct.begin();

  constexpr int block = bucket_pass_block;
  auto count = bucket_count_kernel<block, T>;
  auto gather = gather_targets_kernel<block, T>;
  constexpr std::size_t count_bytes = count_shared<block, W>::bytes;
  allow_shared_bytes(count, count_bytes);
  constexpr std::size_t gather_bytes = gather_shared<block, W>::bytes;
  allow_shared_bytes(gather, gather_bytes);
  const bucket_plan<T> plan(size, static_cast<std::int64_t>(distinct.size()), static_cast<std::int64_t>(ranks.size()),
                            resident_blocks(gather, block, gather_bytes));
  void* base = ws.reserve(plan.total, stream);
  const classifier_arrays<W> classifier{slice_at<classifier_header<W>>(base, plan.header),
                                        slice_at<W>(base, plan.splitters),
                                        slice_at<unsigned short>(base, plan.cells),
                                        slice_at<unsigned>(base, plan.span_cells)};
  auto* block_counts = slice_at<unsigned>(base, plan.block_counts);
  auto* totals = slice_at<unsigned long long>(base, plan.totals);
  auto* d_ranks = slice_at<std::int64_t>(base, plan.ranks);
  auto* local_rank = slice_at<unsigned long long>(base, plan.local_rank);
  auto* distinct_results = slice_at<T>(base, plan.distinct_results);
  auto* d_index = slice_at<std::int64_t>(base, plan.index);
  auto* targets = slice_at<target_bucket>(base, plan.targets);
  auto* target_count = slice_at<int>(base, plan.target_count);
  auto* slot_base = slice_at<unsigned>(base, plan.slot_base);
  auto* listed = slice_at<int>(base, plan.listed);
  void* region = slice_at<std::byte>(base, plan.shared_region);
  auto* gathered = static_cast<W*>(region);

  // The classifier, from a sorted sample.
  double_buffer<W> sample{{std::span<W>(slice_at<W>(region, plan.sample_words), plan.sample),
                           std::span<W>(slice_at<W>(region, plan.sorted_sample), plan.sample)}};
  sample_words_kernel<T><<<(plan.sample + 255) / 256, 256, 0, stream>>>(data, size, plan.sample, seed,
                                                                       sample.data().data());
  BKT_CHECK_LAUNCH(stream);
  workspace sample_ws(slice_at<std::byte>(region, plan.sample_sort), plan.sample_sort_bytes);
  radix_sort_keys<W>(sample, sample_ws, stream);
  choose_buckets_kernel<1024, W><<<1, 1024, 0, stream>>>(sample.data().data(), plan.sample, plan.wanted, plan.stride,
                                                         classifier);
  BKT_CHECK_LAUNCH(stream);
  cell_table_kernel<W><<<shared_classifier<W>::cell_count / 256 + 1, 256, 0, stream>>>(classifier);
  BKT_CHECK_LAUNCH(stream);

  // Count, then find every rank's bucket.
  count<<<plan.blocks, block, count_bytes, stream>>>(data, size, classifier, block_counts, plan.stride);
  BKT_CHECK_LAUNCH(stream);
  bucket_block_prefix_kernel<W><<<(plan.stride + 255) / 256, 256, 0, stream>>>(block_counts, plan.blocks, plan.stride,
                                                                               classifier.header, totals);
  BKT_CHECK_LAUNCH(stream);
  // From pageable memory the copies have read their sources by the time they return.
  BKT_CUDA_CHECK(cudaMemcpyAsync(d_ranks, distinct.data(), sizeof(std::int64_t) * distinct.size(),
                                 cudaMemcpyHostToDevice, stream));
  const int rank_count = static_cast<int>(distinct.size());
  // The host reads every entry back in one copy, found or not (and their padding): define them.
  BKT_CUDA_CHECK(cudaMemsetAsync(targets, 0, sizeof(target_bucket) * plan.max_targets, stream));
  locate_ranks_kernel<512, T><<<1, 512, 0, stream>>>(
      classifier, totals, slice_at<unsigned long long>(base, plan.starts), d_ranks, rank_count,
      slice_at<int>(base, plan.rank_bucket), local_rank, distinct_results, targets, target_count);
  BKT_CHECK_LAUNCH(stream);
  int found = 0;
  BKT_CUDA_CHECK(cudaMemcpyAsync(&found, target_count, sizeof(int), cudaMemcpyDeviceToHost, stream));
  std::vector<target_bucket> wanted(static_cast<std::size_t>(plan.max_targets));
  BKT_CUDA_CHECK(cudaMemcpyAsync(wanted.data(), targets, sizeof(target_bucket) * wanted.size(), cudaMemcpyDeviceToHost,
                                 stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));

  // Batches of targets that fit the gathered words: the searched ones first, then the sorted
  // ones and as much room again for their sort. A target larger than the whole room has its
  // ranks answered by select_kth at the end.
  std::vector<unsigned> base_of(static_cast<std::size_t>(found), not_gathered);
  std::vector<int> searched, sorted;
  std::int64_t searched_words = 0, sorted_words = 0;
  std::vector<char> by_select_kth(distinct.size(), 0);
  const auto run_batch = [&] {
    if (searched.empty() && sorted.empty()) return;
    std::int64_t next = searched_words;
    for (const int s : sorted) {
      base_of[s] = static_cast<unsigned>(next);
      next += static_cast<std::int64_t>(wanted[s].size);
    }
    BKT_CUDA_CHECK(cudaMemcpyAsync(slot_base, base_of.data(), sizeof(unsigned) * base_of.size(), cudaMemcpyHostToDevice,
                                   stream));
    gather<<<plan.blocks, block, gather_bytes, stream>>>(data, size, classifier, targets, found, slot_base,
                                                                    block_counts, plan.stride, gathered);
    BKT_CHECK_LAUNCH(stream);
    if (!searched.empty()) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(listed, searched.data(), sizeof(int) * searched.size(), cudaMemcpyHostToDevice,
                                     stream));
      select_in_targets_kernel<select_block, T><<<static_cast<unsigned>(searched.size()), select_block, 0, stream>>>(
          gathered, slot_base, targets, listed, classifier, local_rank, distinct_results);
      BKT_CHECK_LAUNCH(stream);
    }
    if (!sorted.empty()) {
      double_buffer<W> words{{std::span<W>(gathered + searched_words, sorted_words),
                              std::span<W>(gathered + searched_words + sorted_words, sorted_words)}};
      workspace sort_ws(slice_at<std::byte>(base, plan.gathered_sort), plan.gathered_sort_bytes);
      // Targets are disjoint word ranges in ascending order: sorting them together sorts each.
      radix_sort_keys<W>(words, sort_ws, stream);
      BKT_CUDA_CHECK(cudaMemcpyAsync(listed, sorted.data(), sizeof(int) * sorted.size(), cudaMemcpyHostToDevice,
                                     stream));
      read_sorted_targets_kernel<T><<<static_cast<unsigned>(sorted.size()), 256, 0, stream>>>(
          words.data().data(), static_cast<unsigned>(searched_words), slot_base, targets, listed, local_rank,
          distinct_results);
      BKT_CHECK_LAUNCH(stream);
    }
    for (const int s : searched) base_of[s] = not_gathered;
    for (const int s : sorted) base_of[s] = not_gathered;
    searched.clear();
    sorted.clear();
    searched_words = sorted_words = 0;
  };
  for (int s = 0; s < found; ++s) {
    const auto words = static_cast<std::int64_t>(wanted[s].size);
    if (words > plan.capacity) {
      std::fill(by_select_kth.begin() + wanted[s].first_rank, by_select_kth.begin() + wanted[s].end_rank, 1);
      continue;
    }
    const bool sort = wanted[s].end_rank - wanted[s].first_rank > searches_per_target && 2 * words <= plan.capacity;
    if (searched_words + 2 * sorted_words + (sort ? 2 : 1) * words > plan.capacity) run_batch();
    if (sort) {
      sorted.push_back(s);
      sorted_words += words;
    } else {
      base_of[s] = static_cast<unsigned>(searched_words);
      searched.push_back(s);
      searched_words += words;
    }
  }
  run_batch();

  for (auto& i : index)
    if (by_select_kth[static_cast<std::size_t>(i)]) i = -1;
  BKT_CUDA_CHECK(cudaMemcpyAsync(d_index, index.data(), sizeof(std::int64_t) * index.size(), cudaMemcpyHostToDevice,
                                 stream));
  const auto spread_blocks = static_cast<unsigned>(std::min<std::size_t>((index.size() + 255) / 256, 1024));
  spread_results_kernel<T><<<spread_blocks, 256, 0, stream>>>(distinct_results, d_index,
                                                               static_cast<std::int64_t>(index.size()), results);
  BKT_CHECK_LAUNCH(stream);
  for (std::size_t q = 0; q < index.size(); ++q)
    if (index[q] < 0) bkt::select_kth<T>(std::span<const T>(data, static_cast<std::size_t>(size)), ranks[q],
                                         results + q, ws, stream);
}

/// The baseline: sorts the selection words (keys only: equal words are equal elements) and
/// reads every rank.
template <class T>
__global__ void values_at_ranks_kernel(const radix_word<T>* sorted, const std::int64_t* ranks, std::int64_t count,
                                       T* results) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    results[i] = from_select_bits<T>(sorted[ranks[i]]);
}

template <class T>
void multiselect_by_sorting(const T* data, std::int64_t size, std::span<const std::int64_t> ranks, T* results,
                            workspace& ws, cudaStream_t stream) {
  using W = radix_word<T>;
  const auto count = static_cast<std::int64_t>(ranks.size());
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
  oriented_words<T, std::uint32_t>(data, nullptr, size, false, words, stream);
  workspace sort_ws(slice_at<std::byte>(base, sort_at), sort_bytes);
  radix_sort_keys<W>(std::span<const W>(words, size), std::span<W>(sorted, size), sort_ws, stream);
  // From pageable memory the copy has read `ranks` by the time it returns.
  BKT_CUDA_CHECK(cudaMemcpyAsync(device_ranks, ranks.data(), sizeof(std::int64_t) * count, cudaMemcpyHostToDevice,
                                 stream));
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 1024));
  values_at_ranks_kernel<T><<<blocks, 256, 0, stream>>>(sorted, device_ranks, count, results);
  BKT_CHECK_LAUNCH(stream);
}

/// multiselect by the default (baseline none) or a baseline.
template <class T>
void multiselect(std::span<const T> data, std::span<const std::int64_t> ranks, std::span<T> results, workspace& ws,
                 cudaStream_t stream, std::uint64_t seed, select_baseline baseline) {
  check_multiselect<T>(data, ranks, results);
  if (ranks.empty()) return;
  const auto size = static_cast<std::int64_t>(data.size());
  if (baseline == select_baseline::radix_sort)
    return multiselect_by_sorting<T>(data.data(), size, ranks, results.data(), ws, stream);
  std::vector<std::int64_t> distinct(ranks.begin(), ranks.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() > searches_before_buckets)
    return multiselect_by_buckets<T>(data.data(), size, ranks, distinct, results.data(), ws, stream, seed);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const auto first = std::find(ranks.begin(), ranks.end(), ranks[i]) - ranks.begin();
    if (static_cast<std::size_t>(first) < i) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(results.data() + i, results.data() + first, sizeof(T), cudaMemcpyDeviceToDevice,
                                     stream));
    } else {
      select_kth<T>(data, ranks[i], results.data() + i, ws, stream, seed, baseline);
    }
  }
}

}  // namespace detail::select

template <class T>
void multiselect(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                 std::span<T> results, workspace& ws, cudaStream_t stream, const select_options& options) {
  detail::select::multiselect<T>(data, ranks, results, ws, stream, options.seed, detail::select_baseline::none);
}

template <class T>
void detail::multiselect_baseline(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                                  std::span<T> results, workspace& ws, cudaStream_t stream, select_baseline baseline,
                                  const select_options& options) {
  select::multiselect<T>(data, ranks, results, ws, stream, options.seed, baseline);
}

#define BKT_INSTANTIATE(T)                                                                                  \
  template void multiselect<T>(std::span<const T>, std::span<const std::int64_t>, std::span<T>, workspace&,   \
                               cudaStream_t, const select_options&);                                         \
  template void detail::multiselect_baseline<T>(std::span<const T>, std::span<const std::int64_t>, std::span<T>, \
                                                workspace&, cudaStream_t, detail::select_baseline,           \
                                                const select_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
