// The kernels of one level of the two-pivot filter (Monroe et al., "Randomized selection on the
// GPU"): a single block places the window from a sample, the filter reads every record once,
// counting what lies below the window (and, for top-k, appending it to the output) and keeping
// what lies inside; once few records remain, one block sorts them all and finishes.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <cstring>
#include <limits>

#include "bkt/detail/select/block_records.cuh"
#include "bkt/device/warp_scan.cuh"

namespace bkt::detail::select {

/// A sorted sample's shape: one block of BLOCK threads, ITEMS records each (more threads would
/// spill). It also bounds the last level, which sorts everything left.
template <class W, class P>
struct sample_shape {
  static constexpr int block = 512;
  static constexpr int items = 16;
  static constexpr std::int64_t samples = std::int64_t{block} * items;
};

/// The first level's sample: words only (their positions follow from their indices), so that one
/// block holds four times a sorted sample's records in registers. The window's width falls as the
/// square root of the sample: the median's window keeps 1.7 % of the input instead of 3.3 %.
template <class W>
struct drawn_shape {
  static constexpr int block = 512;
  static constexpr int items = sizeof(W) == 8 ? 32 : 64;
  static constexpr std::int64_t samples = std::int64_t{block} * items;
  static constexpr int draw_block = 256;
};

/// The filter's tile: BLOCK threads, ITEMS words each, read in a striped order (coalesced); two
/// blocks per multiprocessor fit without spilling.
template <class W>
struct filter_shape {
  static constexpr int block = 512;
  static constexpr int items = sizeof(W) == 8 ? 8 : 16;
  static constexpr std::int64_t tile = std::int64_t{block} * items;
};

/// Sets the window's ends from the sample's records at its two ranks (clamped to the sample), of
/// whose low word the sample holds `copies`, and zeroes the counts the filter pass adds to (one
/// thread).
template <class W, class P>
__device__ void set_window(const window_ranks& ranks, std::int64_t samples, const record<W, P>& low,
                           const record<W, P>& high, std::int64_t copies, pivots<W, P>* window,
                           filter_counts* counts) {
  *counts = filter_counts{};
  // Built in zeroed bytes and copied whole: the host reads the window back, padding included.
  pivots<W, P> w;
  std::memset(&w, 0, sizeof w);
  w.low_open = ranks.low < 0;
  w.high_open = ranks.high >= samples;
  w.heavy = low.word == high.word && 4 * copies >= samples;
  // An open side's record is never compared, but the filter loads the whole window: define it.
  if (!w.low_open) w.low = low;
  if (!w.high_open) w.high = high;
  std::memcpy(window, &w, sizeof w);
}

/// Draws the words of `drawn` stratified positions of the input (one a thread, so that all the
/// gathers are in flight together across the chip) into words[0, drawn).
template <class Source>
__global__ void draw_words_kernel(Source source, std::int64_t drawn, std::uint64_t seed,
                                  typename Source::word_type* words) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < drawn) words[i] = source.word_at(stratified_position(i, drawn, source.size, seed));
}

/// Places the window around rank `target` of `size` records from the `drawn` words that
/// draw_words_kernel left: selects the two window ranks (ties by index, which is position order),
/// and recovers the chosen records' positions from their indices.
template <int BLOCK, int ITEMS, class W, class P>
__global__ void __launch_bounds__(BLOCK)
    drawn_window_kernel(const W* drawn_words, std::int64_t drawn, std::int64_t size, std::int64_t target, float spread,
                        std::uint64_t seed, pivots<W, P>* window, filter_counts* counts) {
  using selector = block_rank_select<BLOCK, ITEMS, W>;
  __shared__ typename selector::storage shared;
  const auto ranks = window_ranks::around(target, size, drawn, spread);
  W words[ITEMS];
  const std::int64_t first = std::int64_t{threadIdx.x} * ITEMS;
  if (first + ITEMS <= drawn) {
    constexpr int V = 16 / sizeof(W);
    static_assert(ITEMS % V == 0);
#pragma unroll
    for (int j = 0; j < ITEMS / V; ++j) {
      const uint4 v = __ldg(reinterpret_cast<const uint4*>(drawn_words + first) + j);
      std::memcpy(words + j * V, &v, sizeof v);
    }
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)  // padding comes after every real word
      words[i] = first + i < drawn ? drawn_words[first + i] : static_cast<W>(~W{0});
  }
  const auto inside = ranks.clamped(drawn);
  const unsigned wanted[2] = {static_cast<unsigned>(inside.low), static_cast<unsigned>(inside.high)};
  unsigned chosen[2], copies;
  selector::select(words, wanted, chosen, shared, &copies);
  if (threadIdx.x == 0) {
    const auto at = [&](unsigned index) {
      return record<W, P>{drawn_words[index], static_cast<P>(stratified_position(index, drawn, size, seed))};
    };
    set_window(ranks, drawn, at(chosen[0]), at(chosen[1]), copies, window, counts);
  }
}

/// The window of a later level (records kept by the previous one, whose positions are in no
/// order): a sorted stratified sample, whose records at the window's two ranks bound it.
template <int BLOCK, int ITEMS, class Source>
__global__ void __launch_bounds__(BLOCK)
    sorted_window_kernel(Source source, std::int64_t target, float spread, std::uint64_t seed,
                         pivots<typename Source::word_type, typename Source::position_type>* window,
                         filter_counts* counts) {
  using W = typename Source::word_type;
  using P = typename Source::position_type;
  using sorter = block_record_sort<BLOCK, ITEMS, W, P>;
  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ record<W, P> ends[2];
  __shared__ unsigned copies;  // of the low end's word

  constexpr std::int64_t samples = std::int64_t{BLOCK} * ITEMS;
  const auto ranks = window_ranks::around(target, source.size, samples, spread);
  record<W, P> r[ITEMS];
  sorted_sample<BLOCK, ITEMS>(source, samples, seed, r, *reinterpret_cast<typename sorter::storage*>(shared));
  const auto inside = ranks.clamped(samples);
  if (threadIdx.x == 0) copies = 0;
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t rank = std::int64_t{threadIdx.x} * ITEMS + i;
    if (rank == inside.low) ends[0] = r[i];
    if (rank == inside.high) ends[1] = r[i];
  }
  __syncthreads();
  unsigned mine = 0;
  for (int i = 0; i < ITEMS; ++i) mine += r[i].word == ends[0].word;
  atomicAdd(&copies, mine);
  __syncthreads();
  if (threadIdx.x == 0) set_window(ranks, samples, ends[0], ends[1], copies, window, counts);
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

/// Where item i of thread `thread` (of the BLOCK threads sharing a tile) lies: with 16-byte loads
/// (whole aligned tiles) item i is element i % V of vector (i / V) * BLOCK + thread, otherwise
/// element i * BLOCK + thread.
template <int BLOCK, int V>
struct tile_items {
  std::int64_t tile;
  bool vectors;
  unsigned thread;
  __device__ std::int64_t element(int i) const {
    return vectors ? tile + (std::int64_t{i / V} * BLOCK + thread) * V + i % V
                   : tile + std::int64_t{i} * BLOCK + thread;
  }
};

/// Loads a thread's ITEMS values of one tile (those past the end of a partial tile stay unset).
template <int ITEMS, int BLOCK, class Source>
__device__ __forceinline__ void load_tile(const Source& source, const tile_items<BLOCK, Source::vector>& items,
                                          bool full, typename Source::value_type (&values)[ITEMS]) {
  constexpr int V = Source::vector;
  static_assert(ITEMS % V == 0);
  if (items.vectors) {
#pragma unroll
    for (int j = 0; j < ITEMS / V; ++j) {
      typename Source::value_type part[V];
      source.vector_values_at(items.element(j * V), part);
#pragma unroll
      for (int e = 0; e < V; ++e) values[j * V + e] = part[e];
    }
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::int64_t at = items.element(i);
      if (full || at < source.size) values[i] = source.value_at(at);
    }
  }
}

/// Sets bit i of *below or *kept when record r lies below the window or in it.
template <class W, class P>
__device__ inline void place(const pivots<W, P>& w, const record<W, P>& r, int i, unsigned* below, unsigned* kept) {
  if (!w.low_open && r < w.low) *below |= 1u << i;
  else if (w.high_open || !(w.high < r)) *kept |= 1u << i;
}

/// The window seen by the copies of one word: a copy lies below it when its position is below
/// `below_end`, else in it when its position is at most `kept_last` (the record order of `place`
/// with the word fixed).
struct copy_bounds {
  std::int64_t below_end, kept_last;
  template <class W, class P>
  __device__ copy_bounds(const pivots<W, P>& w, W word)
      : below_end(w.low_open || w.low.word < word   ? 0
                  : word < w.low.word               ? std::numeric_limits<std::int64_t>::max()
                                                    : static_cast<std::int64_t>(w.low.position)),
        kept_last(w.high_open || word < w.high.word ? std::numeric_limits<std::int64_t>::max()
                  : w.high.word < word              ? -1
                                                    : static_cast<std::int64_t>(w.high.position)) {}
};

/// Where a filter pass writes: the kept records and the positions below the window, while they
/// fit, and the counts of both, which add up past the capacities so that the host sees overflow.
template <class Source>
struct filter_outputs {
  typename Source::word_type* kept_words;
  typename Source::position_type* kept_positions;
  std::int64_t kept_capacity;
  typename Source::position_type* below_out;
  std::int64_t below_capacity;
  filter_counts* counts;
};

/// The block's shared memory in a filter pass.
template <int BLOCK>
struct filter_shared {
  typename cub::BlockScan<unsigned, BLOCK>::TempStorage scan;
  unsigned long long base_below, base_kept;
};

/// Classifies a thread's items of one tile: *below counts the records below the window, of which
/// *below_bits marks those whose positions are written (TAKE_BELOW: all of them), and *kept_bits
/// marks those inside it.
///
/// The pass is bound by integer instructions, not bytes, so an element costs as few as it can:
/// the element's own comparisons against the pivots' values (native_order; DESCENDING says how
/// `source` orients them) clear what surely lies below (counted) or above the window, and only
/// the rest, the candidates, are placed exactly as records: read again one by one (few), or with
/// TIED from the registers, where positions alone place the copies of a heavy value (many).
/// With TAKE_BELOW, everything up to the window's top is a candidate, since its positions are written.
template <int ITEMS, bool TAKE_BELOW, bool DESCENDING, bool TIED, class Source, class Items>
__device__ __forceinline__ void classify_tile(
    const Source& source, const pivots<typename Source::word_type, typename Source::position_type>& w,
    const Items& items, bool full,
    const typename Source::value_type (&values)[ITEMS], unsigned* below, unsigned* below_bits, unsigned* kept_bits) {
  using X = typename Source::value_type;
  using order = native_order<X, DESCENDING>;
  static_assert(ITEMS <= 16, "a thread's classes are bit masks of its items");
  const auto element = [&](int i) { return items.element(i); };
  // An open end compares as the value nothing passes.
  const X low = w.low_open ? order::first() : source.value_of(w.low.word);
  const X high = w.high_open ? order::last() : source.value_of(w.high.word);
  unsigned candidate_bits = 0;
  auto classify = [&](auto whole) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const bool real = whole || element(i) < source.size;
      if constexpr (TAKE_BELOW) {
        candidate_bits |= static_cast<unsigned>(real && !order::less(high, values[i])) << i;
      } else {
        *below += real && order::less(values[i], low);
        candidate_bits |= static_cast<unsigned>(real && !order::less(values[i], low) && !order::less(high, values[i]))
                          << i;
      }
    }
  };
  if (full) classify(std::true_type{}); else classify(std::false_type{});

  if constexpr (TIED) {
    // The heavy value's word is a closed end's (an open end holds no element's word); its copies
    // are placed by two position bounds, the rest as records.
    const auto heavy_word = w.low_open ? w.high.word : w.low.word;
    const X heavy = source.value_of(heavy_word);
    const copy_bounds bounds(w, heavy_word);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (!(candidate_bits & (1u << i))) continue;
      const auto position = source.position_at(element(i));
      if (Source::identical(values[i], heavy)) {
        const auto at = static_cast<std::int64_t>(position);
        if (at < bounds.below_end) *below_bits |= 1u << i;
        else if (at <= bounds.kept_last) *kept_bits |= 1u << i;
      } else {
        place(w, {source.word_of(values[i]), position}, i, below_bits, kept_bits);
      }
    }
  } else {
    // Each is read again (from L1), so the registers are never indexed at run time. Where they
    // are few, most lie strictly between the pivots' values (or, taking below, below the low one)
    // and are placed by those comparisons; only a value equal to a pivot's (or a NaN) needs its
    // record. Where they crowd, most are likely copies of a pivot's value (a heavy value at an
    // edge of the window), and go straight to their records: comparing values first made top_k
    // of an all-equal input slower.
    const bool crowded = __popc(candidate_bits) > ITEMS / 4;
    for (unsigned bits = candidate_bits; bits != 0; bits &= bits - 1) {
      const int i = __ffs(static_cast<int>(bits)) - 1;
      const std::int64_t at = element(i);
      if (!crowded) {
        const X value = source.value_at(at);
        if (TAKE_BELOW && order::less(value, low)) {
          *below_bits |= 1u << i;
          continue;
        }
        if ((w.low_open || order::less(low, value)) && (w.high_open || order::less(value, high))) {
          *kept_bits |= 1u << i;
          continue;
        }
      }
      place(w, source.at(at), i, below_bits, kept_bits);
    }
  }
  *below += __popc(*below_bits);
}

/// Writes a thread's marked records from the given output indices on: the positions below the
/// window (TAKE_BELOW) and the kept records, each while it fits its buffer.
template <bool TAKE_BELOW, class Source, class Items>
__device__ __forceinline__ void store_tile(const Source& source, const Items& items, const filter_outputs<Source>& out,
                                           unsigned below_bits, unsigned kept_bits, unsigned long long next_below,
                                           unsigned long long next_kept) {
  if constexpr (TAKE_BELOW) {
    for (unsigned bits = below_bits; bits != 0; bits &= bits - 1, ++next_below)
      if (next_below < static_cast<unsigned long long>(out.below_capacity))
        out.below_out[next_below] = source.position_at(items.element(__ffs(static_cast<int>(bits)) - 1));
  }
  for (unsigned bits = kept_bits; bits != 0; bits &= bits - 1, ++next_kept) {
    if (next_kept >= static_cast<unsigned long long>(out.kept_capacity)) continue;
    const auto at = items.element(__ffs(static_cast<int>(bits)) - 1);
    out.kept_words[next_kept] = source.word_at(at);
    out.kept_positions[next_kept] = source.position_at(at);
  }
}

/// One tile of a filter pass, block-wide: counts the records below the window (with TAKE_BELOW,
/// appending their positions) and stores those inside it. A tile with nothing to write or count
/// skips the scan.
template <int BLOCK, int ITEMS, bool TAKE_BELOW, bool DESCENDING, class Source>
__device__ __forceinline__ void filter_tile(const Source& source,
                                            const pivots<typename Source::word_type, typename Source::position_type>& w,
                                            std::int64_t tile, const filter_outputs<Source>& out,
                                            filter_shared<BLOCK>& shared) {
  const bool full = tile + BLOCK * ITEMS <= source.size;
  const tile_items<BLOCK, Source::vector> items{tile, full && Source::vector > 1 && source.vectors_aligned(),
                                                threadIdx.x};
  typename Source::value_type values[ITEMS];
  load_tile<ITEMS>(source, items, full, values);
  unsigned below = 0, below_bits = 0, kept_bits = 0;
  classify_tile<ITEMS, TAKE_BELOW, DESCENDING, false>(source, w, items, full, values, &below, &below_bits, &kept_bits);
  if (!__syncthreads_or(below | kept_bits)) return;

  // Both counts in one scan: below in the high half, kept in the low half (each < 2^16).
  unsigned offset = 0, total = 0;
  cub::BlockScan<unsigned, BLOCK>(shared.scan).ExclusiveSum((below << 16) | __popc(kept_bits), offset, total);
  if (threadIdx.x == 0) {
    const unsigned long long tile_below = total >> 16, tile_kept = total & 0xffffu;
    shared.base_below = tile_below ? atomicAdd(&out.counts->below, tile_below) : 0;
    shared.base_kept = tile_kept ? atomicAdd(&out.counts->middle, tile_kept) : 0;
  }
  __syncthreads();
  store_tile<TAKE_BELOW>(source, items, out, below_bits, kept_bits, shared.base_below + (offset >> 16),
                         shared.base_kept + (offset & 0xffffu));
}

/// Top-k's pass when a heavy value fills the window (tied_filter): every copy of it is a candidate,
/// placed by its position, and almost every tile has nothing to store. So each warp takes tiles
/// of its own and shares out output room only when it has something to store: no block barrier
/// holds back the next loads.
template <int ITEMS, bool DESCENDING, class Source>
__device__ void filter_tied_in_warps(const Source& source,
                                     const pivots<typename Source::word_type, typename Source::position_type>& w,
                                     const filter_outputs<Source>& out) {
  constexpr std::int64_t tile_size = std::int64_t{warp_threads} * ITEMS;
  const auto lane = static_cast<unsigned>(lane_id());
  const std::int64_t warps = std::int64_t{gridDim.x} * blockDim.x / warp_threads;
  const std::int64_t first = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / warp_threads;
  for (std::int64_t tile = first * tile_size; tile < source.size; tile += warps * tile_size) {
    const bool full = tile + tile_size <= source.size;
    const tile_items<warp_threads, Source::vector> items{
        tile, full && Source::vector > 1 && source.vectors_aligned(), lane};
    typename Source::value_type values[ITEMS];
    load_tile<ITEMS>(source, items, full, values);
    unsigned below = 0, below_bits = 0, kept_bits = 0;
    classify_tile<ITEMS, true, DESCENDING, true>(source, w, items, full, values, &below, &below_bits, &kept_bits);
    if (!__any_sync(full_warp_mask, below_bits | kept_bits)) continue;
    // Both counts in one scan, as in filter_tile.
    const unsigned mine = (static_cast<unsigned>(__popc(below_bits)) << 16) | __popc(kept_bits);
    const unsigned through = warp_inclusive_sum(mine), offset = through - mine;
    const unsigned total = __shfl_sync(full_warp_mask, through, warp_threads - 1);
    unsigned long long base_below = 0, base_kept = 0;
    if (lane == 0) {
      if (total >> 16) base_below = atomicAdd(&out.counts->below, static_cast<unsigned long long>(total >> 16));
      if (total & 0xffffu) base_kept = atomicAdd(&out.counts->middle, static_cast<unsigned long long>(total & 0xffffu));
    }
    base_below = __shfl_sync(full_warp_mask, base_below, 0);
    base_kept = __shfl_sync(full_warp_mask, base_kept, 0);
    store_tile<true>(source, items, out, below_bits, kept_bits, base_below + (offset >> 16),
                     base_kept + (offset & 0xffffu));
  }
}

/// A value search's pass when both pivots have one word (a heavy value): counts the records below
/// that word (`below`) and all records of it (`middle`), whatever their positions, and stores
/// nothing. A search for a value needs no more: the word is the answer exactly when the target
/// falls among its records, and the low pivot's element then names it (see narrow_kernel and the
/// host). Placing each copy by its position, as top-k must, took twice a read of the input.
template <int BLOCK, int ITEMS, bool DESCENDING, class Source>
__device__ void count_one_word(const Source& source,
                               const pivots<typename Source::word_type, typename Source::position_type>& w,
                               filter_counts* counts) {
  using X = typename Source::value_type;
  using order = native_order<X, DESCENDING>;
  const auto word = w.low.word;
  const X value = source.value_of(word);
  unsigned long long below = 0, equal = 0;
  constexpr std::int64_t tile_size = std::int64_t{BLOCK} * ITEMS;
  for (std::int64_t tile = std::int64_t{blockIdx.x} * tile_size; tile < source.size; tile += tile_size * gridDim.x) {
    const bool full = tile + tile_size <= source.size;
    const tile_items<BLOCK, Source::vector> items{tile, full && Source::vector > 1 && source.vectors_aligned(),
                                                  threadIdx.x};
    X values[ITEMS];
    load_tile<ITEMS>(source, items, full, values);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const bool real = full || items.element(i) < source.size;
      // Values equal as numbers, or unordered (NaN), are told apart by their words.
      const bool less = order::less(values[i], value), tied = !less && !order::less(value, values[i]);
      const auto own = source.word_of(values[i]);
      below += real && (less || (tied && own < word));
      equal += real && tied && own == word;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    below += __shfl_down_sync(0xffffffffu, below, offset);
    equal += __shfl_down_sync(0xffffffffu, equal, offset);
  }
  if (threadIdx.x % 32 == 0) {
    if (below) atomicAdd(&counts->below, below);
    if (equal) atomicAdd(&counts->middle, equal);
  }
}

/// A filter pass. The common kernel (not TIED) takes one tile per block and does nothing when a
/// heavy value fills the window (tied_filter); then the TIED kernel works, over tiles in turn (a
/// grid of a few blocks per multiprocessor, which costs little when it has nothing to do): it
/// places the copies of the heavy value by their positions, or for a value search only counts.
/// The host launches both. Keeping the tied placement in the common kernel slowed the common case.
template <int BLOCK, int ITEMS, bool TAKE_BELOW, bool DESCENDING, bool TIED, class Source>
__global__ void __launch_bounds__(BLOCK, 2)
    filter_kernel(Source source, const pivots<typename Source::word_type, typename Source::position_type>* window,
                  filter_outputs<Source> out) {
  const auto w = *window;
  if (tied_filter(w, TAKE_BELOW) != TIED) return;
  if constexpr (!TIED) {
    __shared__ filter_shared<BLOCK> shared;
    constexpr std::int64_t tile_size = std::int64_t{BLOCK} * ITEMS;
    filter_tile<BLOCK, ITEMS, TAKE_BELOW, DESCENDING>(source, w, std::int64_t{blockIdx.x} * tile_size, out, shared);
  } else if constexpr (!TAKE_BELOW) {
    count_one_word<BLOCK, ITEMS, DESCENDING>(source, w, out.counts);
  } else {
    filter_tied_in_warps<ITEMS, DESCENDING>(source, w, out);
  }
}

}  // namespace bkt::detail::select
