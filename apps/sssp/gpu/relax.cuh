// Relaxing a frontier: every queue entry (key, vertex) whose key is still the vertex's distance,
// and that was not expanded at that distance already, offers key + w to each edge's target; each
// improvement appends (new distance, target) to an output queue.
//
// Load balance: a warp takes 32 entries, scans their degrees and walks the concatenation of their
// edge lists 32 edges at a time, so a warp's loads are consecutive edges whatever the degrees.
// Vertices of more than heavy_degree edges would keep one warp busy for long (hubs of scale-free
// graphs): they go to a list that heavy_relax_kernel spreads over whole blocks.
#pragma once

#include <cstdint>

#include "bkt/detail/warp/warp_scan.cuh"
#include "graph.hpp"

namespace bkt::sssp::gpu {

using detail::full_warp_mask;
using detail::lane_id;
using detail::lane_mask_lt;

inline constexpr int relax_block_threads = 256;
inline constexpr std::int64_t heavy_degree = 1024;

/// Distances live as D (uint64 or double) and are lowered with atomicMin on their 64-bit pattern,
/// which orders non-negative doubles (and +inf) like the numbers they hold.
template <class D>
__device__ __forceinline__ unsigned long long distance_bits(D d) {
  if constexpr (std::is_floating_point_v<D>) return static_cast<unsigned long long>(__double_as_longlong(d));
  else return static_cast<unsigned long long>(d);
}
template <class D>
__device__ __forceinline__ D distance_from_bits(unsigned long long bits) {
  if constexpr (std::is_floating_point_v<D>) return __longlong_as_double(static_cast<long long>(bits));
  else return static_cast<D>(bits);
}
/// Lowers *slot to `value`; returns whether `value` was smaller than what was there.
template <class D>
__device__ __forceinline__ bool lower_distance(D* slot, D value) {
  const unsigned long long bits = distance_bits(value);
  return bits < atomicMin(reinterpret_cast<unsigned long long*>(slot), bits);
}

/// An append-only queue of (key, vertex) entries in device memory; `count` may run past
/// `capacity`, which marks an overflow (the entries that did not fit are dropped, and the host
/// rebuilds the queue from the distances).
template <class D>
struct queue_view {
  D* keys;
  vertex* vertices;
  unsigned long long* count;
  std::int64_t capacity;
};

/// Appends (key, v) for the lanes with `want` set: one atomic per warp.
template <class D>
__device__ __forceinline__ void warp_append(const queue_view<D>& q, bool want, D key, vertex v) {
  const unsigned mask = __ballot_sync(full_warp_mask, want);
  if (mask == 0) return;
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane_id() == leader) base = atomicAdd(q.count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(full_warp_mask, base, leader);
  if (want) {
    const unsigned long long at = base + __popc(mask & lane_mask_lt());
    if (at < static_cast<unsigned long long>(q.capacity)) {
      q.keys[at] = key;
      q.vertices[at] = v;
    }
  }
}

template <class Weight>
struct relax_args {
  const std::int64_t* offsets;
  const vertex* targets;
  const Weight* weights;
  distance_t<Weight>* distances;
  distance_t<Weight>* expanded;  // the distance at which each vertex's edges were last relaxed
  const distance_t<Weight>* frontier_keys;
  const vertex* frontier_vertices;
  const unsigned long long* frontier_size;  // device-side count: the host does not wait for it
  queue_view<distance_t<Weight>> near;      // improvements below `threshold` (all of them without a far queue)
  queue_view<distance_t<Weight>> far;       // Near-Far's far pile; far.count null: none
  distance_t<Weight> threshold;
  queue_view<distance_t<Weight>> heavy;     // frontier entries left to heavy_relax_kernel
  unsigned long long* stats;                // [0] vertices expanded, [1] edges relaxed
};

/// Offers `candidate` to target t and queues t if its distance went down.
template <class Weight>
__device__ __forceinline__ void offer(const relax_args<Weight>& a, bool active, vertex t, distance_t<Weight> candidate) {
  bool improved = false;
  if (active && candidate < a.distances[t]) improved = lower_distance(a.distances + t, candidate);
  if (a.far.count == nullptr) {
    warp_append(a.near, improved, candidate, t);
  } else {
    warp_append(a.near, improved && candidate < a.threshold, candidate, t);
    warp_append(a.far, improved && !(candidate < a.threshold), candidate, t);
  }
}

/// Whether entry (key, v) should be expanded now: its key is v's distance and v was not expanded
/// at that distance yet (a queue may hold v twice with the same key).
template <class D>
__device__ __forceinline__ bool claim_expansion(D* distances, D* expanded, D key, vertex v) {
  return key == distances[v] && lower_distance(expanded + v, key);
}

/// Relaxes frontier entries [0, size) with every warp of the grid (warp-uniform loop).
template <class Weight>
__device__ void relax_entries(const relax_args<Weight>& a, std::int64_t size) {
  using D = distance_t<Weight>;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  unsigned long long expanded_here = 0, edges_here = 0;
  for (; warp * 32 < size; warp += warps) {
    const std::int64_t entry = warp * 32 + lane_id();
    D key{};
    vertex v = 0;
    std::int64_t first = 0;
    std::uint32_t degree = 0;
    bool claimed = false;
    if (entry < size) {
      key = a.frontier_keys[entry];
      v = a.frontier_vertices[entry];
      claimed = claim_expansion(a.distances, a.expanded, key, v);
    }
    bool hub = false;
    if (claimed) {
      first = a.offsets[v];
      const std::int64_t edges = a.offsets[v + 1] - first;
      hub = edges > heavy_degree;
      degree = hub ? 0u : static_cast<std::uint32_t>(edges);
    }
    warp_append(a.heavy, hub, key, v);
    expanded_here += claimed;
    const std::uint32_t end = detail::warp_inclusive_sum(degree);
    const std::uint32_t total = __shfl_sync(full_warp_mask, end, 31);
    const std::uint32_t start = end - degree;
    edges_here += total;
    for (std::uint32_t base = 0; base < total; base += 32) {
      const std::uint32_t e = base + lane_id();
      // The owner of edge e is the lane whose [start, end) holds it: count lanes with end <= e.
      int owner = 0;
#pragma unroll
      for (int step = 16; step > 0; step /= 2) {
        const std::uint32_t owner_end = __shfl_sync(full_warp_mask, end, owner + step - 1);
        if (owner_end <= e) owner += step;
      }
      const std::int64_t owner_first = __shfl_sync(full_warp_mask, first, owner);
      const std::uint32_t owner_start = __shfl_sync(full_warp_mask, start, owner);
      const D owner_key = __shfl_sync(full_warp_mask, key, owner);
      const bool active = e < total;
      vertex t = 0;
      D candidate{};
      if (active) {
        const std::int64_t edge = owner_first + (e - owner_start);
        t = a.targets[edge];
        candidate = owner_key + static_cast<D>(a.weights[edge]);
      }
      offer(a, active, t, candidate);
    }
  }
  expanded_here = detail::warp_sum(expanded_here);
  if (lane_id() == 0 && edges_here + expanded_here != 0) {
    atomicAdd(a.stats + 0, expanded_here);
    atomicAdd(a.stats + 1, edges_here);
  }
}

template <class Weight>
__global__ void __launch_bounds__(relax_block_threads) relax_kernel(relax_args<Weight> a) {
  relax_entries(a, static_cast<std::int64_t>(*a.frontier_size));
}

/// The hubs relax_kernel set aside: each block takes one at a time and walks its edges with all
/// its warps (warp-uniform steps, so that every lane reaches warp_append's ballot).
template <class Weight>
__device__ void relax_hubs(const relax_args<Weight>& a, std::int64_t hubs) {
  using D = distance_t<Weight>;
  unsigned long long edges_here = 0;
  for (std::int64_t hub = blockIdx.x; hub < hubs; hub += gridDim.x) {
    const D key = a.heavy.keys[hub];
    const vertex v = a.heavy.vertices[hub];
    const std::int64_t first = a.offsets[v];
    const std::int64_t last = a.offsets[v + 1];
    if (threadIdx.x == 0) edges_here += static_cast<unsigned long long>(last - first);
    for (std::int64_t base = first + (threadIdx.x & ~31u); base < last; base += blockDim.x) {
      const std::int64_t edge = base + lane_id();
      const bool active = edge < last;
      vertex t = 0;
      D candidate{};
      if (active) {
        t = a.targets[edge];
        candidate = key + static_cast<D>(a.weights[edge]);
      }
      offer(a, active, t, candidate);
    }
  }
  if (threadIdx.x == 0 && edges_here != 0) atomicAdd(a.stats + 1, edges_here);
}

template <class Weight>
__global__ void __launch_bounds__(relax_block_threads) heavy_relax_kernel(relax_args<Weight> a) {
  relax_hubs(a, static_cast<std::int64_t>(*a.heavy.count));
}

}  // namespace bkt::sssp::gpu
