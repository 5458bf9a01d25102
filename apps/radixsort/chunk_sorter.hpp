// The sort step: one chunk of keys in host memory, sorted stably on the GPU (device API, with the
// copies timed apart from the sort) or on the CPU (bkt::host's parallel CPU radix sort).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "bkt/radix_sort.hpp"

namespace bkt::radixsort {

/// Seconds spent in each part of sorting, summed over chunks.
struct sort_times {
  double upload = 0;
  double sort = 0;
  double download = 0;
};

template <class Key>
class chunk_sorter {
 public:
  virtual ~chunk_sorter() = default;
  /// keys_out = keys_in sorted stably; when indices_out is not empty, indices_out[j] = the position
  /// in keys_in of the j-th sorted key. Sizes: keys_out and indices_out (if any) as keys_in, at most
  /// the capacity the sorter was made for. keys_out may be keys_in (in place), and the run sorts
  /// that way: a separate output would cost a page fault per 4 KiB of fresh memory.
  virtual void sort(std::span<const Key> keys_in, std::span<Key> keys_out, std::span<std::int64_t> indices_out,
                    sort_times& times) = 0;
};

/// The CPU path: bkt::host's radix sort on every core, the same order as the GPU's.
template <class Key>
std::unique_ptr<chunk_sorter<Key>> make_cpu_sorter(const radix_sort_options& options);

/// The GPU path on the current device, for chunks of up to `capacity` keys: device buffers and one
/// workspace are allocated here once and reused by every chunk. Throws bkt::error (out of memory).
template <class Key>
std::unique_ptr<chunk_sorter<Key>> make_gpu_sorter(const radix_sort_options& options, std::int64_t capacity,
                                                   bool with_indices);

}  // namespace bkt::radixsort
