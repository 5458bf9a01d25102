// Block-level pieces of the two-pivot filter: sorting a block's records, drawing a stratified
// sample, and selecting the ranks that bound the window of the next level.
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cmath>
#include <cstdint>

#include "bkt/detail/select/records.cuh"

namespace bkt::detail::select {

/// Sorts BLOCK * ITEMS records by (word, position) into a blocked arrangement (thread t holds ranks
/// t * ITEMS ...). Records already in position order skip the first of the two stable sorts.
template <int BLOCK, int ITEMS, class W, class P>
struct block_record_sort {
  using by_word = cub::BlockRadixSort<W, BLOCK, ITEMS, P>;
  using by_position = cub::BlockRadixSort<P, BLOCK, ITEMS, W>;
  union storage {
    typename by_word::TempStorage word;
    typename by_position::TempStorage position;
  };

  __device__ static void sort(record<W, P> (&r)[ITEMS], bool positions_in_order, storage& temp) {
    W words[ITEMS];
    P positions[ITEMS];
    for (int i = 0; i < ITEMS; ++i) {
      words[i] = r[i].word;
      positions[i] = r[i].position;
    }
    if (!positions_in_order) {
      by_position(temp.position).Sort(positions, words);
      __syncthreads();
    }
    by_word(temp.word).Sort(words, positions);
    for (int i = 0; i < ITEMS; ++i) r[i] = {words[i], positions[i]};
  }
};

/// Where a sample of `samples` sorted records puts the window around rank `target` of `size`
/// records: the sample ranks of its ends, `spread` standard deviations of the sample rank to
/// either side (plus a margin for tiny or extreme targets). Ends outside the sample are open.
struct window_ranks {
  std::int64_t low;
  std::int64_t high;

  BKT_HOST_DEVICE static window_ranks around(std::int64_t target, std::int64_t size, std::int64_t samples,
                                             float spread) {
    const double fraction = (static_cast<double>(target) + 0.5) / static_cast<double>(size);
    const double center = fraction * static_cast<double>(samples);
    const double deviation = sqrt(static_cast<double>(samples) * fraction * (1.0 - fraction));
    const double half = spread * deviation + 4.0;
    return {static_cast<std::int64_t>(floor(center - half)), static_cast<std::int64_t>(ceil(center + half))};
  }

  /// Both ranks clamped into a sample of `samples`: an open end takes the sample's edge.
  BKT_HOST_DEVICE window_ranks clamped(std::int64_t samples) const {
    const auto clamp = [samples](std::int64_t rank) { return rank < 0 ? 0 : rank >= samples ? samples - 1 : rank; };
    return {clamp(low), clamp(high)};
  }
};

/// The i-th of `samples` positions spread over [0, size): one random position in each of
/// `samples` equal strata, so positions increase with i and cover the input evenly.
BKT_HOST_DEVICE inline std::int64_t stratified_position(std::int64_t i, std::int64_t samples, std::int64_t size,
                                                       std::uint64_t seed) {
  // i * size stays below 2^63 for every input a GPU holds (samples <= 2^15, size < 2^48).
  const std::int64_t begin = i * size / samples;
  const std::int64_t end = (i + 1) * size / samples;
  std::uint64_t h = seed ^ (static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 32;
  return begin + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(end - begin));
}

/// Fills a block's records with `drawn` (<= BLOCK * ITEMS) records of `source`, one from each of
/// `drawn` equal strata (every record, in order, when drawn == source.size), in a blocked
/// arrangement whose positions increase with the index when the source's do. Slots past `drawn`
/// hold padding, which sorts after every real record (real positions are below the largest).
template <int BLOCK, int ITEMS, class Source>
__device__ void drawn_sample(const Source& source, std::int64_t drawn, std::uint64_t seed,
                             record<typename Source::word_type, typename Source::position_type> (&r)[ITEMS]) {
  using W = typename Source::word_type;
  using P = typename Source::position_type;
  // All positions first: their divisions are calls, which would otherwise sit between the loads
  // and leave one load in flight at a time.
  std::int64_t at[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t s = std::int64_t{threadIdx.x} * ITEMS + i;
    at[i] = s < drawn ? stratified_position(s, drawn, source.size, seed) : -1;
  }
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) r[i] = at[i] >= 0 ? source.at(at[i]) : record<W, P>{W(~W{0}), P(~P{0})};
}

/// drawn_sample, sorted by (word, position).
template <int BLOCK, int ITEMS, class Source>
__device__ void sorted_sample(
    const Source& source, std::int64_t drawn, std::uint64_t seed,
    record<typename Source::word_type, typename Source::position_type> (&r)[ITEMS],
    typename block_record_sort<BLOCK, ITEMS, typename Source::word_type, typename Source::position_type>::storage&
        temp) {
  drawn_sample<BLOCK, ITEMS>(source, drawn, seed, r);
  block_record_sort<BLOCK, ITEMS, typename Source::word_type, typename Source::position_type>::sort(
      r, Source::positions_in_order, temp);
}

/// The indices of two ranks among a block's BLOCK * ITEMS words (blocked arrangement: thread t
/// holds indices t * ITEMS ...), without sorting them: a radix select over the words, 8 bits a
/// round for both ranks at once, then among the words equal to the chosen one the one at the
/// remaining rank in index order. For a drawn sample (positions increasing with the index) that is
/// the (word, position) order; otherwise it names the right word but any index that holds it. A
/// sort of 8192 records takes eight 4-bit passes over all of them; here only the first round
/// touches every word.
template <int BLOCK, int ITEMS, class W>
struct block_rank_select {
  static constexpr int digit_bits = 8;
  static constexpr int digits = 1 << digit_bits;
  static_assert(std::int64_t{BLOCK} * ITEMS < (1 << 16), "both ranks' equal counts share one scanned word");
  using scan = cub::BlockScan<unsigned, BLOCK>;
  struct storage {
    unsigned histogram[2][digits];
    W prefix[2];         // the chosen word's bits decided so far
    unsigned rank[2];    // the rank sought among words that start with prefix
    unsigned chosen[2];  // the answer's index
    typename scan::TempStorage scan;
  };

  /// out[t] = the index of rank ranks[t] (each in [0, BLOCK * ITEMS)); *low_copies, when asked
  /// for, = how many words equal the word of ranks[0].
  __device__ static void select(const W (&words)[ITEMS], const unsigned (&ranks)[2], unsigned (&out)[2], storage& s,
                                unsigned* low_copies = nullptr) {
    constexpr int word_bits = 8 * sizeof(W);
    if (threadIdx.x < 2) {
      s.prefix[threadIdx.x] = W{0};
      s.rank[threadIdx.x] = ranks[threadIdx.x];
    }
    for (int shift = word_bits - digit_bits; shift >= 0; shift -= digit_bits) {
      for (int i = threadIdx.x; i < 2 * digits; i += BLOCK) (&s.histogram[0][0])[i] = 0;
      __syncthreads();
      // Words outside both prefixes are not counted; with one prefix, one histogram serves both.
      const W decided = shift + digit_bits >= word_bits ? W{0} : static_cast<W>(~W{0} << (shift + digit_bits));
      const W prefix0 = s.prefix[0], prefix1 = s.prefix[1];
      const bool shared_prefix = prefix0 == prefix1;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const auto digit = static_cast<unsigned>(words[i] >> shift) & (digits - 1);
        if (((words[i] ^ prefix0) & decided) == 0) atomicAdd(&s.histogram[0][digit], 1u);
        else if (!shared_prefix && ((words[i] ^ prefix1) & decided) == 0) atomicAdd(&s.histogram[1][digit], 1u);
      }
      __syncthreads();
      // Warp t finds rank t's digit: each lane sums 8 bins, a warp scan places the lanes.
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      if (warp < 2) {
        constexpr int per_lane = digits / 32;
        const unsigned* bins = s.histogram[shared_prefix ? 0 : warp] + lane * per_lane;
        unsigned sum = 0;
#pragma unroll
        for (int b = 0; b < per_lane; ++b) sum += bins[b];
        unsigned inclusive = sum;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const unsigned up = __shfl_up_sync(0xffffffffu, inclusive, d);
          if (lane >= d) inclusive += up;
        }
        const unsigned rank = s.rank[warp];
        __syncwarp();  // every lane has read the rank before one lane replaces it
        unsigned before = inclusive - sum;
        if (before <= rank && rank < inclusive) {
          int b = 0;
          while (before + bins[b] <= rank) before += bins[b++];
          s.prefix[warp] = static_cast<W>(s.prefix[warp] | (static_cast<W>(lane * per_lane + b) << shift));
          s.rank[warp] = rank - before;
        }
      }
      __syncthreads();
    }
    // The word is known; rank t now counts words equal to it, in index order.
    const W word0 = s.prefix[0], word1 = s.prefix[1];
    unsigned mine = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) mine += (words[i] == word0) + ((words[i] == word1) << 16);
    unsigned before = 0, all = 0;
    scan(s.scan).ExclusiveSum(mine, before, all);
    if (low_copies != nullptr) *low_copies = all & 0xffffu;
    unsigned seen[2] = {before & 0xffffu, before >> 16};
    const unsigned wanted[2] = {s.rank[0], s.rank[1]};
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned index = threadIdx.x * ITEMS + i;
      if (words[i] == word0 && seen[0]++ == wanted[0]) s.chosen[0] = index;
      if (words[i] == word1 && seen[1]++ == wanted[1]) s.chosen[1] = index;
    }
    __syncthreads();
    out[0] = s.chosen[0];
    out[1] = s.chosen[1];
  }
};

}  // namespace bkt::detail::select
