// After the first two-pivot level: narrowing the kept records to the target without the host.
// One cooperative kernel repeats rounds of a 4096-bin histogram over the span of the records that
// remain (by word while their words differ, then by position), the choice of the bin that holds
// the target, and a filter that keeps that bin (and, for top-k, appends the positions below it),
// until one block can sort what is left (or, when only a value is sought, until one word is left).
// Each round shrinks the span 4096-fold, so rounds are few even for inputs the sample misjudged
// (at most ceil(bits(W) / 12) + ceil(bits(P) / 12) + 1), and the host sees no round at all: the
// levels after the first used to cost a sample sort and a stream synchronization each.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <limits>

#include "bkt/detail/select/block_records.cuh"

namespace bkt::detail::select {

struct narrow_shape {
  static constexpr int block = 512;
  static constexpr int bin_bits = 12;
  static constexpr int bins = 1 << bin_bits;
  /// The finishing block sorts at most block * finish_items records when positions are taken;
  /// when only a value is sought it selects one rank among at most block * select_items.
  static constexpr int finish_items = 4;
  static constexpr int select_items = 8;
  static constexpr int unroll = 8;  // records each thread has in flight per step
};

/// Where the rounds stand; lives in the workspace, written by block 0 between grid barriers.
template <class W, class P>
struct narrow_state {
  record<W, P> low, high;      // every remaining record r has low <= r <= high
  unsigned long long remaining;  // how many records that is
  unsigned long long target;     // rank sought among them
  unsigned long long bin;        // this round's chosen bin
  unsigned long long taken;      // positions appended to `taken` so far
  unsigned long long kept[3];    // the filter's fill counter, by round % 3
  int copy;                      // whether this round's filter copies the chosen bin
};

template <class W, class P>
struct narrow_args {
  W* words[2];
  P* positions[2];
  std::int64_t capacity[2];
  const pivots<W, P>* window;      // the first level's window: the bounds of the records in buffer 0
  const filter_counts* counts;     // the first level's counts: records below the window, in buffer 0
  narrow_state<W, P>* state;
  unsigned long long* histogram;  // narrow_shape::bins
  std::int64_t target;  // rank sought among the first level's records
  P* selected;          // the position of the target
  P* taken;             // when not null: the positions of the ranks below the target; the first
                        // level wrote those below its window, the rest are appended
};

/// How one round maps records to bins: by word over [low.word, high.word] while those differ,
/// else by position over [low.position, high.position]; both spans shifted into 4096 bins.
template <class W, class P>
struct narrow_bins {
  bool by_word;
  int shift;
  record<W, P> low, high;

  template <class U>
  __device__ static int span_shift(U span) {
    int width = 0;
    if constexpr (sizeof(U) == 8) width = span == 0 ? 0 : 64 - __clzll(static_cast<long long>(span));
    else width = span == 0 ? 0 : 32 - __clz(static_cast<int>(span));
    return width > narrow_shape::bin_bits ? width - narrow_shape::bin_bits : 0;
  }

  __device__ narrow_bins(const record<W, P>& l, const record<W, P>& h) : by_word(l.word != h.word), low(l), high(h) {
    shift = by_word ? span_shift<W>(static_cast<W>(h.word - l.word)) : span_shift<P>(static_cast<P>(h.position - l.position));
  }

  __device__ unsigned operator()(W word, P position) const {
    return by_word ? static_cast<unsigned>(static_cast<W>(word - low.word) >> shift)
                   : static_cast<unsigned>(static_cast<P>(position - low.position) >> shift);
  }

  /// The bounds of the records in bin b.
  __device__ void bounds(unsigned b, record<W, P>& l, record<W, P>& h) const {
    if (by_word) {
      const W first = static_cast<W>(low.word + (static_cast<W>(b) << shift));
      W last = static_cast<W>(first + ((W{1} << shift) - 1));
      if (last < first || last > high.word) last = high.word;
      l = first == low.word ? low : record<W, P>{first, P{0}};
      h = last == high.word ? high : record<W, P>{last, std::numeric_limits<P>::max()};
    } else {
      const P first = static_cast<P>(low.position + (static_cast<P>(b) << shift));
      P last = static_cast<P>(first + ((P{1} << shift) - 1));
      if (last < first || last > high.position) last = high.position;
      l = {low.word, first};
      h = {low.word, last};
    }
  }
};

/// Loads that bypass L1: what other blocks wrote before the last grid barrier.
template <class U>
__device__ inline U coherent_load(const U* p) {
  return __ldcg(p);
}
template <class W, class P>
__device__ inline record<W, P> coherent_load(const record<W, P>* p) {
  return {__ldcg(&p->word), __ldcg(&p->position)};
}

/// What the first level left to narrow: its kept records (buffer 0, unless it only counted), the
/// rank sought among them, and how many positions below its window it took. `valid` is false when
/// the window missed the target or the buffer could not hold what it stored: the kernel then does
/// nothing, and the host runs the level again with a wider window.
struct narrow_start {
  std::int64_t size, target, taken;
  bool valid;

  template <class W, class P>
  __device__ explicit narrow_start(const narrow_args<W, P>& a) {
    taken = static_cast<std::int64_t>(coherent_load(&a.counts->below));
    size = static_cast<std::int64_t>(coherent_load(&a.counts->middle));
    target = a.target - taken;
    const bool fits = size <= a.capacity[0] || counted_only(*a.window, a.taken != nullptr);
    valid = 0 <= target && target < size && fits;
  }
};

/// Claims one slot at *fill for each lane that wants one (one atomic per warp) and calls
/// store(slot) on those lanes. Every lane of the warp must call it.
template <class Store>
__device__ inline void warp_append(bool wanted, unsigned long long* fill, Store&& store) {
  const unsigned mask = __ballot_sync(0xffffffffu, wanted);
  if (mask == 0) return;
  const int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(fill, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (wanted) store(base + __popc(mask & ((1u << lane) - 1u)));
}

template <class W, class P>
__global__ void __launch_bounds__(narrow_shape::block) narrow_kernel(narrow_args<W, P> a) {
  namespace cg = cooperative_groups;
  constexpr int BLOCK = narrow_shape::block, BINS = narrow_shape::bins, ITEMS = narrow_shape::finish_items;
  using scan = cub::BlockScan<unsigned long long, BLOCK>;
  using by_word = cub::BlockRadixSort<W, BLOCK, ITEMS, P>;
  using by_position = cub::BlockRadixSort<P, BLOCK, ITEMS, W>;
  using selector = block_rank_select<BLOCK, narrow_shape::select_items, W>;
  __shared__ union {
    unsigned histogram[BINS];
    typename scan::TempStorage scan;
    typename by_word::TempStorage word;
    typename by_position::TempStorage position;
    typename selector::storage select;
  } shared;
  __shared__ unsigned long long chosen[3];  // the bin holding the target, records below it, in it

  const narrow_start start(a);
  if (!start.valid) return;  // every block reads the same counts, so none waits at a barrier
  cg::grid_group grid = cg::this_grid();
  narrow_state<W, P>& s = *a.state;
  const bool leader = blockIdx.x == 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * BLOCK;
  const std::int64_t first = std::int64_t{blockIdx.x} * BLOCK + threadIdx.x;

  if (leader && threadIdx.x == 0) {
    const pivots<W, P> w = *a.window;
    s.low = w.low_open ? record<W, P>{W{0}, P{0}} : w.low;
    s.high = w.high_open ? record<W, P>{std::numeric_limits<W>::max(), std::numeric_limits<P>::max()} : w.high;
    s.remaining = static_cast<unsigned long long>(start.size);
    s.target = static_cast<unsigned long long>(start.target);
    s.taken = static_cast<unsigned long long>(start.taken);
    s.kept[0] = 0;
  }
  for (std::int64_t b = first; b < BINS; b += stride) a.histogram[b] = 0;
  grid.sync();

  // The records to scan are buffer `source`'s first `size`; when not `exact`, only those within
  // [low, high] remain (the last filter found the chosen bin too big to copy).
  std::int64_t size = start.size;
  int source = 0;
  bool exact = true;
  // A search for a value (no positions taken) is done once the records left share one word.
  const auto single_word = [&] {
    return a.taken == nullptr && exact && coherent_load(&s.low).word == coherent_load(&s.high).word;
  };
  const std::int64_t finish_size = std::int64_t{BLOCK} * (a.taken ? ITEMS : narrow_shape::select_items);
  for (int round = 0; static_cast<std::int64_t>(coherent_load(&s.remaining)) > finish_size && !single_word(); ++round) {
    const W* words = a.words[source];
    const P* positions = a.positions[source];
    const narrow_bins<W, P> bins(coherent_load(&s.low), coherent_load(&s.high));
    // The bin of record i, or BINS when it lies outside [low, high].
    const auto bin_of = [&](std::int64_t i, W w, P& p) -> unsigned {
      const bool need_position = !bins.by_word || (!exact && (w == bins.low.word || w == bins.high.word));
      if (need_position) p = coherent_load(positions + i);
      if (!exact) {
        const record<W, P> r{w, p};
        if (w < bins.low.word || w > bins.high.word || (need_position && (r < bins.low || bins.high < r)))
          return BINS;
      }
      return bins(w, p);
    };

    // A step's words, loaded together so that they are in flight together: a load past the end
    // reads the first word instead of branching (the buffer holds more than finish_size records).
    const auto load_step = [&](std::int64_t i, W(&w)[narrow_shape::unroll]) {
#pragma unroll
      for (int u = 0; u < narrow_shape::unroll; ++u) {
        const std::int64_t at = i + u * stride;
        w[u] = coherent_load(words + (at < size ? at : 0));
      }
    };

    // Count: a block histogram in shared memory, added to the global one.
    for (int b = threadIdx.x; b < BINS; b += BLOCK) shared.histogram[b] = 0;
    __syncthreads();
    for (std::int64_t i = first; i < size; i += stride * narrow_shape::unroll) {
      W w[narrow_shape::unroll];
      load_step(i, w);
#pragma unroll
      for (int u = 0; u < narrow_shape::unroll; ++u) {
        P p{0};
        const unsigned b = i + u * stride < size ? bin_of(i + u * stride, w[u], p) : BINS;
        if (b < BINS) atomicAdd(&shared.histogram[b], 1u);
      }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += BLOCK)
      if (shared.histogram[b] != 0) atomicAdd(&a.histogram[b], static_cast<unsigned long long>(shared.histogram[b]));
    grid.sync();

    // Choose (block 0): the bin holding the target; the global histogram is zeroed for the next round.
    if (leader) {
      constexpr int per_thread = BINS / BLOCK;
      unsigned long long counts[per_thread], mine = 0;
      for (int j = 0; j < per_thread; ++j) {
        counts[j] = coherent_load(&a.histogram[threadIdx.x * per_thread + j]);
        a.histogram[threadIdx.x * per_thread + j] = 0;
        mine += counts[j];
      }
      __syncthreads();
      unsigned long long before;
      scan(shared.scan).ExclusiveSum(mine, before);
      const unsigned long long target = coherent_load(&s.target);
      for (int j = 0; j < per_thread; ++j) {
        if (before <= target && target < before + counts[j]) {
          chosen[0] = static_cast<unsigned long long>(threadIdx.x * per_thread + j);
          chosen[1] = before;
          chosen[2] = counts[j];
        }
        before += counts[j];
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        s.bin = chosen[0];
        s.target = target - chosen[1];
        s.remaining = chosen[2];
        s.copy = chosen[2] <= static_cast<unsigned long long>(a.capacity[source ^ 1]);
        bins.bounds(static_cast<unsigned>(chosen[0]), s.low, s.high);
        s.kept[(round + 1) % 3] = 0;  // the next round's counter, last used two rounds ago
      }
    }
    grid.sync();

    // Filter: the chosen bin goes to the other buffer (when it fits); below it, positions go to `taken`.
    const auto bin = static_cast<unsigned>(coherent_load(&s.bin));
    const bool copy = coherent_load(&s.copy) != 0;
    W* kept_words = a.words[source ^ 1];
    P* kept_positions = a.positions[source ^ 1];
    unsigned long long* kept = &s.kept[round % 3];
    // Whole warps take part in the appends: a warp's lanes pass `rounded` together.
    const std::int64_t rounded = (size + 31) / 32 * 32;
    for (std::int64_t i = first; i < rounded; i += stride * narrow_shape::unroll) {
      W w[narrow_shape::unroll];
      load_step(i, w);
#pragma unroll
      for (int u = 0; u < narrow_shape::unroll; ++u) {
        const std::int64_t at = i + u * stride;
        if (at >= rounded) continue;
        P p{0};
        const unsigned b = at < size ? bin_of(at, w[u], p) : BINS;
        const bool inside = copy && b == bin, below = a.taken != nullptr && b < bin;
        if ((inside || below) && bins.by_word) p = coherent_load(positions + at);
        warp_append(inside, kept, [&](unsigned long long slot) {
          kept_words[slot] = w[u];
          kept_positions[slot] = p;
        });
        warp_append(below, &s.taken, [&](unsigned long long slot) { a.taken[slot] = p; });
      }
    }
    grid.sync();
    if (copy) {
      size = static_cast<std::int64_t>(coherent_load(kept));
      source ^= 1;
    }
    exact = copy;
  }

  // Finish (block 0): the last filter copied the remaining records. When only a value is sought,
  // any record of the target's word has it: one record when they share one word, else the
  // target's rank by selection (the records' positions are in no order, which changes only which
  // copy of the value is named). Taken positions need the records sorted by (word, position).
  if (!leader) return;
  if (single_word()) {
    // When the first level only counted, its low pivot is an element of the one word; else any
    // record left is.
    if (threadIdx.x == 0)
      *a.selected = counted_only(*a.window, false) ? a.window->low.position : coherent_load(a.positions[source]);
    return;
  }
  const auto target = static_cast<std::int64_t>(coherent_load(&s.target));
  if (a.taken == nullptr) {
    constexpr int SELECT_ITEMS = narrow_shape::select_items;
    W w[SELECT_ITEMS];
    for (int j = 0; j < SELECT_ITEMS; ++j) {
      const std::int64_t at = std::int64_t{threadIdx.x} * SELECT_ITEMS + j;
      w[j] = at < size ? coherent_load(a.words[source] + at) : std::numeric_limits<W>::max();
    }
    const unsigned ranks[2] = {static_cast<unsigned>(target), static_cast<unsigned>(target)};
    unsigned chosen[2];
    __syncthreads();
    selector::select(w, ranks, chosen, shared.select);
    if (threadIdx.x == 0) *a.selected = coherent_load(a.positions[source] + chosen[0]);
    return;
  }
  const auto taken_before = static_cast<std::int64_t>(coherent_load(&s.taken));
  W words[ITEMS];
  P positions[ITEMS];
  for (int j = 0; j < ITEMS; ++j) {
    const std::int64_t at = std::int64_t{threadIdx.x} * ITEMS + j;
    const bool real = at < size;
    words[j] = real ? coherent_load(a.words[source] + at) : std::numeric_limits<W>::max();
    positions[j] = real ? coherent_load(a.positions[source] + at) : std::numeric_limits<P>::max();
  }
  __syncthreads();
  by_position(shared.position).Sort(positions, words);
  __syncthreads();
  by_word(shared.word).Sort(words, positions);
  for (int j = 0; j < ITEMS; ++j) {
    const std::int64_t rank = std::int64_t{threadIdx.x} * ITEMS + j;
    if (rank == target) *a.selected = positions[j];
    if (rank <= target && a.taken != nullptr) a.taken[taken_before + rank] = positions[j];
  }
}

}  // namespace bkt::detail::select
