// The merge of the received runs (bkt/dist/sort.hpp, step 6) without a second sort: adjacent runs
// merged pairwise by cub::DeviceMerge, the first pass into the output, later ones ping-ponging
// between a scratch region and the output,
// with a comparator on the order image (so floats compare by their bits, as the radix sort does).
// CUB's merge path takes the first input's key on ties (cub/block/block_merge_sort.cuh:
// MergePath and SerialMerge move a key of the second run only when it is strictly less), and the
// runs arrive in rank order, so merging neighbours keeps ties in rank order: the stable merge.
#pragma once

#include <cub/device/device_merge.cuh>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "bkt/dist/detail/order_image.hpp"
#include "bkt/error.hpp"

namespace bkt::dist::detail {

template <class Key>
struct image_less {
  bool descending;
  __host__ __device__ bool operator()(const Key& a, const Key& b) const {
    return order_image(a, descending) < order_image(b, descending);
  }
};

/// Merge passes (and the copy that lands an even count of passes in the output) for `runs` runs.
inline int merge_passes(int runs) {
  int passes = 0;
  for (int width = 1; width < runs; width *= 2) ++passes;
  return passes + (passes % 2 == 0 && passes > 0 ? 1 : 0);
}

/// CUB's temporary storage for merging `total` elements (it depends on the total alone).
template <class Key, class Word>
std::size_t merge_temp_bytes(std::int64_t total, bool carry) {
  std::size_t bytes = 0;
  const image_less<Key> less{false};
  if (carry)
    BKT_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, bytes, static_cast<const Key*>(nullptr),
                                                static_cast<const Word*>(nullptr), total, static_cast<const Key*>(nullptr),
                                                static_cast<const Word*>(nullptr), 0, static_cast<Key*>(nullptr),
                                                static_cast<Word*>(nullptr), less));
  else
    BKT_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, bytes, static_cast<const Key*>(nullptr), total,
                                               static_cast<const Key*>(nullptr), 0, static_cast<Key*>(nullptr), less));
  return bytes;
}

/// One sorted run of a merge: its keys (and words, when carried) and length.
template <class Key, class Word>
struct run_view {
  const Key* keys;
  const Word* words;
  std::int64_t count;
};

/// Merges `runs` (non-empty, in source order) stably into out_keys (and out_words) [0, total).
/// The first pass always writes to out: the runs may lie in `scratch`, which later passes use (it
/// holds total elements). temp: merge_temp_bytes(total). Returns nothing; all on `stream`.
template <class Key, class Word>
void merge_runs(std::vector<run_view<Key, Word>> runs, Key* out_keys, Word* out_words, Key* scratch_keys,
                Word* scratch_words, bool carry, bool descending, void* temp, std::size_t temp_bytes,
                cudaStream_t stream) {
  const image_less<Key> less{descending};
  const auto copy = [&](const run_view<Key, Word>& from, Key* to_keys, Word* to_words) {
    if (from.count == 0 || from.keys == to_keys) return;
    const auto count = static_cast<std::size_t>(from.count);
    BKT_CUDA_CHECK(cudaMemcpyAsync(to_keys, from.keys, count * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
    if (carry)
      BKT_CUDA_CHECK(cudaMemcpyAsync(to_words, from.words, count * sizeof(Word), cudaMemcpyDeviceToDevice, stream));
  };
  if (runs.empty()) return;
  Key* to_keys = out_keys;
  Word* to_words = out_words;
  while (runs.size() > 1) {
    std::vector<run_view<Key, Word>> merged;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      const run_view<Key, Word>& a = runs[i];
      if (i + 1 == runs.size()) {  // an odd run out: carried over as it is
        copy(a, to_keys + at, carry ? to_words + at : nullptr);
      } else {
        const run_view<Key, Word>& b = runs[i + 1];
        std::size_t bytes = temp_bytes;
        // a precedes b in source order and CUB takes the first input on ties: stable.
        if (carry)
          BKT_CUDA_CHECK(cub::DeviceMerge::MergePairs(temp, bytes, a.keys, a.words, a.count, b.keys, b.words, b.count,
                                                      to_keys + at, to_words + at, less, stream));
        else
          BKT_CUDA_CHECK(cub::DeviceMerge::MergeKeys(temp, bytes, a.keys, a.count, b.keys, b.count, to_keys + at, less,
                                                     stream));
      }
      const std::int64_t count = a.count + (i + 1 < runs.size() ? runs[i + 1].count : 0);
      merged.push_back({to_keys + at, carry ? to_words + at : nullptr, count});
      at += count;
    }
    runs = std::move(merged);
    const bool in_output = to_keys == out_keys;
    to_keys = in_output ? scratch_keys : out_keys;
    to_words = in_output ? scratch_words : out_words;
  }
  copy(runs.front(), out_keys, out_words);  // nothing when the last pass wrote the output
}

}  // namespace bkt::dist::detail
