// Block-level pieces of the two-pivot filter: sorting a block's records, and turning a sorted
// sample into the window of the next level.
#pragma once

#include <cub/block/block_radix_sort.cuh>

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
};

/// The i-th of `samples` positions spread over [0, size): one random position in each of
/// `samples` equal strata, so positions increase with i and cover the input evenly.
BKT_HOST_DEVICE inline std::int64_t stratified_position(std::int64_t i, std::int64_t samples, std::int64_t size,
                                                       std::uint64_t seed) {
  // i * size stays below 2^63 for every input a GPU holds (samples <= 2^14, size < 2^49).
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
/// `drawn` equal strata (every record, in order, when drawn == source.size), and sorts them. Slots
/// past `drawn` hold padding, which sorts after every real record (real positions are below the
/// largest position).
template <int BLOCK, int ITEMS, class Source>
__device__ void sorted_sample(
    const Source& source, std::int64_t drawn, std::uint64_t seed,
    record<typename Source::word_type, typename Source::position_type> (&r)[ITEMS],
    typename block_record_sort<BLOCK, ITEMS, typename Source::word_type, typename Source::position_type>::storage&
        temp) {
  using W = typename Source::word_type;
  using P = typename Source::position_type;
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t s = std::int64_t{threadIdx.x} * ITEMS + i;  // blocked: increasing positions
    r[i] = s < drawn ? source.at(stratified_position(s, drawn, source.size, seed)) : record<W, P>{W(~W{0}), P(~P{0})};
  }
  block_record_sort<BLOCK, ITEMS, W, P>::sort(r, Source::positions_in_order, temp);
}

}  // namespace bkt::detail::select
