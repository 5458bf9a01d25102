// The narrowing kernel's tuning, its arguments and the state of its rounds in the workspace, and
// the per-record helpers its phases share: the binning of a round, loads that see other blocks'
// writes, and a warp's append to a global list. The kernel is in narrow_kernel.cuh.
#pragma once

#include <cstdint>
#include <limits>

#include "bkt/detail/select/records.cuh"

namespace bkt::detail::select {

/// Tuning of the narrowing kernel; where each value comes from: docs/primitives/select.md.
struct narrow_shape {
  static constexpr int block_threads = 512;    // threads of each block of the cooperative grid
  static constexpr int bin_bits = 12;          // a round's histogram has 2^bin_bits bins
  static constexpr int bins = 1 << bin_bits;   // bins of a round's histogram
  static constexpr int finish_items = 4;       // records a thread sorts when the leader finishes with positions
  static constexpr int select_items = 8;       // records a thread holds when the leader only selects a value
  static constexpr int records_in_flight = 8;  // records each thread loads together in a step of a scan
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

}  // namespace bkt::detail::select
