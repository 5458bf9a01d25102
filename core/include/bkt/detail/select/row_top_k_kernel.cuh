// Batched top-k's fallback, for rows longer than the register tile (batched_kernels.cuh) with k
// above half of it: one block per row. A row's k smallest records (by oriented word, then position)
// are found by radix selection on the words: a histogram of the word's next digit among the
// elements that share the digits found so far, read from global memory (a row is re-read from L2),
// until the target digit's bucket fits in shared memory; a last pass then emits, in position
// order, the elements below that bucket and gathers the bucket into shared memory, where radix
// selection resolves the remaining digits. Ties go to the smaller position because the bucket is
// gathered in position order and its equal words are taken from the front.
#pragma once

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "bkt/detail/select/records.cuh"

namespace bkt::detail::select {

struct row_shape {
  static constexpr int block = 256;
  static constexpr int items = 16;
  static constexpr int chunk = block * items;  // elements per pass step, and the bucket capacity
  static constexpr int digit_bits = 8;
  static constexpr int bins = 1 << digit_bits;
};

template <class W>
struct row_storage {
  using scan = cub::BlockScan<unsigned, row_shape::block>;
  using sort = cub::BlockRadixSort<W, row_shape::block, row_shape::items, std::uint32_t>;
  union {
    typename scan::TempStorage scan;
    typename sort::TempStorage sort;
  } temp;
  unsigned histogram[row_shape::bins];
  W bucket_words[row_shape::chunk];
  std::uint32_t bucket_positions[row_shape::chunk];
  unsigned long long found;  // digit chosen this round, and what it leaves
  unsigned long long remaining;
  unsigned emitted;
  std::uint32_t pivot_position;
};

/// The `bit`..`bit + bits` digit of a word (bits <= 8).
template <class W>
__device__ inline unsigned digit_of(W word, int bit, int bits) {
  return static_cast<unsigned>(word >> bit) & ((1u << bits) - 1u);
}

/// Loads the chunk at `first` (blocked: thread t holds first + t * ITEMS ...) as oriented words;
/// missing elements get the largest word and are never counted (the caller checks positions).
template <class T, class W>
__device__ inline void load_words(const T* row, std::int64_t cols, std::int64_t first, bool largest,
                                  W (&words)[row_shape::items]) {
  T values[row_shape::items];
  const std::int64_t valid = cols - first;
  if (valid >= row_shape::chunk && reinterpret_cast<std::uintptr_t>(row + first) % 16 == 0) {
    // 16-byte loads: a thread's items are contiguous, and one element at a time they were not coalesced.
    static_assert(row_shape::items * sizeof(T) % 16 == 0);
    const auto* from = reinterpret_cast<const uint4*>(row + first) + threadIdx.x * (row_shape::items * sizeof(T) / 16);
    auto* to = reinterpret_cast<uint4*>(values);
    for (std::size_t j = 0; j < row_shape::items * sizeof(T) / 16; ++j) to[j] = __ldg(from + j);
  } else if (valid >= row_shape::chunk) {
    cub::LoadDirectBlocked(threadIdx.x, row + first, values);
  } else {
    cub::LoadDirectBlocked(threadIdx.x, row + first, values, static_cast<int>(valid), T{});
  }
  for (int i = 0; i < row_shape::items; ++i) words[i] = oriented_word(values[i], largest);
}

/// Exclusive prefix over the block of per-thread counts, in thread order; returns the block total.
template <class Storage>
__device__ inline unsigned block_offsets(Storage& s, unsigned count, unsigned& offset) {
  unsigned total;
  cub::BlockScan<unsigned, row_shape::block>(s.temp.scan).ExclusiveSum(count, offset, total);
  __syncthreads();
  return total;
}

/// Finds, among the histogram's bins, the one holding rank `target`; thread 0 stores it and the
/// rank left inside it in s.found / s.remaining.
template <class Storage>
__device__ inline void find_bin(Storage& s, unsigned long long target) {
  constexpr int per_thread = row_shape::bins / row_shape::block > 0 ? row_shape::bins / row_shape::block : 1;
  static_assert(row_shape::bins <= row_shape::block * per_thread);
  unsigned mine = 0;
  const int first = threadIdx.x * per_thread;
  for (int b = 0; b < per_thread; ++b)
    if (first + b < row_shape::bins) mine += s.histogram[first + b];
  unsigned before;
  block_offsets(s, mine, before);
  unsigned running = before;
  for (int b = 0; b < per_thread; ++b) {
    if (first + b >= row_shape::bins) break;
    const unsigned count = s.histogram[first + b];
    if (running <= target && target < running + count) {
      s.found = static_cast<unsigned long long>(first + b);
      s.remaining = target - running;
    }
    running += count;
  }
  __syncthreads();
}

/// The word of rank `target` among the first `size` words of the bucket, by radix selection in
/// shared memory (one digit per round); `equal_taken` is how many words equal to it rank at or
/// below `target`. Every thread gets the result.
template <class W>
__device__ inline W select_in_bucket(row_storage<W>& s, unsigned size, unsigned long long target,
                                     unsigned& equal_taken) {
  constexpr int word_bits = 8 * sizeof(W);
  W prefix = 0;
  for (int bit = word_bits - row_shape::digit_bits; bit >= 0; bit -= row_shape::digit_bits) {
    for (int b = threadIdx.x; b < row_shape::bins; b += row_shape::block) s.histogram[b] = 0;
    __syncthreads();
    const int above = bit + row_shape::digit_bits;
    for (unsigned i = threadIdx.x; i < size; i += row_shape::block) {
      const W word = s.bucket_words[i];
      if (above >= word_bits || (word >> above) == (prefix >> above))
        atomicAdd(&s.histogram[digit_of(word, bit, row_shape::digit_bits)], 1u);
    }
    __syncthreads();
    find_bin(s, target);
    prefix |= static_cast<W>(s.found) << bit;
    target = s.remaining;
    __syncthreads();
  }
  equal_taken = static_cast<unsigned>(target) + 1;
  return prefix;
}

/// The one-pass shortcut for long rows: a sample of the row (its record of a rank a few standard
/// deviations past k - 1, found by radix selection in shared memory) places an upper pivot, and one
/// pass gathers every record below it, in position order, into the bucket. True when that gathered
/// at least k records and they all fit.
template <class T, class W>
__device__ inline bool sampled_bucket(row_storage<W>& s, const T* row, std::int64_t cols, std::int64_t k,
                                      bool largest, unsigned& gathered) {
  constexpr std::int64_t samples = row_shape::chunk;
  const double fraction = static_cast<double>(k) / static_cast<double>(cols);
  const auto rank = static_cast<std::int64_t>(
      ceil(fraction * samples + 4.0 * sqrt(samples * fraction * (1.0 - fraction)) + 4.0));
  if (rank >= samples) return false;
  // The sample in the bucket, in position order (one random position in each of `samples` strata).
  for (int i = 0; i < row_shape::items; ++i) {
    const std::int64_t j = threadIdx.x * row_shape::items + i;
    const std::int64_t at = j * cols / samples + (j * 2654435761u) % (cols / samples);
    s.bucket_words[j] = oriented_word(row[at], largest);
    s.bucket_positions[j] = static_cast<std::uint32_t>(at);
  }
  __syncthreads();
  // The pivot is the sample's record of rank `rank`: its word, and the equal_taken-th of the
  // samples with that word (they are in position order).
  unsigned equal_taken;
  const W pivot_word = select_in_bucket(s, samples, static_cast<unsigned long long>(rank), equal_taken);
  unsigned equal = 0;
  for (int i = 0; i < row_shape::items; ++i) equal += s.bucket_words[threadIdx.x * row_shape::items + i] == pivot_word;
  unsigned equal_before;
  block_offsets(s, equal, equal_before);
  for (int i = 0; i < row_shape::items; ++i) {
    const int j = threadIdx.x * row_shape::items + i;
    if (s.bucket_words[j] == pivot_word && ++equal_before == equal_taken) s.pivot_position = s.bucket_positions[j];
  }
  __syncthreads();
  const record<W, std::uint32_t> pivot{pivot_word, s.pivot_position};
  __syncthreads();
  W words[row_shape::items];
  unsigned total_seen = 0;
  for (std::int64_t first = 0; first < cols; first += row_shape::chunk) {
    load_words(row, cols, first, largest, words);
    unsigned inside = 0;
    for (int i = 0; i < row_shape::items; ++i) {
      const std::int64_t at = first + threadIdx.x * row_shape::items + i;
      inside += at < cols && record<W, std::uint32_t>{words[i], static_cast<std::uint32_t>(at)} < pivot;
    }
    unsigned offset;
    const unsigned total = block_offsets(s, inside, offset);
    for (int i = 0; i < row_shape::items; ++i) {
      const std::int64_t at = first + threadIdx.x * row_shape::items + i;
      if (at < cols && record<W, std::uint32_t>{words[i], static_cast<std::uint32_t>(at)} < pivot) {
        const unsigned slot = total_seen + offset++;
        if (slot < row_shape::chunk) {
          s.bucket_words[slot] = words[i];
          s.bucket_positions[slot] = static_cast<std::uint32_t>(at);
        }
      }
    }
    total_seen += total;
  }
  __syncthreads();
  const bool ready = total_seen >= static_cast<unsigned>(k) && total_seen <= row_shape::chunk;
  if (ready) gathered = total_seen;
  return ready;
}

/// Row r of `data` (rows x cols): positions of its k smallest records to positions[r * k ...],
/// in no particular order; when `sort_output`, sorted by (word, position) (k <= row_shape::chunk).
template <class T>
__global__ void __launch_bounds__(row_shape::block)
    row_top_k_kernel(const T* data, std::int64_t cols, std::int64_t k, bool largest, bool sort_output,
                     std::uint32_t* positions) {
  using W = radix_word<T>;
  constexpr int word_bits = 8 * sizeof(W);
  extern __shared__ __align__(16) unsigned char shared[];
  auto& s = *reinterpret_cast<row_storage<W>*>(shared);
  const T* row = data + static_cast<std::int64_t>(blockIdx.x) * cols;
  std::uint32_t* out = positions + static_cast<std::int64_t>(blockIdx.x) * k;

  unsigned long long target = static_cast<unsigned long long>(k - 1);
  unsigned gathered = 0;
  bool bucket_ready = cols > row_shape::chunk && sampled_bucket(s, row, cols, k, largest, gathered);

  // Rounds of radix selection from the top digit down, until the target bucket fits the buffer.
  W prefix = 0;  // the digits found so far, in place
  int bit = word_bits;
  unsigned long long bucket_size = static_cast<unsigned long long>(cols);
  while (!bucket_ready && bit > 0 && bucket_size > static_cast<unsigned long long>(row_shape::chunk)) {
    const int bits = bit >= row_shape::digit_bits ? row_shape::digit_bits : bit;
    bit -= bits;
    for (int b = threadIdx.x; b < row_shape::bins; b += row_shape::block) s.histogram[b] = 0;
    __syncthreads();
    for (std::int64_t first = 0; first < cols; first += row_shape::chunk) {
      W words[row_shape::items];
      load_words(row, cols, first, largest, words);
      for (int i = 0; i < row_shape::items; ++i) {
        const std::int64_t at = first + threadIdx.x * row_shape::items + i;
        const int above = bit + bits;
        const bool in_bucket = above >= word_bits || (words[i] >> above) == (prefix >> above);
        if (at < cols && in_bucket) atomicAdd(&s.histogram[digit_of(words[i], bit, bits)], 1u);
      }
    }
    __syncthreads();
    find_bin(s, target);
    prefix |= static_cast<W>(s.found) << bit;
    target = s.remaining;
    bucket_size = s.histogram[s.found];
    __syncthreads();
  }

  // Last pass, in position order: below the bucket goes out, the bucket goes to shared memory
  // (all of it when it fits; else its words are all equal and only the first target + 1 count).
  const bool bucket_fits = bucket_ready || bucket_size <= static_cast<unsigned long long>(row_shape::chunk);
  if (threadIdx.x == 0) s.emitted = 0;
  __syncthreads();
  for (std::int64_t first = 0; !bucket_ready && first < cols; first += row_shape::chunk) {
    W words[row_shape::items];
    load_words(row, cols, first, largest, words);
    unsigned below = 0, inside = 0;
    for (int i = 0; i < row_shape::items; ++i) {
      const std::int64_t at = first + threadIdx.x * row_shape::items + i;
      if (at >= cols) continue;
      const W high = bit >= word_bits ? W{0} : static_cast<W>(words[i] >> bit);
      const W want = bit >= word_bits ? W{0} : static_cast<W>(prefix >> bit);
      below += high < want;
      inside += high == want;
    }
    unsigned offset;
    const unsigned total = block_offsets(s, (below << 16) | inside, offset);
    unsigned below_at = offset >> 16, inside_at = offset & 0xffffu;
    const unsigned below_total = total >> 16, inside_total = total & 0xffffu;
    const unsigned emitted = s.emitted;
    for (int i = 0; i < row_shape::items; ++i) {
      const std::int64_t at = first + threadIdx.x * row_shape::items + i;
      if (at >= cols) continue;
      const W high = bit >= word_bits ? W{0} : static_cast<W>(words[i] >> bit);
      const W want = bit >= word_bits ? W{0} : static_cast<W>(prefix >> bit);
      if (high < want) {
        out[emitted + below_at++] = static_cast<std::uint32_t>(at);
      } else if (high == want) {
        const unsigned slot = gathered + inside_at++;
        if (bucket_fits) {
          s.bucket_words[slot] = words[i];
          s.bucket_positions[slot] = static_cast<std::uint32_t>(at);
        } else if (slot <= target) {
          // Every digit is resolved, so the bucket is one word: its first target + 1 complete it.
          out[k - 1 - target + slot] = static_cast<std::uint32_t>(at);
        }
      }
    }
    gathered += inside_total;
    __syncthreads();
    if (threadIdx.x == 0) s.emitted = emitted + below_total;
    __syncthreads();
  }

  if (bucket_fits) {
    // The bucket, in position order, holds the ranks [k - 1 - target, ...]: the first target + 1
    // of it by (word, position) complete the row. They are the words below the bucket's word of
    // rank `target` and the first equal_taken of the words equal to it.
    unsigned equal_taken;
    const W pivot = select_in_bucket(s, gathered, target, equal_taken);
    unsigned less = 0, equal = 0;
    for (int i = 0; i < row_shape::items; ++i) {
      const unsigned slot = threadIdx.x * row_shape::items + i;
      if (slot >= gathered) break;
      less += s.bucket_words[slot] < pivot;
      equal += s.bucket_words[slot] == pivot;
    }
    unsigned offset;
    const unsigned total = block_offsets(s, (less << 16) | equal, offset);
    std::uint32_t* first_out = out + (k - 1 - target);
    unsigned less_at = offset >> 16, equal_at = offset & 0xffffu;
    const unsigned less_total = total >> 16;
    for (int i = 0; i < row_shape::items; ++i) {
      const unsigned slot = threadIdx.x * row_shape::items + i;
      if (slot >= gathered) break;
      const W word = s.bucket_words[slot];
      if (word < pivot) {
        first_out[less_at++] = s.bucket_positions[slot];
      } else if (word == pivot) {
        if (equal_at < equal_taken) first_out[less_total + equal_at] = s.bucket_positions[slot];
        ++equal_at;
      }
    }
  }
  if (!sort_output) return;

  // Sorted output: a stable sort of the k positions by word (equal words are in position order).
  __syncthreads();
  W words[row_shape::items];
  std::uint32_t where[row_shape::items];
  for (int i = 0; i < row_shape::items; ++i) {
    const std::int64_t j = threadIdx.x * row_shape::items + i;
    where[i] = j < k ? out[j] : ~0u;
    words[i] = j < k ? oriented_word(row[where[i]], largest) : W(~W{0});
  }
  __syncthreads();
  typename row_storage<W>::sort(s.temp.sort).Sort(words, where);
  for (int i = 0; i < row_shape::items; ++i) {
    const std::int64_t j = threadIdx.x * row_shape::items + i;
    if (j < k) out[j] = where[i];
  }
}

}  // namespace bkt::detail::select
