// What selection compares: a record is an element's oriented image word and its input position.
// Records order by (word, position), so no two are equal: ties between equal elements resolve to
// the smaller position, and runs of equal keys sample as well as distinct ones (no equality
// buckets are needed).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bkt/config.hpp"
#include "bkt/detail/select/select_bits.hpp"

namespace bkt::detail::select {

/// Positions: 32 bits when the input allows, else 64.
template <class W, class P>
struct record {
  W word;
  P position;
};

template <class W, class P>
BKT_HOST_DEVICE inline bool operator<(const record<W, P>& a, const record<W, P>& b) {
  return a.word < b.word || (a.word == b.word && a.position < b.position);
}

/// The word an element sorts by: its selection image, complemented when the largest come first,
/// so that every search below looks for the smallest records.
template <class T>
BKT_HOST_DEVICE inline radix_word<T> oriented_word(const T& x, bool largest) {
  const auto w = select_bits(x);
  return largest ? static_cast<radix_word<T>>(~w) : w;
}

/// The input array as records: position i is element i.
template <class T, class P>
struct input_records {
  using word_type = radix_word<T>;
  using position_type = P;
  const T* data;
  std::int64_t size;
  bool largest;
  /// Sampled positions of the input come in increasing order with the sample index (see
  /// drawn_window_kernel).
  static constexpr bool positions_in_order = true;
  /// Elements per 16-byte load: whole tiles of an aligned input are read with vector loads.
  static constexpr int vector = 16 / sizeof(T);

  __device__ bool vectors_aligned() const { return reinterpret_cast<std::uintptr_t>(data) % 16 == 0; }

  __device__ word_type word_at(std::int64_t i) const { return oriented_word(data[i], largest); }
  __device__ P position_at(std::int64_t i) const { return static_cast<P>(i); }
  __device__ record<word_type, P> at(std::int64_t i) const { return {word_at(i), position_at(i)}; }

  /// The elements themselves, for comparisons that skip the words (see native_order), in
  /// descending order when the largest come first.
  using value_type = T;
  static constexpr bool may_descend = true;
  /// The `vector` elements from `first` (a multiple of `vector`).
  __device__ void vector_values_at(std::int64_t first, T (&out)[vector]) const {
    *reinterpret_cast<uint4*>(out) = __ldg(reinterpret_cast<const uint4*>(data + first));
  }
  __device__ T value_at(std::int64_t i) const { return data[i]; }
  /// An element whose word is w (a NaN for the NaN word).
  __device__ T value_of(word_type w) const { return from_select_bits<T>(largest ? static_cast<word_type>(~w) : w); }
  __device__ word_type word_of(T x) const { return oriented_word(x, largest); }
  /// Equal bit for bit, so of one word (NaNs of one word may differ in their bits: false then).
  __device__ static bool identical(T a, T b) {
    word_type x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
  }
};

/// A level's candidates: records kept by the previous level's filter, in no particular order.
template <class W, class P>
struct buffered_records {
  using word_type = W;
  using position_type = P;
  const W* words;
  const P* positions;
  std::int64_t size;
  static constexpr bool positions_in_order = false;
  static constexpr int vector = 1;
  __device__ bool vectors_aligned() const { return false; }
  __device__ W word_at(std::int64_t i) const { return words[i]; }
  __device__ P position_at(std::int64_t i) const { return positions[i]; }
  __device__ record<W, P> at(std::int64_t i) const { return {words[i], positions[i]}; }

  /// Words are their own values, in ascending order.
  using value_type = W;
  static constexpr bool may_descend = false;
  __device__ void vector_values_at(std::int64_t first, W (&out)[1]) const { out[0] = words[first]; }
  __device__ W value_at(std::int64_t i) const { return words[i]; }
  __device__ W value_of(W w) const { return w; }
  __device__ W word_of(W w) const { return w; }
  __device__ static bool identical(W a, W b) { return a == b; }
};

/// The selection order of T (NaN above every number; descending when the largest come first) as
/// the type's own comparisons, which cost an element one instruction where its word costs several.
/// They are exact on words and integers; on floats they cannot tell -0.0 from +0.0 or order NaNs,
/// so a filter uses them to clear the elements that surely lie on one side and settles the rest by
/// their records: less(a, b) implies that a's word is below b's, and when a's word is below b's,
/// less(b, a) is false.
template <class T, bool DESCENDING>
struct native_order {
  __device__ static bool less(T a, T b) { return DESCENDING ? b < a : a < b; }
  /// No element is less than this.
  __device__ static T first() {
    if constexpr (std::is_floating_point_v<T>)
      return DESCENDING ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    else
      return DESCENDING ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  }
  /// This is less than no element.
  __device__ static T last() {
    if constexpr (std::is_floating_point_v<T>)
      return std::numeric_limits<T>::quiet_NaN();
    else
      return DESCENDING ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
};

/// The window one level keeps: records in [low, high]; an open end keeps everything on its side.
template <class W, class P>
struct pivots {
  record<W, P> low;
  record<W, P> high;
  int low_open;
  int high_open;
  /// A heavy value fills the window: the sample's words at its two ranks (clamped to the sample
  /// where an end is open) are one word, and a quarter of the sample or more has it.
  int heavy;
  /// Makes the size a multiple of 8 bytes: the level report after it then has no padding that
  /// the host's copy would read undefined.
  int unused;
};

/// Whether both pivots have one word (a heavy value between them).
template <class W, class P>
BKT_HOST_DEVICE inline bool one_word(const pivots<W, P>& w) {
  return !w.low_open && !w.high_open && w.low.word == w.high.word;
}

/// Whether the filter runs its TIED kernel: for a value search when both pivots have one word
/// (it then only counts); when positions are taken (top-k) when a heavy value fills the window,
/// open ends included (its copies are then placed by two position bounds; the common kernel,
/// which reads each candidate again, is much slower on an all-equal input, but the TIED kernel is
/// slower than it when the value holds a sixteenth: docs/primitives/select.md).
template <class W, class P>
BKT_HOST_DEVICE inline bool tied_filter(const pivots<W, P>& w, bool taking) {
  return taking ? w.heavy != 0 : one_word(w);
}

/// Records below the window, in it, what the filter could store of it.
struct filter_counts {
  unsigned long long below;
  unsigned long long middle;
};

/// Whether a level's filter stored nothing: a search for a value (no positions taken) whose window
/// has one word only counts (see count_one_word), so the buffer's capacity does not bound it and
/// the low pivot's element is the answer when the target lies inside.
template <class W, class P>
BKT_HOST_DEVICE inline bool counted_only(const pivots<W, P>& w, bool taking) {
  return !taking && one_word(w);
}

/// What one level tells the host, read back in one copy: its window and its filter's counts.
template <class W, class P>
struct level_report {
  static_assert(sizeof(pivots<W, P>) % alignof(filter_counts) == 0, "no padding before the counts");
  pivots<W, P> window;
  filter_counts counts;
};

}  // namespace bkt::detail::select
