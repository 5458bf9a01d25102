// A grid-wide, order-free sweep over an array with 16-byte loads, for read-only passes (counting,
// histograms) that must run at the read bandwidth.
#pragma once

#include <cstdint>

#include "bkt/detail/thread/packed_run.cuh"

namespace bkt::detail {

/// Calls visit(element) once for every element of data[0, num_items), spread over `threads`
/// threads of which this is `thread`. Each thread loads LoadItems elements (as 16-byte vectors)
/// before it visits them, to keep enough bytes in flight; the elements before the first 16-byte
/// boundary and after the last whole vector are visited one by one.
template <int LoadItems, class T, class Visit>
__device__ __forceinline__ void sweep_vectors(const T* data, std::int64_t num_items, std::int64_t thread,
                                              std::int64_t threads, Visit&& visit) {
  constexpr int vector_items = 16 / static_cast<int>(sizeof(T));
  constexpr int unroll = vector_items >= LoadItems ? 1 : LoadItems / vector_items;
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::int64_t head_items = static_cast<std::int64_t>((16 - address % 16) % 16 / sizeof(T));
  const std::int64_t head = head_items < num_items ? head_items : num_items;
  const std::int64_t vectors = (num_items - head) / vector_items;
  const T* body = data + head;
  const std::int64_t tail = head + vectors * vector_items;

  for (std::int64_t first = thread; first < vectors; first += unroll * threads) {
    packed_run<T, vector_items> runs[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (first + u * threads < vectors) runs[u].load_vector(body + (first + u * threads) * vector_items);
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (first + u * threads < vectors)
#pragma unroll
        for (int i = 0; i < vector_items; ++i) visit(runs[u].get(i));
  }
  if (thread < head) visit(data[thread]);
  if (tail + thread < num_items) visit(data[tail + thread]);
}

/// As sweep_vectors, but in rounds that every thread of a group (`group` consecutive threads,
/// starting at a multiple of it) runs equally often: each round calls visit(element, real) on
/// the same number of elements in every thread, with real false for the padding, then round().
/// Groups of a warp let visit use warp-wide operations; groups of a block let round() synchronize it.
template <int LoadItems, class T, class Visit, class Round>
__device__ __forceinline__ void sweep_vectors_in_rounds(const T* data, std::int64_t num_items, std::int64_t thread,
                                                        std::int64_t threads, int group, Visit&& visit,
                                                        Round&& round) {
  constexpr int vector_items = 16 / static_cast<int>(sizeof(T));
  constexpr int unroll = vector_items >= LoadItems ? 1 : LoadItems / vector_items;
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::int64_t head_items = static_cast<std::int64_t>((16 - address % 16) % 16 / sizeof(T));
  const std::int64_t head = head_items < num_items ? head_items : num_items;
  const std::int64_t vectors = (num_items - head) / vector_items;
  const T* body = data + head;
  const std::int64_t tail = head + vectors * vector_items;
  const std::int64_t rank = thread % group;

  for (std::int64_t first = thread; first - rank < vectors; first += unroll * threads) {
    packed_run<T, vector_items> runs[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (first + u * threads < vectors) runs[u].load_vector(body + (first + u * threads) * vector_items);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      if (first - rank + u * threads >= vectors) break;  // the same for the whole group
      const bool real = first + u * threads < vectors;
#pragma unroll
      for (int i = 0; i < vector_items; ++i) visit(real ? runs[u].get(i) : T{}, real);
    }
    round();
  }
  visit(thread < head ? data[thread] : T{}, thread < head);
  visit(tail + thread < num_items ? data[tail + thread] : T{}, tail + thread < num_items);
  round();
}

/// sweep_vectors_in_rounds in warps, without a round step.
template <int LoadItems, class T, class Visit>
__device__ __forceinline__ void sweep_vectors_in_step(const T* data, std::int64_t num_items, std::int64_t thread,
                                                      std::int64_t threads, Visit&& visit) {
  sweep_vectors_in_rounds<LoadItems>(data, num_items, thread, threads, 32, visit, [] {});
}

}  // namespace bkt::detail
