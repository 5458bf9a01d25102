// Splitters of the distributed sort and the one search every rank runs against them, on the GPU
// (dist/src/sort/kernels.cuh) and in the CPU simulation (bkt/dist/ref/sort.hpp) alike.
//
// Elements are ordered by the tuple (order image, rank, index in the rank's sorted run). Tuples are
// unique, so a splitter drawn from the sample cuts a run of equal keys at an exact place: equal
// keys are split between ranks by position, which keeps the ranks balanced on inputs of few values
// and keeps the sort stable (ties stay in rank order, then in index order).
#pragma once

#include <cstdint>

#include "bkt/config.hpp"

namespace bkt::dist::detail {

/// A place in the tuple order. rank -1 precedes every element, rank num_ranks follows every one.
struct splitter {
  std::uint64_t image = 0;
  std::int64_t index = 0;
  std::int32_t rank = 0;
  std::int32_t unused = 0;
};

/// How many elements of `rank`'s sorted run (images ascending, equal images in index order)
/// precede `s` in the tuple order: all of index < s.index on the splitter's own rank; on a lower
/// rank those with image <= s.image (an upper bound), on a higher rank those with image < s.image.
template <class ImageAt>
BKT_HOST_DEVICE inline std::int64_t elements_before(const ImageAt& image_at, std::int64_t num_items,
                                                     const splitter& s, int rank) {
  if (rank == s.rank) return s.index;
  const bool take_equal = rank < s.rank;
  std::int64_t first = 0;
  for (std::int64_t count = num_items; count > 0;) {
    const std::int64_t half = count / 2;
    const std::uint64_t image = image_at(first + half);
    const bool before = take_equal ? image <= s.image : image < s.image;
    first = before ? first + half + 1 : first;
    count = before ? count - half - 1 : half;
  }
  return first;
}

}  // namespace bkt::dist::detail
