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
#include "bkt/detail/select/narrow_state.cuh"

namespace bkt::detail::select {

/// The block types and shared memory of the narrowing kernel; the phases use the storage in turn.
template <class W, class P>
struct narrow_block {
  static constexpr int block_threads = narrow_shape::block_threads;
  static constexpr int finish_items = narrow_shape::finish_items;
  using scan = cub::BlockScan<unsigned long long, block_threads>;
  using by_word = cub::BlockRadixSort<W, block_threads, finish_items, P>;
  using by_position = cub::BlockRadixSort<P, block_threads, finish_items, W>;
  using selector = block_rank_select<block_threads, narrow_shape::select_items, W>;
  union storage {
    unsigned histogram[narrow_shape::bins];
    typename scan::TempStorage scan;
    typename by_word::TempStorage word;
    typename by_position::TempStorage position;
    typename selector::storage select;
  };
};

/// What one round scans: buffer `source`'s first `size` records; when not `exact`, only those
/// within [bins.low, bins.high] remain (the last filter found the chosen bin too big to copy).
template <class W, class P>
struct narrow_round {
  static constexpr int bins_count = narrow_shape::bins;
  static constexpr int records_in_flight = narrow_shape::records_in_flight;
  const W* words;
  const P* positions;
  const narrow_bins<W, P>& bins;
  const std::int64_t& size;
  const bool& exact;
  const std::int64_t& stride;

  /// The bin of record i, or `bins_count` when it lies outside [low, high]; loads its position
  /// into `p` when that is needed.
  __device__ __forceinline__ unsigned bin_of(std::int64_t i, W w, P& p) const {
    const bool need_position = !bins.by_word || (!exact && (w == bins.low.word || w == bins.high.word));
    if (need_position) p = coherent_load(positions + i);
    if (!exact) {
      const record<W, P> r{w, p};
      if (w < bins.low.word || w > bins.high.word || (need_position && (r < bins.low || bins.high < r)))
        return bins_count;
    }
    return bins(w, p);
  }

  /// A step's words, loaded together so that they are in flight together: a load past the end
  /// reads the first word instead of branching (the buffer holds more than finish_size records).
  __device__ __forceinline__ void load_step(std::int64_t i, W (&w)[records_in_flight]) const {
#pragma unroll
    for (int u = 0; u < records_in_flight; ++u) {
      const std::int64_t at = i + u * stride;
      w[u] = coherent_load(words + (at < size ? at : 0));
    }
  }
};

/// The phases of the narrowing kernel, one function each: start, then per round count, choose and
/// filter, then finish. Every block runs every phase but `choose` and `finish`, which block 0
/// (the leader) runs alone; grid barriers separate them.
template <class W, class P>
struct narrow_agent {
  using block = narrow_block<W, P>;
  static constexpr int block_threads = narrow_shape::block_threads;
  static constexpr int bins_count = narrow_shape::bins;
  static constexpr int finish_items = narrow_shape::finish_items;
  static constexpr int select_items = narrow_shape::select_items;
  static constexpr int records_in_flight = narrow_shape::records_in_flight;

  const narrow_args<W, P>& args;
  typename block::storage& shared;
  unsigned long long* const chosen;  // shared: the bin holding the target, records below it, in it
  cooperative_groups::grid_group& grid;
  narrow_state<W, P>& state;
  const bool leader;
  const std::int64_t stride;  // threads of the grid
  const std::int64_t first;   // this thread's first record

  __device__ __forceinline__ narrow_agent(const narrow_args<W, P>& kernel_args,
                                          typename block::storage& shared_storage, unsigned long long* chosen_bin,
                                          cooperative_groups::grid_group& grid_group)
      : args(kernel_args),
        shared(shared_storage),
        chosen(chosen_bin),
        grid(grid_group),
        state(*kernel_args.state),
        leader(blockIdx.x == 0),
        stride(std::int64_t{gridDim.x} * block_threads),
        first(std::int64_t{blockIdx.x} * block_threads + threadIdx.x) {}

  /// The leader's first thread sets the state from the first level; every block clears the global
  /// histogram.
  __device__ __forceinline__ void start(const narrow_start& from) const {
    if (leader && threadIdx.x == 0) {
      const pivots<W, P> w = *args.window;
      state.low = w.low_open ? record<W, P>{W{0}, P{0}} : w.low;
      state.high = w.high_open ? record<W, P>{std::numeric_limits<W>::max(), std::numeric_limits<P>::max()} : w.high;
      state.remaining = static_cast<unsigned long long>(from.size);
      state.target = static_cast<unsigned long long>(from.target);
      state.taken = static_cast<unsigned long long>(from.taken);
      state.kept[0] = 0;
    }
    for (std::int64_t b = first; b < bins_count; b += stride) args.histogram[b] = 0;
    grid.sync();
  }

  /// Count: a block histogram in shared memory, added to the global one.
  __device__ __forceinline__ void count(const narrow_round<W, P>& round) const {
    for (int b = threadIdx.x; b < bins_count; b += block_threads) shared.histogram[b] = 0;
    __syncthreads();
    for (std::int64_t i = first; i < round.size; i += stride * records_in_flight) {
      W w[records_in_flight];
      round.load_step(i, w);
#pragma unroll
      for (int u = 0; u < records_in_flight; ++u) {
        P p{0};
        const unsigned b = i + u * stride < round.size ? round.bin_of(i + u * stride, w[u], p) : bins_count;
        if (b < bins_count) atomicAdd(&shared.histogram[b], 1u);
      }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins_count; b += block_threads)
      if (shared.histogram[b] != 0)
        atomicAdd(&args.histogram[b], static_cast<unsigned long long>(shared.histogram[b]));
    grid.sync();
  }

  /// Choose (the leader block): the bin holding the target; the global histogram is zeroed for the
  /// next round.
  __device__ __forceinline__ void choose(const narrow_round<W, P>& round, int round_index, int source) const {
    constexpr int per_thread = bins_count / block_threads;
    unsigned long long counts[per_thread], mine = 0;
    for (int j = 0; j < per_thread; ++j) {
      counts[j] = coherent_load(&args.histogram[threadIdx.x * per_thread + j]);
      args.histogram[threadIdx.x * per_thread + j] = 0;
      mine += counts[j];
    }
    __syncthreads();
    unsigned long long before;
    typename block::scan(shared.scan).ExclusiveSum(mine, before);
    const unsigned long long target = coherent_load(&state.target);
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
      state.bin = chosen[0];
      state.target = target - chosen[1];
      state.remaining = chosen[2];
      state.copy = chosen[2] <= static_cast<unsigned long long>(args.capacity[source ^ 1]);
      round.bins.bounds(static_cast<unsigned>(chosen[0]), state.low, state.high);
      state.kept[(round_index + 1) % 3] = 0;  // the next round's counter, last used two rounds ago
    }
  }

  /// Filter: the chosen bin goes to the other buffer (when it fits); below it, positions go to
  /// `taken`. Returns whether it copied.
  __device__ __forceinline__ bool filter(const narrow_round<W, P>& round, int round_index, int source) const {
    const auto bin = static_cast<unsigned>(coherent_load(&state.bin));
    const bool copy = coherent_load(&state.copy) != 0;
    W* kept_words = args.words[source ^ 1];
    P* kept_positions = args.positions[source ^ 1];
    unsigned long long* kept = &state.kept[round_index % 3];
    // Whole warps take part in the appends: a warp's lanes pass `rounded` together.
    const std::int64_t rounded = (round.size + 31) / 32 * 32;
    for (std::int64_t i = first; i < rounded; i += stride * records_in_flight) {
      W w[records_in_flight];
      round.load_step(i, w);
#pragma unroll
      for (int u = 0; u < records_in_flight; ++u) {
        const std::int64_t at = i + u * stride;
        if (at >= rounded) continue;
        P p{0};
        const unsigned b = at < round.size ? round.bin_of(at, w[u], p) : bins_count;
        const bool inside = copy && b == bin, below = args.taken != nullptr && b < bin;
        if ((inside || below) && round.bins.by_word) p = coherent_load(round.positions + at);
        warp_append(inside, kept, [&](unsigned long long slot) {
          kept_words[slot] = w[u];
          kept_positions[slot] = p;
        });
        warp_append(below, &state.taken, [&](unsigned long long slot) { args.taken[slot] = p; });
      }
    }
    return copy;
  }

  // Finish (the leader block): the last filter copied the remaining records. When only a value is
  // sought, any record of the target's word has it: one record when they share one word, else the
  // target's rank by selection (the records' positions are in no order, which changes only which
  // copy of the value is named). Taken positions need the records sorted by (word, position).

  /// The records left share one word. When the first level only counted, its low pivot is an
  /// element of the one word; else any record left is.
  __device__ __forceinline__ void finish_one_word(int source) const {
    if (threadIdx.x == 0)
      *args.selected =
          counted_only(*args.window, false) ? args.window->low.position : coherent_load(args.positions[source]);
  }

  /// Only a value is sought: the position of the record of rank `target` among the `size`
  /// records left. `ranks`, the selector's input, is set here; the kernel owns it because it lives
  /// in local memory (indexed by thread), and declared in here the inliner would place it before
  /// the kernel's copy of its arguments, which changes ptxas's register allocation.
  __device__ __forceinline__ void finish_select(std::int64_t target, std::int64_t size, int source,
                                                unsigned (&ranks)[2]) const {
    W w[select_items];
    for (int j = 0; j < select_items; ++j) {
      const std::int64_t at = std::int64_t{threadIdx.x} * select_items + j;
      w[j] = at < size ? coherent_load(args.words[source] + at) : std::numeric_limits<W>::max();
    }
    ranks[0] = ranks[1] = static_cast<unsigned>(target);
    unsigned chosen_index[2];
    __syncthreads();
    block::selector::select(w, ranks, chosen_index, shared.select);
    if (threadIdx.x == 0) *args.selected = coherent_load(args.positions[source] + chosen_index[0]);
  }

  /// Positions are taken: sorts the `size` records left by (word, position), names the target's
  /// position and appends those of the ranks up to it to `taken`.
  __device__ __forceinline__ void finish_sorted(std::int64_t target, std::int64_t size, int source) const {
    const auto taken_before = static_cast<std::int64_t>(coherent_load(&state.taken));
    W words[finish_items];
    P positions[finish_items];
    for (int j = 0; j < finish_items; ++j) {
      const std::int64_t at = std::int64_t{threadIdx.x} * finish_items + j;
      const bool real = at < size;
      words[j] = real ? coherent_load(args.words[source] + at) : std::numeric_limits<W>::max();
      positions[j] = real ? coherent_load(args.positions[source] + at) : std::numeric_limits<P>::max();
    }
    __syncthreads();
    typename block::by_position(shared.position).Sort(positions, words);
    __syncthreads();
    typename block::by_word(shared.word).Sort(words, positions);
    for (int j = 0; j < finish_items; ++j) {
      const std::int64_t rank = std::int64_t{threadIdx.x} * finish_items + j;
      if (rank == target) *args.selected = positions[j];
      if (rank <= target && args.taken != nullptr) args.taken[taken_before + rank] = positions[j];
    }
  }
};

/// One cooperative grid; see the top of this file. Rounds go on while more records remain than
/// the leader block can finish with, and (when only a value is sought) they span several words.
template <class W, class P>
__global__ void __launch_bounds__(narrow_shape::block_threads) narrow_kernel(narrow_args<W, P> args) {
  namespace cg = cooperative_groups;
  using agent_type = narrow_agent<W, P>;
  __shared__ typename agent_type::block::storage shared;
  __shared__ unsigned long long chosen[3];  // the bin holding the target, records below it, in it

  const narrow_start start(args);
  if (!start.valid) return;  // every block reads the same counts, so none waits at a barrier
  cg::grid_group grid = cg::this_grid();
  const agent_type agent(args, shared, chosen, grid);
  narrow_state<W, P>& state = *args.state;
  agent.start(start);

  // The records to scan are buffer `source`'s first `size`; when not `exact`, only those within
  // [low, high] remain (the last filter found the chosen bin too big to copy).
  std::int64_t size = start.size;
  int source = 0;
  bool exact = true;
  // A search for a value (no positions taken) is done once the records left share one word.
  const auto single_word = [&] {
    return args.taken == nullptr && exact && coherent_load(&state.low).word == coherent_load(&state.high).word;
  };
  const std::int64_t finish_size = std::int64_t{narrow_shape::block_threads} *
                                   (args.taken ? narrow_shape::finish_items : narrow_shape::select_items);
  for (int round = 0; static_cast<std::int64_t>(coherent_load(&state.remaining)) > finish_size && !single_word();
       ++round) {
    const W* words = args.words[source];
    const P* positions = args.positions[source];
    const narrow_bins<W, P> bins(coherent_load(&state.low), coherent_load(&state.high));
    const narrow_round<W, P> current{words, positions, bins, size, exact, agent.stride};
    agent.count(current);
    if (agent.leader) agent.choose(current, round, source);
    grid.sync();
    const bool copy = agent.filter(current, round, source);
    grid.sync();
    if (copy) {
      size = static_cast<std::int64_t>(coherent_load(&state.kept[round % 3]));
      source ^= 1;
    }
    exact = copy;
  }

  if (!agent.leader) return;
  if (single_word()) {
    agent.finish_one_word(source);
    return;
  }
  const auto target = static_cast<std::int64_t>(coherent_load(&state.target));
  if (args.taken == nullptr) {
    unsigned ranks[2];
    agent.finish_select(target, size, source, ranks);
    return;
  }
  agent.finish_sorted(target, size, source);
}

}  // namespace bkt::detail::select
