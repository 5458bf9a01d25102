// SampleSelect's classification (Ribizel and Anzt), on selection words (select_bits): r sorted,
// distinct splitters u_0 < ... < u_{r-1} give 2r + 1 buckets, an open interval below, between and
// above them (even ids) and one equality bucket per splitter (odd ids). A rank that lands in an
// equality bucket is answered at once, so runs of equal elements never need another level, and
// every interval bucket excludes at least the splitters, so each level makes progress.
//
// A level may work on an array that still holds elements outside its word range (when the
// target bucket was too large to store, the next level reads the same array again): those go to
// bucket 2r + 1, which the count pass treats as outside every bucket.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bkt/buckets.hpp"
#include "bkt/config.hpp"
#include "bkt/detail/select/select_bits.hpp"

namespace bkt::detail::select {

/// At most 127 splitters: 255 buckets, within the count pass's one-pass bucket limit.
inline constexpr int max_splitters = 127;

/// The words (lo, hi), each end open or absent.
template <class W>
struct word_range {
  W lo = 0, hi = 0;
  bool has_lo = false, has_hi = false;

  BKT_HOST_DEVICE bool contains(W w) const { return (!has_lo || w > lo) && (!has_hi || w < hi); }
};

/// The bucket of an element of type E (the input's type) in a level's classification.
template <class W>
struct splitter_tree {
  splitter_buckets<W> search;  ///< splitters in device memory (the count kernel binds a shared copy)
  word_range<W> range;

  BKT_HOST_DEVICE int num_buckets() const { return 2 * search.num_splitters + 1; }

  template <class E>
  BKT_HOST_DEVICE int operator()(const E& x) const {
    const W w = select_bits(x);
    if (!range.contains(w)) return num_buckets();
    const int first = search(w);  // the number of splitters <= w
    return first > 0 && search.splitters[first - 1] == w ? 2 * first - 1 : 2 * first;
  }
};

/// Keeps the elements of one word range (the filter into the target bucket).
template <class W>
struct in_word_range {
  word_range<W> range;
  template <class E>
  BKT_HOST_DEVICE bool operator()(const E& x) const {
    return range.contains(select_bits(x));
  }
};

/// Up to `wanted` distinct splitters at evenly spaced ranks of `sorted` (ascending words).
template <class W>
std::vector<W> splitters_from_sample(const std::vector<W>& sorted, int wanted) {
  std::vector<W> out;
  const auto m = static_cast<std::int64_t>(sorted.size());
  for (std::int64_t i = 0; i < wanted && m > 0; ++i) {
    const W w = sorted[static_cast<std::size_t>((i * m + m / 2) / wanted)];
    if (out.empty() || out.back() != w) out.push_back(w);
  }
  return out;
}

/// Up to `wanted` distinct splitters evenly spaced over the words a range holds (bucketselect's
/// digits; also the fallback when a sample holds nothing in range): each interval bucket spans
/// at most 1/(wanted+1) of the range's words, so a search ends within a few levels whatever the
/// data. Needs a range that holds at least one word.
template <class W>
std::vector<W> splitters_across(const word_range<W>& range, int wanted) {
  using wide = unsigned __int128;
  const wide first = range.has_lo ? wide{range.lo} + 1 : 0;
  const wide last = range.has_hi ? wide{range.hi} - 1 : wide{static_cast<W>(~W{0})};
  const wide span = last - first + 1;
  std::vector<W> out;
  for (int i = 0; i < wanted; ++i) {
    const W w = static_cast<W>(first + span * static_cast<wide>(i + 1) / static_cast<wide>(wanted + 1));
    if (out.empty() || out.back() != w) out.push_back(w);
  }
  return out;
}

/// Where rank `k` (0-based, among the elements in range) lies, given the level's bucket counts.
struct located {
  int bucket;
  std::int64_t rank_in_bucket;
  std::int64_t size;  ///< elements in the bucket
};

inline located locate(const std::vector<std::int64_t>& counts, std::int64_t k) {
  std::int64_t below = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (k < below + counts[b]) return {static_cast<int>(b), k - below, counts[b]};
    below += counts[b];
  }
  return {-1, 0, 0};  // k beyond the range's elements: the caller's invariant is broken
}

/// The range of bucket `b` (an interval bucket) inside `outer`.
template <class W>
word_range<W> bucket_range(const word_range<W>& outer, const std::vector<W>& splitters, int b) {
  word_range<W> r = outer;
  const int j = b / 2;  // interval j lies between splitters j-1 and j
  if (j > 0) r.lo = splitters[static_cast<std::size_t>(j - 1)], r.has_lo = true;
  if (j < static_cast<int>(splitters.size())) r.hi = splitters[static_cast<std::size_t>(j)], r.has_hi = true;
  return r;
}

}  // namespace bkt::detail::select
