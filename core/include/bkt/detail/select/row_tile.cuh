// Batched top-k, the block level: a tile of up to 4096 records held in registers (256 threads x 16,
// blocked, so that thread order is position order), and the k smallest of them by (word, position).
//
// A selection is a cut {pivot, take}: the tile's records with a word below the pivot, and the first
// `take` with a word equal to it, in slot order. It is found by
//  1. one block-wide AND and OR of the words (the bits every word shares decide nothing; a tile of
//     one word needs nothing more: its first k);
//  2. one 2048-bin histogram of the 11 bits below the shared ones (one shared atomic per record);
//  3. one block scan over the bins, which names the bin holding rank k - 1;
//  4. that bin's words copied to shared memory (one append a warp; for uniform data a few of
//     4096), whose remaining bits warp 0 resolves alone, without block barriers: up to 32 words by
//     ranking each lane's against the others, more by 8-bit rounds in a warp-private histogram.
// Emitting a cut is one more block scan of packed (below, equal) counts: each selected record's
// output slot is (records below the pivot before it) + min(records equal to it before it, take),
// so the output is in position order, and ties go to the smaller position. Five __syncthreads and
// two block scans (one barrier each) a tile in all.
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <type_traits>

#include "bkt/detail/select/records.cuh"
#include "bkt/device/warp_scan.cuh"

namespace bkt::detail::select::row_tiles {

inline constexpr int threads = 256;
inline constexpr int items = 16;              // records a thread holds
inline constexpr int tile = threads * items;  // 4096: the register tile, and the long rows' buffer
inline constexpr int warps = threads / warp_threads;
inline constexpr int first_bits = 11;  // the histogram of step 2
inline constexpr int first_bins = 1 << first_bits;
inline constexpr int round_bits = 8;  // warp 0's rounds in step 4
inline constexpr int round_bins = 1 << round_bits;
static_assert(items <= 16, "valid masks and packed counts: 16 items a thread");

/// The k smallest records of a tile: those below `pivot` and the first `take` equal to it.
template <class W>
struct cut {
  W pivot;
  unsigned take;
};

/// Up to `Count` selected records in shared memory: words[j] and positions[j] for output slot j.
template <class W, int Count>
struct record_arrays {
  W words[Count];
  std::uint32_t positions[Count];
};

/// What a storage holds in place of something its kind of output does not need.
struct nothing {};

/// Shared memory of one tile's selection. `sort` adds what a sorted output needs: the selected
/// records, then BlockRadixSort's storage in the same bytes.
template <class W, bool Sorted>
struct tile_storage {
  // Warp scans, then one barrier for the warps' totals (the default, raking, takes two).
  using scan = cub::BlockScan<unsigned, threads, cub::BLOCK_SCAN_WARP_SCANS>;
  using sort = cub::BlockRadixSort<W, threads, items, std::uint32_t>;
  union alignas(16) {
    unsigned histogram[first_bins];  // step 2
    W stage[tile];                   // step 4: the target bin's words, in no order
    std::conditional_t<Sorted, record_arrays<W, tile>, nothing> selected;  // a sorted output's, in position order
    std::conditional_t<Sorted, typename sort::TempStorage, nothing> sort_temp;
  } big;
  unsigned round_histogram[round_bins];  // warp 0's rounds
  typename scan::TempStorage scan_temp;
  W warp_and[warps];
  W warp_or[warps];
  unsigned stage_count;
  unsigned bin, rank, bin_size;  // step 3: the bin of rank k - 1, that rank within it, its size
  cut<W> found;
};

// ---- warp helpers ----

template <class W>
__device__ __forceinline__ W warp_and(W x) {
#if __CUDA_ARCH__ >= 800
  if constexpr (sizeof(W) == 4) {
    return __reduce_and_sync(full_warp_mask, x);
  } else  // NOLINT(readability-misleading-indentation)
#endif
  {
#pragma unroll
    for (int offset = warp_threads / 2; offset > 0; offset /= 2) x &= __shfl_xor_sync(full_warp_mask, x, offset);
    return x;
  }
}

template <class W>
__device__ __forceinline__ W warp_or(W x) {
#if __CUDA_ARCH__ >= 800
  if constexpr (sizeof(W) == 4) {
    return __reduce_or_sync(full_warp_mask, x);
  } else  // NOLINT(readability-misleading-indentation)
#endif
  {
#pragma unroll
    for (int offset = warp_threads / 2; offset > 0; offset /= 2) x |= __shfl_xor_sync(full_warp_mask, x, offset);
    return x;
  }
}

/// Index of the highest set bit of x != 0.
template <class W>
__device__ __forceinline__ int highest_bit(W x) {
  if constexpr (sizeof(W) == 8)
    return 63 - __clzll(static_cast<long long>(x));
  else
    return 31 - __clz(static_cast<int>(x));
}

/// x >> bits, 0 when bits is the word's width.
template <class W>
__device__ __forceinline__ W shift_down(W x, int bits) {
  return bits >= static_cast<int>(8 * sizeof(W)) ? W{0} : static_cast<W>(x >> bits);
}

inline constexpr unsigned all_items = (1u << items) - 1u;

/// The valid items of thread `t` of a tile of `count` records: bit i for slot t * items + i.
__device__ __forceinline__ unsigned valid_mask(std::int64_t count, int t) {
  const std::int64_t mine = count - std::int64_t{t} * items;
  return mine >= items ? all_items : mine <= 0 ? 0u : (1u << mine) - 1u;
}

/// f(i) for each valid item i (a compile-time index once unrolled), skipped when none is. (An
/// unchecked copy of the loop for all-valid threads cost 8 registers and spilled.)
template <class F>
__device__ __forceinline__ void for_valid(unsigned valid, F f) {
  if (valid != 0) {
#pragma unroll
    for (int i = 0; i < items; ++i)
      if (valid >> i & 1u) f(i);
  }
}

// ---- loading ----

/// Thread t's elements of the `count` (<= tile) at `from` (blocked): 16-byte loads when they are
/// whole and aligned; the missing ones are left as they are.
template <class T>
__device__ __forceinline__ void load_tile(const T* from, int count, T (&raw)[items]) {
  const int first = static_cast<int>(threadIdx.x) * items;
  constexpr int vectors = items * static_cast<int>(sizeof(T)) / 16;
  static_assert(items * sizeof(T) % 16 == 0);
  if (first + items <= count && reinterpret_cast<std::uintptr_t>(from) % 16 == 0) {
    const auto* v = reinterpret_cast<const uint4*>(from + first);
    auto* to = reinterpret_cast<uint4*>(raw);
#pragma unroll
    for (int j = 0; j < vectors; ++j) to[j] = __ldg(v + j);
  } else {
#pragma unroll
    for (int i = 0; i < items; ++i)
      if (first + i < count) raw[i] = __ldg(from + first + i);
  }
}

/// The oriented words (oriented_word) of a thread's elements; `flip` is all ones when the largest
/// come first, else zero (one XOR instead of a choice per element). The words are pinned in
/// registers: left to itself the compiler keeps the raw elements instead and converts them again
/// (six instructions an element for a float) in each of the selection's five passes over the tile.
template <class T>
__device__ __forceinline__ void oriented_words(const T (&raw)[items], radix_word<T> flip,
                                               radix_word<T> (&words)[items]) {
  static_assert(sizeof(radix_word<T>) == 4 || sizeof(radix_word<T>) == 8);
#pragma unroll
  for (int i = 0; i < items; ++i) {
    words[i] = static_cast<radix_word<T>>(select_bits(raw[i]) ^ flip);
    if constexpr (sizeof(radix_word<T>) == 8)
      asm volatile("" : "+l"(words[i]));
    else
      asm volatile("" : "+r"(words[i]));
  }
}

/// The first round's digit of a word: its bits [shift, shift + first_bits).
template <class W>
__device__ __forceinline__ unsigned first_digit(W w, int shift) {
  return static_cast<unsigned>(w >> shift) & (first_bins - 1u);
}

// ---- the selection ----

/// Step 4 for a stage of at most a warp's words: each lane ranks its word against the others (a
/// word's cut is {word, rank - words below it + 1} when rank falls among its copies): one pass
/// instead of up to three rounds of histograms. For uniform data the target bin holds a few
/// records.
template <class W>
__device__ cut<W> resolve_small_stage(const W* stage, unsigned size, unsigned rank) {
  const unsigned lane = lane_id();
  const W mine = lane < size ? stage[lane] : W{0};
  unsigned below = 0, same = 0;
  for (unsigned j = 0; j < size; ++j) {
    const W other = __shfl_sync(full_warp_mask, mine, static_cast<int>(j));
    below += other < mine;
    same += other == mine;
  }
  const bool holds = lane < size && below <= rank && rank < below + same;
  const int holder = __ffs(__ballot_sync(full_warp_mask, holds)) - 1;
  return {__shfl_sync(full_warp_mask, mine, holder), rank - __shfl_sync(full_warp_mask, below, holder) + 1};
}

/// Step 4: warp 0 resolves the staged bin's `size` words (in s.big.stage) below bit `low`, where
/// they are not all equal yet, and returns the cut of rank `rank` among them (on every lane).
/// Rounds of 8 bits in s.round_histogram; a round ends early when the target's sub-bin is taken
/// whole (the cut then lies just above it). A stage of at most a warp's words is ranked directly.
template <class W, bool Sorted>
__device__ cut<W> resolve_stage(tile_storage<W, Sorted>& s, unsigned size, unsigned rank) {
  if (size <= warp_threads) return resolve_small_stage(s.big.stage, size, rank);
  const int lane = lane_id();
  W all = static_cast<W>(~W{0}), any = 0;
  for (unsigned i = lane; i < size; i += warp_threads) {
    const W w = s.big.stage[i];
    all &= w;
    any |= w;
  }
  all = warp_and(all);
  any = warp_or(any);
  if (all == any) return {all, rank + 1};  // one word: its first rank + 1
  int low = highest_bit(static_cast<W>(all ^ any)) + 1;  // bits [low, width) are all's
  W prefix = shift_down(all, low);
  prefix = low >= static_cast<int>(8 * sizeof(W)) ? W{0} : static_cast<W>(prefix << low);
  for (;;) {
    const int bits = low < round_bits ? low : round_bits;
    const int above = low;
    low -= bits;
    for (int b = lane; b < round_bins; b += warp_threads) s.round_histogram[b] = 0;
    __syncwarp();
    for (unsigned i = lane; i < size; i += warp_threads) {
      const W w = s.big.stage[i];
      if (shift_down(w, above) == shift_down(prefix, above))
        atomicAdd(&s.round_histogram[static_cast<unsigned>(w >> low) & ((1u << bits) - 1u)], 1u);
    }
    __syncwarp();
    constexpr int per_lane = round_bins / warp_threads;
    unsigned counts[per_lane], mine = 0;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) mine += counts[j] = s.round_histogram[lane * per_lane + j];
    const unsigned through = warp_inclusive_sum(mine), before = through - mine;
    const unsigned holder = __ffs(__ballot_sync(full_warp_mask, before <= rank && rank < through)) - 1;
    unsigned digit = 0, left = rank - before, in_bin = 0;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      if (in_bin == 0 && left < counts[j]) {
        digit = lane * per_lane + j;
        in_bin = counts[j];
      } else if (in_bin == 0) {
        left -= counts[j];
      }
    }
    digit = __shfl_sync(full_warp_mask, digit, holder);
    rank = __shfl_sync(full_warp_mask, left, holder);
    in_bin = __shfl_sync(full_warp_mask, in_bin, holder);
    prefix |= static_cast<W>(static_cast<W>(digit) << low);
    if (low == 0) return {prefix, rank + 1};
    // The whole sub-bin is taken: everything below the first word above it.
    const W top = static_cast<W>(prefix | static_cast<W>((W{1} << low) - 1));
    if (rank + 1 == in_bin && top != static_cast<W>(~W{0})) return {static_cast<W>(top + 1), 0};
    __syncwarp();  // every lane has read the histogram before the next round clears it
  }
}

/// Steps 2 and 3 for a tile whose valid words differ: the first round's histogram of the 11 bits
/// [shift, shift + 11) and the bin of rank k - 1 (in s.bin, s.rank, s.bin_size).
template <class W, bool Sorted>
__device__ void first_round(tile_storage<W, Sorted>& s, const W (&words)[items], unsigned valid, int shift,
                            unsigned k) {
  for_valid(valid, [&](int i) { atomicAdd(&s.big.histogram[first_digit(words[i], shift)], 1u); });
  __syncthreads();
  // Thread t sums bins [8t, 8t + 8), one block scan, and the thread whose bins hold rank k - 1
  // walks them.
  constexpr int per_thread = first_bins / threads;
  static_assert(per_thread == 8);
  const auto* mine = reinterpret_cast<const uint4*>(s.big.histogram) + threadIdx.x * 2;
  const uint4 a = mine[0], b = mine[1];
  const unsigned counts[per_thread] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  unsigned sum = 0;
#pragma unroll
  for (int j = 0; j < per_thread; ++j) sum += counts[j];
  unsigned before;
  typename tile_storage<W, Sorted>::scan(s.scan_temp).ExclusiveSum(sum, before);
  const unsigned target = k - 1;
  if (before <= target && target < before + sum) {
    unsigned left = target - before;
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      if (left < counts[j]) {
        s.bin = threadIdx.x * per_thread + j;
        s.rank = left;
        s.bin_size = counts[j];
        left = ~0u;  // found: no later bin matches
      } else if (left != ~0u) {
        left -= counts[j];
      }
    }
  }
  __syncthreads();
}

/// The cut of the k smallest records (1 <= k <= count) among a tile's valid items (`valid`: this
/// thread's mask; `count`: the block's number of valid items). Every thread of the block calls it
/// and gets the cut.
template <class W, bool Sorted>
__device__ cut<W> tile_cut(tile_storage<W, Sorted>& s, const W (&words)[items], unsigned valid, unsigned count,
                           unsigned k) {
  constexpr int width = 8 * sizeof(W);
  if (k >= count) {
    // All of them. The barrier keeps the scan storage of the caller's scans before and after apart.
    __syncthreads();
    return {static_cast<W>(~W{0}), count};
  }
  // Step 1, beside the histogram's clearing.
  W all = static_cast<W>(~W{0}), any = 0;
  for_valid(valid, [&](int i) {
    all &= words[i];
    any |= words[i];
  });
  all = warp_and(all);
  any = warp_or(any);
  const int warp = static_cast<int>(threadIdx.x) / warp_threads;
  if (lane_id() == 0) {
    s.warp_and[warp] = all;
    s.warp_or[warp] = any;
  }
  auto* histogram = reinterpret_cast<uint4*>(s.big.histogram);
  for (int j = threadIdx.x; j < first_bins / 4; j += threads) histogram[j] = make_uint4(0, 0, 0, 0);
  if (threadIdx.x == 0) s.stage_count = 0;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    all &= s.warp_and[w];
    any |= s.warp_or[w];
  }
  if (all == any) return {all, k};  // one word: the first k
  const int top = highest_bit(static_cast<W>(all ^ any));
  const int shift = top + 1 > first_bits ? top + 1 - first_bits : 0;
  // Bits at and above shift + first_bits are every word's.
  const int span = shift + first_bits;
  const W high = static_cast<W>(shift_down(all, span) << (span < width ? span : 0));
  first_round(s, words, valid, shift, k);
  const unsigned bin = s.bin, rank = s.rank, bin_size = s.bin_size;
  // The bin's range; when the target bin is taken whole the cut lies just above it.
  const W bin_low = static_cast<W>(high | (static_cast<W>(bin) << shift));
  const W bin_top = static_cast<W>(bin_low | static_cast<W>((W{1} << shift) - 1));
  if (rank + 1 == bin_size && bin_top != static_cast<W>(~W{0})) return {static_cast<W>(bin_top + 1), 0};
  // Step 4: the bin's words to the stage, a warp's in one append (warps without one skip: for
  // uniform data few of the tile's records are in the bin, and a buffer's cut in the long-row
  // kernel often holds a few hundred valid items in all).
  unsigned in_bin = 0;
  for_valid(valid, [&](int i) {
    // bin_low <= word <= bin_top, as one subtraction and one comparison.
    in_bin |= static_cast<unsigned>(static_cast<W>(words[i] - bin_low) <= static_cast<W>(bin_top - bin_low)) << i;
  });
  if (__any_sync(full_warp_mask, in_bin != 0)) {
    const unsigned mine = __popc(in_bin);
    const unsigned through = warp_inclusive_sum(mine);
    unsigned base = 0;
    if (lane_id() == warp_threads - 1) base = atomicAdd(&s.stage_count, through);
    unsigned at = __shfl_sync(full_warp_mask, base, warp_threads - 1) + through - mine;
    for_valid(in_bin, [&](int i) { s.big.stage[at++] = words[i]; });
  }
  __syncthreads();
  if (warp == 0) {
    const cut<W> c = resolve_stage(s, bin_size, rank);
    if (lane_id() == 0) s.found = c;
  }
  __syncthreads();
  return s.found;
}

/// Emits the records of cut `c` among a tile's valid items, in position order: emit(i, word,
/// slot) for this thread's item i, `slot` its place among the selected (0 to k - 1). One block
/// scan; every thread of the block calls it.
template <class W, bool Sorted, class Emit>
__device__ void emit_cut(tile_storage<W, Sorted>& s, const W (&words)[items], unsigned valid, cut<W> c, Emit emit) {
  unsigned below = 0, equal = 0;
  for_valid(valid, [&](int i) {
    below += words[i] < c.pivot;
    equal += words[i] == c.pivot;
  });
  unsigned before;
  typename tile_storage<W, Sorted>::scan(s.scan_temp).ExclusiveSum((below << 16) | equal, before);
  if (below + equal == 0) return;
  unsigned below_at = before >> 16, equal_at = before & 0xffffu;
  for_valid(valid, [&](int i) {
    if (words[i] < c.pivot) {
      emit(i, words[i], below_at + (equal_at < c.take ? equal_at : c.take));
      ++below_at;
    } else if (words[i] == c.pivot) {
      if (equal_at < c.take) emit(i, words[i], below_at + equal_at);
      ++equal_at;
    }
  });
}

}  // namespace bkt::detail::select::row_tiles
