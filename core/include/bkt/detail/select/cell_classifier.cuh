// SampleSelect's bucket rule (bkt/detail/select/splitter_buckets.hpp) for thousands of splitters:
// r sorted, distinct splitters give 2r + 1 buckets, bucket 2i the words strictly between
// splitters i - 1 and i, bucket 2i + 1 the words equal to splitter i. A binary search over 8191
// splitters costs 13 dependent shared-memory loads per element; here a table of equal-width cells
// over [first splitter, last splitter] holds, per cell, the splitters below it and how many fall
// inside it. A cell with none inside names its bucket at once, one with a single splitter needs
// one comparison; only the others are searched.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "bkt/detail/select/select_bits.hpp"
#include "bkt/detail/select/span_classifier.cuh"

namespace bkt::detail::select {

inline constexpr int classifier_max_splitters = 8191;

/// The first of splitters[0, count) that is not below w (count when none).
template <class W>
__device__ inline int first_not_below(const W* splitters, int count, W w) {
  int below = 0, above = count;
  while (below < above) {
    const int middle = (below + above) / 2;
    if (splitters[middle] < w) below = middle + 1; else above = middle;
  }
  return below;
}

/// Which classifier a multiselect uses: splitters with equality buckets (this file), or equal-mass
/// buckets by arithmetic (span_classifier.cuh) when the sample shows no heavy value.
enum class bucket_rule : int { splitters, span };

/// What the choosing kernel learns from the sample.
template <class W>
struct classifier_header {
  bucket_rule rule;
  int buckets;    // 2r + 1, or the span buckets
  int splitters;  // r >= 1 (splitters)
  int shift;      // cell of w >= low: (w - low) >> shift, clamped to the last cell
  W low;          // the first splitter, or the least sampled word
  W high;         // the greatest sampled word (span)
  int top;        // the bucket of high (span)
};

/// The classifier in global memory, as choose_buckets_kernel and cell_table_kernel leave it.
template <class W>
struct classifier_arrays {
  classifier_header<W>* header;
  W* splitters;          // classifier_max_splitters words, the first r of them used
  unsigned short* cells; // shared_classifier<W>::cell_count + 1 entries (shared_classifier::entry)
  unsigned* span_cells;  // span_classifier<W>::cells entries
};

template <class W>
struct shared_classifier {
  /// As many cells as fit beside the splitters, 16383 counters and a queue per warp in a block's
  /// shared memory (a multiple of 64).
  static constexpr int cell_count = sizeof(W) == 4 ? 60032 : 32768;
  /// A cell's entry: the splitters below its first word (13 bits), and in the top 3 bits how many
  /// lie inside it, 7 meaning "7 or more" (the next cell's entry tells).
  static constexpr int first_bits = 13;
  static constexpr unsigned first_mask = (1u << first_bits) - 1u;
  static constexpr unsigned many_inside = 7;

  static constexpr std::size_t splitter_bytes = (sizeof(W) * classifier_max_splitters + 15) / 16 * 16;
  static constexpr std::size_t cell_bytes = (sizeof(unsigned short) * (cell_count + 1) + 15) / 16 * 16;
  static constexpr std::size_t bytes = splitter_bytes + cell_bytes;

  const W* splitters;
  const unsigned short* cells;
  int count;
  int shift;
  W low;

  /// Copies `from` into shared[0, bytes); the caller synchronizes the block before searching.
  __device__ static shared_classifier load(const classifier_arrays<W>& from, unsigned char* shared) {
    const classifier_header<W> header = *from.header;
    auto* splitters = reinterpret_cast<W*>(shared);
    auto* cells = reinterpret_cast<unsigned*>(shared + splitter_bytes);
    for (int i = threadIdx.x; i < header.splitters; i += blockDim.x) splitters[i] = from.splitters[i];
    // Pairs of entries as 32-bit words (the last, odd one alone).
    const auto* pairs = reinterpret_cast<const unsigned*>(from.cells);
    for (int i = threadIdx.x; i < cell_count / 2; i += blockDim.x) cells[i] = pairs[i];
    if (threadIdx.x == 0) reinterpret_cast<unsigned short*>(cells)[cell_count] = from.cells[cell_count];
    return {splitters, reinterpret_cast<const unsigned short*>(cells), header.splitters, header.shift, header.low};
  }

  /// The cell of a word at or above `low`.
  __device__ int cell_of(W w) const {
    const W cell = (w - low) >> shift;
    return cell < W(cell_count) ? static_cast<int>(cell) : cell_count - 1;
  }

  /// The bucket of w, which lies in `cell`.
  __device__ int bucket_in_cell(W w, int cell) const {
    const unsigned entry = cells[cell];
    const int first = static_cast<int>(entry & first_mask);
    const unsigned inside = entry >> first_bits;
    if (inside == 0) return 2 * first;
    if (inside == 1) {
      const W s = splitters[first];
      return 2 * first + (w < s ? 0 : (w == s ? 1 : 2));
    }
    const int end = inside < many_inside ? first + static_cast<int>(inside) : static_cast<int>(cells[cell + 1] & first_mask);
    const int below = first + first_not_below(splitters + first, end - first, w);
    return 2 * below + (below < count && splitters[below] == w ? 1 : 0);
  }

  __device__ int bucket_of(W w) const { return w < low ? 0 : bucket_in_cell(w, cell_of(w)); }

  /// bucket_of(w) when w's cell holds at most one splitter (most cells of smooth data), without
  /// branches; -1 when it holds more and needs bucket_of.
  __device__ int simple_bucket_of(W w) const {
    if (w < low) return 0;
    const unsigned entry = cells[cell_of(w)];
    const int first = static_cast<int>(entry & first_mask);
    const unsigned inside = entry >> first_bits;
    const W s = splitters[first < count ? first : 0];
    const int step = inside == 0 || w < s ? 0 : (w == s ? 1 : 2);
    return inside > 1 ? -1 : 2 * first + step;
  }

  /// The interval buckets a cell's words can fall in are 2j for j in [first_interval, last_interval].
  __device__ int first_interval(int cell) const { return static_cast<int>(cells[cell] & first_mask); }
  __device__ int last_interval(int cell) const { return static_cast<int>(cells[cell + 1] & first_mask); }
};

/// One block chooses the buckets from a sorted sample of selection words. Given room for at least
/// 1024 span buckets within `most_buckets`, it first lays out span buckets: each of the 4096 cells
/// gets a share of the buckets proportional to its samples, at least one, at most one per word.
/// They are kept unless `crowded_samples` consecutive samples share a bucket (a heavy value, or a
/// cell whose words are far from even), in which case a few buckets would hold a large part of the
/// input. Then splitters: the candidates are the sample's `wanted` evenly spaced quantiles, of
/// which the distinct ones become splitters (each with an equality bucket), and the cell width is
/// the smallest power of two that spreads [first, last splitter] over the cells.
template <int BLOCK, class W>
__global__ void __launch_bounds__(BLOCK)
    choose_buckets_kernel(const W* sorted_sample, int sample_size, int wanted, int most_buckets,
                          classifier_arrays<W> out) {
  using span = span_classifier<W>;
  constexpr int items = (classifier_max_splitters + BLOCK - 1) / BLOCK;
  constexpr int cells_per_thread = span::cells / BLOCK;
  using scan = cub::BlockScan<int, BLOCK>;
  __shared__ typename scan::TempStorage temp;
  __shared__ unsigned samples[span::cells];
  __shared__ W first, last;
  const int span_buckets = most_buckets - span::cells;
  if (span_buckets >= 1024) {
    const W low = sorted_sample[0], high = sorted_sample[sample_size - 1];
    int shift = 0;
    while (((high - low) >> shift) >= W(span::cells)) ++shift;
    for (int c = threadIdx.x; c < span::cells; c += BLOCK) samples[c] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < sample_size; i += BLOCK)
      atomicAdd(&samples[static_cast<int>((sorted_sample[i] - low) >> shift)], 1u);
    __syncthreads();
    int parts[cells_per_thread], before[cells_per_thread];
    for (int i = 0; i < cells_per_thread; ++i) {
      const int c = static_cast<int>(threadIdx.x) * cells_per_thread + i;
      const int share = static_cast<int>(std::int64_t{samples[c]} * span_buckets / sample_size);
      parts[i] = share < 1 ? 1 : (shift < 16 && share > (1 << shift) ? 1 << shift : share);
    }
    int total;
    scan(temp).ExclusiveSum(parts, before, total);
    for (int i = 0; i < cells_per_thread; ++i)
      samples[threadIdx.x * cells_per_thread + i] = static_cast<unsigned>(before[i]) | static_cast<unsigned>(parts[i]) << 16;
    __syncthreads();
    // Buckets rise along the sorted sample, so a run of crowded_samples in one bucket shows as
    // equal buckets crowded_samples - 1 places apart.
    const span classify{samples, low, high, shift};
    bool crowded = false;
    for (int i = threadIdx.x; i + crowded_samples - 1 < sample_size; i += BLOCK)
      crowded |= classify.bucket_of(sorted_sample[i]) == classify.bucket_of(sorted_sample[i + crowded_samples - 1]);
    if (!__syncthreads_or(crowded)) {
      for (int c = threadIdx.x; c < span::cells; c += BLOCK) out.span_cells[c] = samples[c];
      if (threadIdx.x == 0)
        *out.header = classifier_header<W>{bucket_rule::span, total, 0, shift, low, high, classify.bucket_of(high)};
      return;
    }
  }
  const auto candidate = [&](int j) {
    return sorted_sample[static_cast<std::int64_t>(j + 1) * sample_size / (wanted + 1)];
  };
  W word[items];
  int keep[items], at[items];
  for (int i = 0; i < items; ++i) {
    const int j = static_cast<int>(threadIdx.x) * items + i;
    keep[i] = 0;
    if (j >= wanted) continue;
    word[i] = candidate(j);
    keep[i] = j == 0 || candidate(j - 1) != word[i];
  }
  int count;
  scan(temp).ExclusiveSum(keep, at, count);
  for (int i = 0; i < items; ++i) {
    if (!keep[i]) continue;
    out.splitters[at[i]] = word[i];
    if (at[i] == 0) first = word[i];
    if (at[i] == count - 1) last = word[i];
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  int shift = 0;
  while (((last - first) >> shift) >= W(shared_classifier<W>::cell_count)) ++shift;
  *out.header = classifier_header<W>{bucket_rule::splitters, 2 * count + 1, count, shift, first, first, 0};
}

/// One thread per cell entry (cell_count + 1 of them): the splitters below the cell's first word,
/// low + c * 2^shift (all of them past the last cell, or where that word overflows), and how many
/// lie inside the cell.
template <class W>
__global__ void cell_table_kernel(classifier_arrays<W> table) {
  using shape = shared_classifier<W>;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > shape::cell_count) return;
  const classifier_header<W> h = *table.header;
  if (h.rule != bucket_rule::splitters) return;
  const W largest = static_cast<W>(~W{0});
  const auto below = [&](int cell) {
    if (cell >= shape::cell_count || W(cell) > (largest >> h.shift) || (W(cell) << h.shift) > largest - h.low)
      return h.splitters;
    return first_not_below(table.splitters, h.splitters, static_cast<W>(h.low + (W(cell) << h.shift)));
  };
  const int first = below(c);
  const int inside = c < shape::cell_count ? below(c + 1) - first : 0;
  table.cells[c] = static_cast<unsigned short>(
      first | (inside < static_cast<int>(shape::many_inside) ? inside : shape::many_inside) << shape::first_bits);
}

}  // namespace bkt::detail::select
