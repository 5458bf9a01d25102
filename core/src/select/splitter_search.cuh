// The host side of SampleSelect (Ribizel and Anzt) and of its two simple relatives, quickselect
// and bucketselect, which differ only in how a level chooses its splitters. A level classifies its
// array with the library's multisplit count pass (the splitter tree searched in shared memory,
// counters in shared memory, warp-aggregated), reads the bucket counts, and then
//  - answers at once when the rank lies in an equality bucket;
//  - stores the target bucket with the compaction pass when it fits the next buffer;
//  - else runs the next level on the same array with the bucket's narrower word range, so that
//    the auxiliary memory stays below n/4 elements however badly the splitters fall.
// A level whose whole array is in range and at most base_case_size long is read to the host and
// finished there with nth_element. Each level synchronizes the stream twice (the sample, the
// counts): the splitters are sorted and chosen on the host.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "bkt/detail/compact/dispatch.cuh"
#include "bkt/detail/histogram/dispatch.cuh"
#include "bkt/detail/select/splitter_kernels.cuh"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail::select {

/// How a level chooses its splitters: SampleSelect's up to 127 from a sorted sample of 4096,
/// quickselect's single random pivot, or bucketselect's 127 evenly spaced over the level's words
/// (the radix-select digits, which also serve when a sample holds nothing in range).
enum class splitter_rule { sampled, single_pivot, evenly_spaced };

/// Levels with at most this many elements (all in range) finish on the host; also the sample size.
inline constexpr int base_case_size = 4096;

inline int draws_for(splitter_rule rule) {
  switch (rule) {
    case splitter_rule::sampled: return base_case_size;
    case splitter_rule::single_pivot: return 64;  // enough that one lands in a range of >= 1/16
    case splitter_rule::evenly_spaced: return 0;
  }
  return 0;
}

/// Device memory for one search over `size` elements: two buffers for stored buckets (n/8 and
/// n/16 elements), the sample, the splitters, the counts and the compaction's look-back state.
template <class T>
struct splitter_search_layout {
  std::int64_t capacity[2];
  std::size_t buffer[2], sample, splitters, counts, selected, compact, compact_bytes, total;

  explicit splitter_search_layout(std::int64_t size) {
    capacity[0] = size / 8;
    capacity[1] = size / 16;
    compact_bytes = compact::workspace_bytes(std::max<std::int64_t>(size, 1), sizeof(T), 0);
    workspace_layout layout;
    for (int b = 0; b < 2; ++b) buffer[b] = layout.add(sizeof(T) * static_cast<std::size_t>(capacity[b]));
    sample = layout.add(sizeof(T) * base_case_size);
    splitters = layout.add(sizeof(radix_word<T>) * max_splitters);
    counts = layout.add(sizeof(std::int64_t) * (2 * max_splitters + 2));  // buckets, then outside
    selected = layout.add(sizeof(std::int64_t));
    compact = layout.add(compact_bytes);
    total = layout.total_bytes();
  }
};

template <class T>
class splitter_search {
 public:
  using W = radix_word<T>;

  splitter_search(const T* data, std::int64_t size, splitter_rule rule, std::uint64_t seed, void* base)
      : data_(data), size_(size), rule_(rule), seed_(seed), layout_(size), base_(base) {}

  static std::size_t workspace_bytes(std::int64_t size) { return splitter_search_layout<T>(size).total; }

  /// The element of rank k (0 <= k < size) in the selection order.
  T run(std::int64_t k, cudaStream_t stream) {
    const T* array = data_;
    std::int64_t array_size = size_;
    bool whole_in_range = true;  // false: the array still holds elements outside `range`
    int next_buffer = 0;
    word_range<W> range{};
    for (std::uint64_t depth = 0;; ++depth) {
      if (whole_in_range && array_size <= base_case_size) return finish(array, array_size, k, stream);
      const auto splitters = choose_splitters(array, array_size, range, seed_ + depth * 0x632be59bd9b4e019ull, stream);
      const auto counts = count(array, array_size, splitters, range, stream);
      const located at = locate(counts, k);
      if (at.bucket < 0)
        throw error("selection: a level's buckets do not hold the target rank", cudaSuccess, __FILE__, __LINE__);
      if (at.bucket % 2 == 1) return from_select_bits<T>(splitters[static_cast<std::size_t>(at.bucket / 2)]);
      range = bucket_range(range, splitters, at.bucket);
      k = at.rank_in_bucket;
      if (at.size <= layout_.capacity[next_buffer]) {
        T* stored = slice_at<T>(base_, layout_.buffer[next_buffer]);
        store(array, array_size, range, stored, stream);
        array = stored;
        array_size = at.size;
        whole_in_range = true;
        next_buffer ^= 1;
      } else {
        whole_in_range = false;
      }
    }
  }

 private:
  /// Copies `count` elements drawn at random from the array to the host.
  std::vector<T> sample(const T* array, std::int64_t size, int count, std::uint64_t seed, cudaStream_t stream) {
    if (count == 0) return {};
    T* drawn = slice_at<T>(base_, layout_.sample);
    gather_sample_kernel<T><<<(count + 255) / 256, 256, 0, stream>>>(array, size, count, seed, drawn);
    BKT_CHECK_LAUNCH(stream);
    return to_host_sync(std::span<const T>(drawn, static_cast<std::size_t>(count)), stream);
  }

  T finish(const T* array, std::int64_t size, std::int64_t k, cudaStream_t stream) {
    auto all = to_host_sync(std::span<const T>(array, static_cast<std::size_t>(size)), stream);
    const auto by_word = [](const T& a, const T& b) { return select_bits(a) < select_bits(b); };
    std::nth_element(all.begin(), all.begin() + k, all.end(), by_word);
    return all[static_cast<std::size_t>(k)];
  }

  /// The level's distinct splitters, ascending, all inside `range`; never empty.
  std::vector<W> choose_splitters(const T* array, std::int64_t size, const word_range<W>& range, std::uint64_t seed,
                                  cudaStream_t stream) {
    std::vector<W> words;
    for (const T& x : sample(array, size, draws_for(rule_), seed, stream))
      if (range.contains(select_bits(x))) words.push_back(select_bits(x));
    std::vector<W> splitters;
    if (!words.empty() && rule_ == splitter_rule::single_pivot) {
      splitters.push_back(words.front());  // the draws are random: the first in range is a random pivot
    } else if (!words.empty() && rule_ == splitter_rule::sampled) {
      std::sort(words.begin(), words.end());
      splitters = splitters_from_sample(words, max_splitters);
    }
    if (splitters.empty()) splitters = splitters_across(range, max_splitters);
    return splitters;
  }

  /// Elements of `array` per bucket of the level (elements outside `range` are not counted).
  std::vector<std::int64_t> count(const T* array, std::int64_t size, const std::vector<W>& splitters,
                                  const word_range<W>& range, cudaStream_t stream) {
    auto* d_splitters = slice_at<W>(base_, layout_.splitters);
    auto* d_counts = slice_at<std::int64_t>(base_, layout_.counts);
    // From pageable memory the copy has read `splitters` by the time it returns.
    BKT_CUDA_CHECK(cudaMemcpyAsync(d_splitters, splitters.data(), sizeof(W) * splitters.size(),
                                   cudaMemcpyHostToDevice, stream));
    const splitter_tree<W> tree{{d_splitters, static_cast<int>(splitters.size())}, range};
    const int buckets = tree.num_buckets();
    workspace unused(slice_at<std::byte>(base_, layout_.compact), layout_.compact_bytes);  // outside has a slot
    histogram::run<T, histogram::no_weight>(array, nullptr, size, buckets, tree, d_counts, d_counts + buckets, unused,
                                            stream);
    return to_host_sync(std::span<const std::int64_t>(d_counts, static_cast<std::size_t>(buckets)), stream);
  }

  /// stored[0, elements in range) = the elements of `array` in `range` (the target bucket).
  void store(const T* array, std::int64_t size, const word_range<W>& range, T* stored, cudaStream_t stream) {
    workspace look_back(slice_at<std::byte>(base_, layout_.compact), layout_.compact_bytes);
    const compact::compact_pointers<T, compact::no_value> io{.keys_in = array, .keys_out = stored};
    compact::run<compact::output_mode::select>(io, size, slice_at<std::int64_t>(base_, layout_.selected),
                                               compact::pick_by_predicate<in_word_range<W>>{{range}}, look_back,
                                               stream);
  }

  const T* data_;
  std::int64_t size_;
  splitter_rule rule_;
  std::uint64_t seed_;
  splitter_search_layout<T> layout_;
  void* base_;
};

}  // namespace bkt::detail::select
