// The kernels of one level of the two-pivot filter (Monroe et al., "Randomized selection on the
// GPU"): a single block sorts a sample and places the window, the filter reads every record once,
// counting what lies below the window (and, for top-k, appending it to the output) and keeping
// what lies inside; once few records remain, one block sorts them all and finishes.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "bkt/detail/select/block_records.cuh"

namespace bkt::detail::select {

/// Sample shape: one block of BLOCK threads, ITEMS records each (more threads would spill).
template <class W, class P>
struct sample_shape {
  static constexpr int block = 512;
  static constexpr int items = 16;
  static constexpr std::int64_t samples = std::int64_t{block} * items;
};

/// The filter's tile: BLOCK threads, ITEMS words each, read in a striped order (coalesced); two
/// blocks per multiprocessor fit without spilling.
template <class W>
struct filter_shape {
  static constexpr int block = 512;
  static constexpr int items = sizeof(W) == 8 ? 8 : 16;
  static constexpr std::int64_t tile = std::int64_t{block} * items;
};

/// Sorts a stratified sample of `source` and writes the window around rank `target`.
template <int BLOCK, int ITEMS, class Source>
__global__ void __launch_bounds__(BLOCK)
    sample_kernel(Source source, std::int64_t target, float spread, std::uint64_t seed,
                  pivots<typename Source::word_type, typename Source::position_type>* window) {
  using W = typename Source::word_type;
  using P = typename Source::position_type;
  using sorter = block_record_sort<BLOCK, ITEMS, W, P>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto& temp = *reinterpret_cast<typename sorter::storage*>(shared);

  constexpr std::int64_t samples = std::int64_t{BLOCK} * ITEMS;
  record<W, P> r[ITEMS];
  sorted_sample<BLOCK, ITEMS>(source, samples, seed, r, temp);

  const auto ranks = window_ranks::around(target, source.size, samples, spread);
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t rank = std::int64_t{threadIdx.x} * ITEMS + i;
    if (rank == ranks.low) window->low = r[i];
    if (rank == ranks.high) window->high = r[i];
  }
  if (threadIdx.x == 0) {
    window->low_open = ranks.low < 0;
    window->high_open = ranks.high >= samples;
    // An open side's record is never compared, but the filter loads the whole window: define it.
    if (ranks.low < 0) window->low = record<W, P>{};
    if (ranks.high >= samples) window->high = record<W, P>{};
  }
}

/// The last level: sorts all `source.size` (<= BLOCK * ITEMS) records. Writes the position of
/// rank `target` to *selected, and, when `taken` is not null, the positions of ranks [0, target]
/// to taken[0 ..].
template <int BLOCK, int ITEMS, class Source>
__global__ void __launch_bounds__(BLOCK)
    finish_kernel(Source source, std::int64_t target, typename Source::position_type* selected,
                  typename Source::position_type* taken) {
  using W = typename Source::word_type;
  using P = typename Source::position_type;
  using sorter = block_record_sort<BLOCK, ITEMS, W, P>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto& temp = *reinterpret_cast<typename sorter::storage*>(shared);

  record<W, P> r[ITEMS];
  sorted_sample<BLOCK, ITEMS>(source, source.size, 0, r, temp);
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t rank = std::int64_t{threadIdx.x} * ITEMS + i;
    if (rank == target && selected != nullptr) *selected = r[i].position;
    if (rank <= target && taken != nullptr) taken[rank] = r[i].position;
  }
}

/// One pass over the records: counts those below the window (appending their positions to
/// `below_out` while they fit in `below_capacity`) and stores those inside it (while they fit in
/// `kept_capacity`). Counts add up in `counts` even past the capacities, so the host sees overflow.
/// One tile per block; a tile with nothing to write skips the scan.
template <int BLOCK, int ITEMS, class Source>
__global__ void __launch_bounds__(BLOCK, 2)
    filter_kernel(Source source, const pivots<typename Source::word_type, typename Source::position_type>* window,
                  typename Source::word_type* kept_words, typename Source::position_type* kept_positions,
                  std::int64_t kept_capacity, typename Source::position_type* below_out,
                  std::int64_t below_capacity, filter_counts* counts) {
  using W = typename Source::word_type;
  using scan = cub::BlockScan<unsigned, BLOCK>;
  static_assert(ITEMS <= 16, "a thread's classes are bit masks of its items");
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ unsigned long long base_below, base_kept;

  const auto w = *window;
  const std::int64_t tile = std::int64_t{blockIdx.x} * BLOCK * ITEMS;
  const bool full = tile + BLOCK * ITEMS <= source.size;

  // Only words stay in registers; a position is read when a word ties with a pivot's word, or
  // when a kept record is stored. Whole aligned tiles are read with 16-byte loads: item i is then
  // element i % V of vector (i / V) * BLOCK + thread; otherwise item i is element i * BLOCK + thread.
  constexpr int V = Source::vector;
  static_assert(ITEMS % V == 0);
  const bool vectors = full && V > 1 && source.vectors_aligned();
  auto element = [&](int i) -> std::int64_t {
    return vectors ? tile + (std::int64_t{i / V} * BLOCK + threadIdx.x) * V + i % V
                   : tile + std::int64_t{i} * BLOCK + threadIdx.x;
  };
  W words[ITEMS];
  if (vectors) {
#pragma unroll
    for (int j = 0; j < ITEMS / V; ++j) {
      W part[V];
      source.vector_words_at(element(j * V), part);
#pragma unroll
      for (int e = 0; e < V; ++e) words[j * V + e] = part[e];
    }
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::int64_t at = element(i);
      if (full || at < source.size) words[i] = source.word_at(at);
    }
  }

  // Words alone decide all but the ties with a pivot's word, which compare positions too. An open
  // end's word is the extreme one, so it decides nothing alone and its ties are settled exactly.
  const W low_word = w.low_open ? W{0} : w.low.word;
  const W high_word = w.high_open ? static_cast<W>(~W{0}) : w.high.word;
  unsigned below_bits = 0, kept_bits = 0, tie_bits = 0;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const bool real = full || element(i) < source.size;
    below_bits |= static_cast<unsigned>(real && words[i] < low_word) << i;
    kept_bits |= static_cast<unsigned>(real && low_word < words[i] && words[i] < high_word) << i;
    tie_bits |= static_cast<unsigned>(real && (words[i] == low_word || words[i] == high_word)) << i;
  }
  if (tie_bits != 0) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (!(tie_bits & (1u << i))) continue;
      const auto position = source.position_at(element(i));
      const W word = words[i];
      if (!w.low_open && (word < w.low.word || (word == w.low.word && position < w.low.position))) {
        below_bits |= 1u << i;
      } else if (w.high_open || word < w.high.word || (word == w.high.word && !(w.high.position < position))) {
        kept_bits |= 1u << i;
      }
    }
  }
  if (!__syncthreads_or(below_bits | kept_bits)) return;

  // Both counts in one scan: below in the high half, kept in the low half (each < 2^16).
  unsigned offset = 0, total = 0;
  scan(scan_storage).ExclusiveSum((static_cast<unsigned>(__popc(below_bits)) << 16) | __popc(kept_bits), offset, total);
  if (threadIdx.x == 0) {
    const unsigned long long tile_below = total >> 16, tile_kept = total & 0xffffu;
    base_below = tile_below ? atomicAdd(&counts->below, tile_below) : 0;
    base_kept = tile_kept ? atomicAdd(&counts->middle, tile_kept) : 0;
  }
  __syncthreads();
  unsigned long long next_below = base_below + (offset >> 16), next_kept = base_kept + (offset & 0xffffu);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (below_bits & (1u << i)) {
      if (below_out != nullptr && next_below < static_cast<unsigned long long>(below_capacity))
        below_out[next_below] = source.position_at(element(i));
      ++next_below;
    } else if (kept_bits & (1u << i)) {
      if (next_kept < static_cast<unsigned long long>(kept_capacity)) {
        kept_words[next_kept] = words[i];
        kept_positions[next_kept] = source.position_at(element(i));
      }
      ++next_kept;
    }
  }
}

}  // namespace bkt::detail::select
