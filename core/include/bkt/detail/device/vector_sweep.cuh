// A grid-wide, order-free sweep over an array with 16-byte loads, for read-only passes (counting,
// histograms) that must run at the read bandwidth.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bkt/detail/thread/packed_run.cuh"

namespace bkt::detail {

/// An array cut for 16-byte loads: the elements before the first 16-byte boundary (head), the
/// whole vectors from there (body), and the elements from `tail` on.
template <class T>
struct vector_split {
  static constexpr int items = 16 / static_cast<int>(sizeof(T));
  std::int64_t head, vectors, tail;
  const T* body;

  __device__ vector_split(const T* data, std::int64_t num_items) {
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const auto head_items = static_cast<std::int64_t>((16 - address % 16) % 16 / sizeof(T));
    head = head_items < num_items ? head_items : num_items;
    vectors = (num_items - head) / items;
    body = data + head;
    tail = head + vectors * items;
  }

  /// Loads runs[u] = vector first + u * stride for each u < Unroll that exists (every one, unless
  /// Checked).
  template <bool Checked = true, int Unroll>
  __device__ void load(packed_run<T, items> (&runs)[Unroll], std::int64_t first, std::int64_t stride) const {
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (!Checked || first + u * stride < vectors) runs[u].load_vector(body + (first + u * stride) * items);
  }

  /// Calls visit(element) on every element that load put in runs.
  template <bool Checked = true, int Unroll, class Visit>
  __device__ __forceinline__ void for_each(const packed_run<T, items> (&runs)[Unroll], std::int64_t first,
                                           std::int64_t stride, Visit&& visit) const {
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (!Checked || first + u * stride < vectors)
#pragma unroll
        for (int i = 0; i < items; ++i) visit(runs[u].get(i));
  }
};

/// Calls visit(element) once for every element of data[0, num_items), spread over `threads`
/// threads of which this is `thread`. Each thread loads LoadItems elements (as 16-byte vectors)
/// before it visits them, to keep enough bytes in flight; the elements before the first 16-byte
/// boundary and after the last whole vector are visited one by one.
template <int LoadItems, class T, class Visit>
__device__ __forceinline__ void sweep_vectors(const T* data, std::int64_t num_items, std::int64_t thread,
                                              std::int64_t threads, Visit&& visit) {
  using split = vector_split<T>;
  constexpr int unroll = split::items >= LoadItems ? 1 : LoadItems / split::items;
  const split cut(data, num_items);
  for (std::int64_t first = thread; first < cut.vectors; first += unroll * threads) {
    packed_run<T, split::items> runs[unroll];
    cut.load(runs, first, threads);
    cut.for_each(runs, first, threads, visit);
  }
  if (thread < cut.head) visit(data[thread]);
  if (cut.tail + thread < num_items) visit(data[cut.tail + thread]);
}

/// As sweep_vectors, for a visit with a fast path that may be unsure of an element (visit returns
/// false): after a round in which any visit was unsure, a thread calls recheck(element) on every
/// element of the round, and recheck must pass over (cheaply) those that visit was sure of. The
/// slow path then sits once a round outside the loop over the elements, not after each, and a
/// round costs one flag, not one bit an element. Rounds whose vectors all exist run without a test
/// a vector (the last round, with them).
template <int LoadItems, class T, class Visit, class Recheck>
__device__ __forceinline__ void sweep_vectors_with_recheck(const T* data, std::int64_t num_items, std::int64_t thread,
                                                           std::int64_t threads, Visit&& visit, Recheck&& recheck) {
  using split = vector_split<T>;
  constexpr int unroll = split::items >= LoadItems ? 1 : LoadItems / split::items;
  const split cut(data, num_items);
  auto round = [&](std::int64_t first, auto checked) {
    packed_run<T, split::items> runs[unroll];
    cut.template load<checked>(runs, first, threads);
    bool sure = true;
    cut.template for_each<checked>(runs, first, threads, [&](const T& x) { sure &= visit(x); });
    if (!sure) cut.template for_each<checked>(runs, first, threads, recheck);
  };
  std::int64_t first = thread;
  for (; first + (unroll - 1) * threads < cut.vectors; first += unroll * threads) round(first, std::false_type{});
  if (first < cut.vectors) round(first, std::true_type{});
  if (thread < cut.head && !visit(data[thread])) recheck(data[thread]);
  if (cut.tail + thread < num_items && !visit(data[cut.tail + thread])) recheck(data[cut.tail + thread]);
}

/// As sweep_vectors, but in rounds that every thread of a group (`group` consecutive threads,
/// starting at a multiple of it) runs equally often: each round calls visit(element, real) on
/// the same number of elements in every thread, with real false for the padding, then round().
/// Groups of a warp let visit use warp-wide operations; groups of a block let round() synchronize it.
template <int LoadItems, class T, class Visit, class Round>
__device__ __forceinline__ void sweep_vectors_in_rounds(const T* data, std::int64_t num_items, std::int64_t thread,
                                                        std::int64_t threads, int group, Visit&& visit,
                                                        Round&& round) {
  using split = vector_split<T>;
  constexpr int unroll = split::items >= LoadItems ? 1 : LoadItems / split::items;
  const split cut(data, num_items);
  const std::int64_t rank = thread % group;
  for (std::int64_t first = thread; first - rank < cut.vectors; first += unroll * threads) {
    packed_run<T, split::items> runs[unroll];
    cut.load(runs, first, threads);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      if (first - rank + u * threads >= cut.vectors) break;  // the same for the whole group
      const bool real = first + u * threads < cut.vectors;
#pragma unroll
      for (int i = 0; i < split::items; ++i) visit(real ? runs[u].get(i) : T{}, real);
    }
    round();
  }
  visit(thread < cut.head ? data[thread] : T{}, thread < cut.head);
  visit(cut.tail + thread < num_items ? data[cut.tail + thread] : T{}, cut.tail + thread < num_items);
  round();
}

/// sweep_vectors_in_rounds in warps, without a round step.
template <int LoadItems, class T, class Visit>
__device__ __forceinline__ void sweep_vectors_in_step(const T* data, std::int64_t num_items, std::int64_t thread,
                                                      std::int64_t threads, Visit&& visit) {
  sweep_vectors_in_rounds<LoadItems>(data, num_items, thread, threads, 32, visit, [] {});
}

}  // namespace bkt::detail
