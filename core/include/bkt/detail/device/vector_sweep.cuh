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

/// As sweep_vectors, but every lane of a warp calls visit(element, real) equally often, with
/// real false for the padding, so that visit may use warp-wide operations. Threads of a warp
/// must be consecutive (thread % 32 is the lane).
template <int LoadItems, class T, class Visit>
__device__ __forceinline__ void sweep_vectors_in_step(const T* data, std::int64_t num_items, std::int64_t thread,
                                                      std::int64_t threads, Visit&& visit) {
  constexpr int vector_items = 16 / static_cast<int>(sizeof(T));
  constexpr int unroll = vector_items >= LoadItems ? 1 : LoadItems / vector_items;
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::int64_t head_items = static_cast<std::int64_t>((16 - address % 16) % 16 / sizeof(T));
  const std::int64_t head = head_items < num_items ? head_items : num_items;
  const std::int64_t vectors = (num_items - head) / vector_items;
  const T* body = data + head;
  const std::int64_t tail = head + vectors * vector_items;
  const std::int64_t lane = thread % 32;

  for (std::int64_t first = thread; first - lane < vectors; first += unroll * threads) {
    packed_run<T, vector_items> runs[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (first + u * threads < vectors) runs[u].load_vector(body + (first + u * threads) * vector_items);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      if (first - lane + u * threads >= vectors) break;  // the same for the whole warp
      const bool real = first + u * threads < vectors;
#pragma unroll
      for (int i = 0; i < vector_items; ++i) visit(real ? runs[u].get(i) : T{}, real);
    }
  }
  visit(thread < head ? data[thread] : T{}, thread < head);
  visit(tail + thread < num_items ? data[tail + thread] : T{}, tail + thread < num_items);
}

}  // namespace bkt::detail
