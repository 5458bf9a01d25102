// Relaxing a frontier: every queued vertex that is still pending (a vertex is queued at most once
// until it is expanded: its pending flag says so) offers its current distance + w to each edge's
// target; a target whose distance goes down and that was not pending yet is appended to an output
// queue. Queues hold vertex ids only; a vertex's key is its distance when it is looked at. With a
// far pile (Near-Far, the persistent rounds) a second flag keeps a vertex once in the pile, so that
// a piled vertex whose distance falls below the threshold still joins the near queue at once.
//
// Load balance inside the persistent rounds (gpu/persistent_rounds.cuh): a warp takes up to 32
// entries (fewer when the list is short, so that every warp has some), scans their degrees and
// walks the concatenation of their edge lists 32 edges at a time, so a warp's loads are
// consecutive edges whatever the degrees. Vertices of more than heavy_degree edges would keep one
// warp busy for long (hubs of scale-free graphs): they go to a list that relax_hubs spreads over
// whole blocks after a grid barrier. The host's rounds deal edges evenly instead
// (gpu/balanced_relax.cuh).
//
// The persistent rounds also give each block a queue in shared memory (block_queue): near
// improvements the block finds go there first, and the block relaxes them itself before the
// grid-wide barrier (gpu/persistent_rounds.cuh).
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "bkt/device/warp_scan.cuh"
#include "graph.hpp"

namespace bkt::sssp::gpu {

/// Threads a block of the relaxation kernels, and the warps they make.
inline constexpr int relax_block_threads = 256;
inline constexpr int relax_block_warps = relax_block_threads / warp_threads;
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

/// An append-only queue of vertices in device memory. It never overflows when it holds the vertex
/// count: a vertex is appended only when its flag goes from 0 to 1, so it sits there once at most.
struct queue_view {
  vertex* vertices;
  unsigned long long* count;
};

/// Appends v for the lanes with `want` set: one atomic per warp.
__device__ __forceinline__ void warp_append(const queue_view& q, bool want, vertex v) {
  const unsigned mask = __ballot_sync(full_warp_mask, want);
  if (mask == 0) return;
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane_id() == leader) base = atomicAdd(q.count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(full_warp_mask, base, leader);
  if (want) q.vertices[base + __popc(mask & lane_mask_lt())] = v;
}

/// Marks v pending; true when it was not (the caller queues it). The exchange releases the
/// distance the caller lowered before it, for claim_expansion's acquiring exchange.
__device__ __forceinline__ bool mark_pending(unsigned* pending, vertex v) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(pending[v]).exchange(1u, cuda::memory_order_release) == 0u;
}

/// Takes v off the pending set before its distance is read: an improvement that lands after the
/// exchange queues v again, one before it is seen by the read (a vertex is never lost). Release and
/// acquire suffice: the two exchanges on v's flag are ordered, and the later one reads the earlier.
template <class D>
__device__ __forceinline__ bool claim_expansion(unsigned* pending, const D* distances, vertex v, D& distance) {
  if (cuda::atomic_ref<unsigned, cuda::thread_scope_device>(pending[v]).exchange(0u, cuda::memory_order_acquire) == 0u)
    return false;
  distance = *const_cast<const volatile D*>(distances + v);
  return true;
}

/// A block's own queue in shared memory; `count` may pass `capacity` (the lanes past it did not
/// store and went to the global queue instead).
struct block_queue {
  vertex* vertices;
  unsigned* count;
  unsigned capacity;
};

/// Stores v in the block queue for the lanes with `want` set, while there is room; returns true
/// for the lanes that found none.
__device__ __forceinline__ bool block_append(const block_queue& q, bool want, vertex v) {
  const unsigned mask = __ballot_sync(full_warp_mask, want);
  if (mask == 0) return false;
  const int leader = __ffs(mask) - 1;
  unsigned base = 0;
  if (lane_id() == leader) base = atomicAdd(q.count, static_cast<unsigned>(__popc(mask)));
  const unsigned slot = __shfl_sync(full_warp_mask, base, leader) + __popc(mask & lane_mask_lt());
  if (!want || slot >= q.capacity) return want;
  q.vertices[slot] = v;
  return false;
}

/// The work counters relax_args::stats points at, one 64-bit counter each, summed over a run.
enum relax_stat : int {
  expanded_vertices_stat = 0,  // frontier vertices claimed and expanded
  relaxed_edges_stat = 1,      // edges looked at
  relax_stat_count = 2,
};

template <class Weight>
struct relax_args {
  const std::int64_t* offsets;
  const vertex* targets;
  const Weight* weights;
  distance_t<Weight>* distances;
  unsigned* pending;                          // 1 while a vertex waits in the near queue (or the only queue)
  unsigned* piled;                            // 1 while a vertex waits in the far pile
  const vertex* frontier;
  const unsigned long long* frontier_size;    // device-side count: the host does not wait for it
  queue_view near;                            // improvements below `threshold` (all of them without a far queue)
  block_queue local;                          // near improvements go here first; local.count null: none
  queue_view far;                             // Near-Far's far pile; far.count null: none
  distance_t<Weight> threshold;
  queue_view hubs;                            // claimed frontier vertices left to relax_hubs
  distance_t<Weight>* hub_distances;          // their distances when claimed
  unsigned long long* stats;                  // relax_stat_count counters, by relax_stat
};

/// Lowers t's distance to `candidate` where `below` says that it was higher when read, and queues t
/// if it went down and t was not pending. Every lane of the warp calls it.
template <class Weight>
__device__ __forceinline__ void offer_below(const relax_args<Weight>& a, bool below, vertex t,
                                            distance_t<Weight> candidate) {
  bool near = false, far = false;
  if (below && lower_distance(a.distances + t, candidate)) {
    if (a.far.count == nullptr || candidate < a.threshold) near = mark_pending(a.pending, t);
    else far = mark_pending(a.piled, t);
  }
  if (a.local.count != nullptr) near = block_append(a.local, near, t);
  warp_append(a.near, near, t);
  if (a.far.count != nullptr) warp_append(a.far, far, t);
}

/// Offers `candidate` to target t and queues t if its distance went down and it was not pending.
template <class Weight>
__device__ __forceinline__ void offer(const relax_args<Weight>& a, bool active, vertex t, distance_t<Weight> candidate) {
  offer_below(a, active && candidate < a.distances[t], t, candidate);
}

/// Vertices expanded and edges relaxed, summed per warp and added to relax_args::stats once.
struct relax_tally {
  unsigned long long expanded = 0, edges = 0;

  __device__ void flush(unsigned long long* stats) const {
    const unsigned long long warp_expanded = warp_sum(expanded);
    if (lane_id() == 0 && warp_expanded + edges != 0) {
      atomicAdd(stats + expanded_vertices_stat, warp_expanded);
      atomicAdd(stats + relaxed_edges_stat, edges);
    }
  }
};

/// Relaxes entries[0, min(count, 32)) with one warp; every lane of the warp calls it.
template <class Weight>
__device__ void relax_warp(const relax_args<Weight>& a, const vertex* entries, std::int64_t count, relax_tally& tally) {
  using D = distance_t<Weight>;
  D key{};
  vertex v = 0;
  std::int64_t first = 0;
  std::uint32_t degree = 0;
  bool claimed = false;
  if (lane_id() < count) {
    v = entries[lane_id()];
    claimed = claim_expansion(a.pending, a.distances, v, key);
  }
  bool hub = false;
  if (claimed) {
    first = a.offsets[v];
    const std::int64_t edges = a.offsets[v + 1] - first;
    hub = edges > heavy_degree;
    degree = hub ? 0u : static_cast<std::uint32_t>(edges);
  }
  const unsigned hub_mask = __ballot_sync(full_warp_mask, hub);
  if (hub_mask != 0) {  // the hub's distance travels with it: relax_hubs must not re-claim it
    unsigned long long slot = 0;
    if (lane_id() == __ffs(hub_mask) - 1) slot = atomicAdd(a.hubs.count, static_cast<unsigned long long>(__popc(hub_mask)));
    slot = __shfl_sync(full_warp_mask, slot, __ffs(hub_mask) - 1) + __popc(hub_mask & lane_mask_lt());
    if (hub) {
      a.hubs.vertices[slot] = v;
      a.hub_distances[slot] = key;
    }
  }
  tally.expanded += claimed;
  const std::uint32_t end = warp_inclusive_sum(degree);
  const std::uint32_t total = __shfl_sync(full_warp_mask, end, 31);
  const std::uint32_t start = end - degree;
  tally.edges += total;
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

/// Relaxes entries[0, size) with `warps` warps, of which this is number `warp` (warp-uniform loop).
/// A short list is spread thin, a few entries a warp: a warp walks its entries' edges 32 at a time,
/// so fewer entries a warp means fewer dependent steps when the edges are few (a road's frontier).
template <class Weight>
__device__ void relax_share(const relax_args<Weight>& a, const vertex* entries, std::int64_t size, std::int64_t warp,
                            std::int64_t warps, relax_tally& tally) {
  const std::int64_t spread = (size + warps - 1) / warps;
  const std::int64_t share = spread < 32 ? spread : 32;
  for (std::int64_t first = warp * share; first < size; first += warps * share)
    relax_warp(a, entries + first, size - first < share ? size - first : share, tally);
}

/// Relaxes frontier entries [0, size) with every warp of the grid.
template <class Weight>
__device__ void relax_entries(const relax_args<Weight>& a, std::int64_t size) {
  relax_tally tally;
  relax_share(a, a.frontier, size, (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_threads,
              static_cast<std::int64_t>(gridDim.x) * (blockDim.x / warp_threads), tally);
  tally.flush(a.stats);
}

/// The hubs relax_entries set aside: each block takes one at a time and walks its edges with all
/// its warps (warp-uniform steps, so that every lane reaches warp_append's ballot).
template <class Weight>
__device__ void relax_hubs(const relax_args<Weight>& a, std::int64_t hubs) {
  using D = distance_t<Weight>;
  unsigned long long edges_here = 0;
  for (std::int64_t hub = blockIdx.x; hub < hubs; hub += gridDim.x) {
    const D key = a.hub_distances[hub];
    const vertex v = a.hubs.vertices[hub];
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
  if (threadIdx.x == 0 && edges_here != 0) atomicAdd(a.stats + relaxed_edges_stat, edges_here);
}

}  // namespace bkt::sssp::gpu
