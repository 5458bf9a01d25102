// Buckets of about equal mass by arithmetic alone, for inputs without heavy values: 4096 cells
// of equal width split [least, greatest sampled word], and each cell splits again into as many
// equal-width parts as its share of the sample asks for. An element's bucket is its cell's first
// bucket plus a multiply-high: one shared-memory load, no search and no branch. A heavy value, or
// words bunched unevenly inside a cell, would make a bucket heavy, so the sample decides: where
// its sorted words crowd one bucket, the splitter classifier (cell_classifier.cuh) is used, whose
// equality buckets hold heavy values.
#pragma once

#include <cstdint>

#include "bkt/detail/select/select_bits.hpp"

namespace bkt::detail::select {

/// Span buckets are refused when this many consecutive sorted samples share one: a bucket of
/// about 24/65536 of the input or more (six times the mean of a full table). Uniform samples,
/// about 4 per bucket, reach it with a probability near 1e-6 per call.
inline constexpr int crowded_samples = 24;

/// floor(a * parts / 2^bits(W)).
__device__ inline unsigned scale_down(std::uint32_t a, unsigned parts) { return __umulhi(a, parts); }
__device__ inline unsigned scale_down(std::uint64_t a, unsigned parts) {
  return static_cast<unsigned>(__umul64hi(a, parts));
}

template <class W>
struct span_classifier {
  static constexpr int cells = 4096;
  static constexpr int bits = 8 * static_cast<int>(sizeof(W));
  static constexpr std::size_t bytes = sizeof(unsigned) * cells;

  const unsigned* table;  // per cell: first bucket (low 16 bits), parts (high 16 bits)
  W low, high;
  int shift;  // cell of x in [low, high]: (x - low) >> shift

  /// Words below low join the first bucket, words above high the bucket of high.
  __device__ int bucket_of(W w) const {
    const W x = w < low ? low : (high < w ? high : w);
    const W offset = x - low;
    const int cell = static_cast<int>(offset >> shift);
    const unsigned entry = table[cell];
    if (shift == 0) return static_cast<int>(entry & 0xffffu);  // a cell is one word
    const W within = offset - (W(cell) << shift);
    return static_cast<int>((entry & 0xffffu) + scale_down(static_cast<W>(within << (bits - shift)), entry >> 16));
  }

  /// The words of bucket b lie in [*first, *last]. `top` is the bucket of high.
  __device__ static void bounds(const unsigned* table, W low, int shift, int top, int b, W* first, W* last) {
    int below = 0, above = cells;  // the last cell whose first bucket is at most b
    while (above - below > 1) {
      const int middle = (below + above) / 2;
      if (static_cast<int>(table[middle] & 0xffffu) <= b) below = middle; else above = middle;
    }
    const int part = b - static_cast<int>(table[below] & 0xffffu);
    const unsigned parts = table[below] >> 16;
    const W start = low + (W(below) << shift);
    // Part p holds the offsets o with p * 2^shift <= o * parts < (p + 1) * 2^shift.
    const auto edge = [&](unsigned p) {
      const unsigned __int128 scaled = static_cast<unsigned __int128>(p) << shift;
      return static_cast<W>((scaled + parts - 1) / parts);
    };
    *first = b == 0 ? W{0} : static_cast<W>(start + edge(part));
    *last = b == top ? static_cast<W>(~W{0}) : static_cast<W>(start + edge(part + 1) - 1);
  }
};

}  // namespace bkt::detail::select
