// Decoupled look-back with one status word per (tile, bucket), as in Onesweep (Adinets & Merrill,
// 2022): thread b of a tile publishes the tile's count of bucket b, then walks back over the tiles
// processed before it, adding their counts until one has published an inclusive sum.
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace bkt::detail {

/// A status word: two state bits on top, the count below. 32-bit words hold counts below 2^30.
template <class Word>
struct bucket_status {
  static constexpr int shift = 8 * sizeof(Word) - 2;
  static constexpr Word aggregate = Word{1} << shift;  // this tile's own count
  static constexpr Word inclusive = Word{2} << shift;  // count of this tile and all before it
  static constexpr Word state_mask = Word{3} << shift;
  static constexpr Word value_mask = ~state_mask;

  __device__ static void publish(Word* word, Word state, std::uint64_t value) {
    cuda::atomic_ref<Word, cuda::thread_scope_device>(*word).store(state | static_cast<Word>(value),
                                                                   cuda::memory_order_relaxed);
  }
  __device__ static Word load(Word* word) {
    return cuda::atomic_ref<Word, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
  }

  /// Tile `order` (in processing order) has published `aggregate` for its bucket at `column`;
  /// returns the bucket's count over all earlier tiles and publishes the inclusive sum. Each round
  /// loads the words of `Window` predecessors at once, nearest first, and adds them up to the
  /// first inclusive one: a walk one word at a time spent an L2 round trip per tile, and at the
  /// rate tiles finish the nearest inclusive word is often several tiles back.
  template <int Window>
  __device__ static std::uint64_t look_back(Word* status, std::int64_t order, int row_words, int column,
                                            std::uint64_t own) {
    std::uint64_t sum = 0;
    for (std::int64_t nearest = order - 1;; nearest -= Window) {
      Word seen[Window];
#pragma unroll
      for (int w = 0; w < Window; ++w)  // tiles before 0 are never reached: tile 0 is inclusive
        seen[w] = nearest - w >= 0 ? load(status + (nearest - w) * row_words + column) : inclusive;
#pragma unroll
      for (int w = 0; w < Window; ++w) {
        for (unsigned backoff = 16; (seen[w] & state_mask) == 0; backoff = backoff < 512 ? 2 * backoff : backoff) {
          __nanosleep(backoff);
          seen[w] = load(status + (nearest - w) * row_words + column);
        }
        sum += seen[w] & value_mask;
        if ((seen[w] & state_mask) == inclusive) {
          publish(status + order * row_words + column, inclusive, sum + own);
          return sum;
        }
      }
    }
  }
};

}  // namespace bkt::detail
