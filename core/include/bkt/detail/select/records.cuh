// What selection compares: a record is an element's oriented image word and its input position.
// Records order by (word, position), so no two are equal: ties between equal elements resolve to
// the smaller position, and runs of equal keys sample as well as distinct ones (no equality
// buckets are needed).
#pragma once

#include <cstdint>
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
  /// Sampled positions of the input come in increasing order (see sample_kernel).
  static constexpr bool positions_in_order = true;
  /// Elements per 16-byte load: whole tiles of an aligned input are read with vector loads.
  static constexpr int vector = 16 / sizeof(T);

  __device__ bool vectors_aligned() const { return reinterpret_cast<std::uintptr_t>(data) % 16 == 0; }
  /// The `vector` words at element `first` (a multiple of `vector`).
  __device__ void vector_words_at(std::int64_t first, word_type (&out)[vector]) const {
    T values[vector];
    *reinterpret_cast<uint4*>(values) = __ldg(reinterpret_cast<const uint4*>(data + first));
    for (int e = 0; e < vector; ++e) out[e] = oriented_word(values[e], largest);
  }

  __device__ word_type word_at(std::int64_t i) const { return oriented_word(data[i], largest); }
  __device__ P position_at(std::int64_t i) const { return static_cast<P>(i); }
  __device__ record<word_type, P> at(std::int64_t i) const { return {word_at(i), position_at(i)}; }
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
  __device__ void vector_words_at(std::int64_t first, W (&out)[1]) const { out[0] = words[first]; }

  __device__ W word_at(std::int64_t i) const { return words[i]; }
  __device__ P position_at(std::int64_t i) const { return positions[i]; }
  __device__ record<W, P> at(std::int64_t i) const { return {words[i], positions[i]}; }
};

/// The window one level keeps: records in [low, high]; an open end keeps everything on its side.
template <class W, class P>
struct pivots {
  record<W, P> low;
  record<W, P> high;
  int low_open;
  int high_open;
};

/// Records below the window, in it, what the filter could store of it.
struct filter_counts {
  unsigned long long below;
  unsigned long long middle;
};

}  // namespace bkt::detail::select
