// Relaxing a frontier with its edges dealt evenly: every warp of the grid takes the same number of
// consecutive edges of the frontier's concatenated edge lists, whatever the degrees.
//
// relax_warp (gpu/relax.cuh) gives each warp a few frontier vertices. On a scale-free graph the
// warp that draws vertices of a thousand edges walks them alone while the rest of the grid waits,
// and hubs wait for a second kernel that gives each one block: the round lasts as long as its
// longest list. Here one kernel claims the frontier's vertices and writes the running sum of their
// degrees (a single-pass scan with decoupled look-back); a second splits [0, edges) into equal
// ranges, one a warp, and finds each range's first vertex by a 32-way search of the running sums
// (the "load-balanced search" of merge-path schemes: Davidson et al. and Merrill et al. balance
// their frontiers the same way).
#pragma once

#include <cstdint>

#include "bkt/device/tile_lookback.cuh"
#include "queue_kernels.cuh"

namespace bkt::sssp::gpu {

#ifndef BKT_SSSP_EDGE_UNROLL
#define BKT_SSSP_EDGE_UNROLL 2
#endif
/// Edges a lane takes at once in relax_edges_kernel: their loads overlap.
inline constexpr int edge_unroll = BKT_SSSP_EDGE_UNROLL;
/// Near improvements a block of relax_edges_kernel stages in shared memory.
inline constexpr unsigned edge_staging_capacity = 4096;
/// Frontier entries per tile of the claim kernel's scan.
inline constexpr int claim_tile = relax_block_threads;

/// The claimed frontier. Entry i holds the key its vertex was claimed with, its first edge, and
/// the degrees of entries [0, i] summed (a vertex that was not claimed counts 0 edges).
template <class D>
struct claimed_frontier {
  D* keys;
  std::int64_t* firsts;
  std::int64_t* ends;
  /// Word 0 hands out tile numbers in the order blocks take them (a tile looks back only at tiles
  /// taken before it); words 1... are the tiles' look-back status. All zero before the claim, and
  /// cleared again by relax_edges_kernel.
  std::uint64_t* scan_state;
};

/// Words of claimed_frontier::scan_state a frontier of `entries` entries needs.
inline std::int64_t claim_scan_words(std::int64_t entries) { return (entries + claim_tile - 1) / claim_tile + 1; }

__device__ __forceinline__ std::uint64_t warp_inclusive_sum64(std::uint64_t value) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const std::uint64_t other = __shfl_up_sync(full_warp_mask, value, offset);
    if (lane_id() >= offset) value += other;
  }
  return value;
}

/// Claims the frontier's vertices (as relax_warp does) and writes claimed_frontier. A block takes
/// tiles in ticket order until they pass the frontier, so the grid need not be sized to it (the host
/// knows only a bound); after a split, every block picks the frontier's bucket itself and block 0
/// records it, which spares the round a launch.
template <class Weight>
__global__ void __launch_bounds__(relax_block_threads)
    claim_frontier_kernel(relax_args<Weight> a, claimed_frontier<distance_t<Weight>> c, split_frontier split) {
  using D = distance_t<Weight>;
  constexpr int warps = relax_block_warps;
  __shared__ frontier_pieces pieces;
  __shared__ std::int64_t tile_shared;
  __shared__ std::uint64_t warp_totals[warps];
  __shared__ std::uint64_t tile_exclusive;
  if (threadIdx.x == 0) {
    if (split.region_offsets != nullptr) {
      pieces = choose_bucket(split, blockIdx.x == 0);
    } else {
      const auto size = static_cast<std::int64_t>(*a.frontier_size);
      pieces = {a.frontier, size, nullptr, size};
    }
  }
  std::uint64_t* status = c.scan_state + 1;
  for (;;) {
    if (threadIdx.x == 0)
      tile_shared = static_cast<std::int64_t>(atomicAdd(reinterpret_cast<unsigned long long*>(c.scan_state), 1ull));
    __syncthreads();
    const std::int64_t size = pieces.size;
    const std::int64_t tile = tile_shared;
    if (tile * claim_tile >= size) return;  // the whole block: no later tile needs this one's status
    const std::int64_t i = tile * claim_tile + threadIdx.x;
    D key{};
    std::int64_t first = 0;
    std::uint64_t degree = 0;
    bool claimed = false;
    if (i < size) {
      const vertex v = i < pieces.first_size ? pieces.first[i] : pieces.second[i - pieces.first_size];
      claimed = claim_expansion(a.pending, a.distances, v, key);
      if (claimed) {
        first = a.offsets[v];
        degree = static_cast<std::uint64_t>(a.offsets[v + 1] - first);
      }
    }
    // One atomic a tile: every warp adding to the same word would queue up behind it.
    const int claimed_here = __syncthreads_count(claimed);
    if (threadIdx.x == 0 && claimed_here != 0)
      atomicAdd(a.stats + expanded_vertices_stat, static_cast<unsigned long long>(claimed_here));
    const std::uint64_t in_warp = warp_inclusive_sum64(degree);
    const int warp = static_cast<int>(threadIdx.x / warp_threads);
    if (lane_id() == 31) warp_totals[warp] = in_warp;
    __syncthreads();
    std::uint64_t before_warp = 0, tile_total = 0;
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      if (w < warp) before_warp += warp_totals[w];
      tile_total += warp_totals[w];
    }
    if (warp == 0) {
      std::uint64_t exclusive = 0;
      if (tile == 0) {
        if (lane_id() == 0) publish_tile_status(status, 0, tile_status::inclusive, tile_total);
      } else {
        if (lane_id() == 0) publish_tile_status(status, tile, tile_status::aggregate, tile_total);
        exclusive = lookback_exclusive_prefix(status, tile, tile_total);
      }
      if (lane_id() == 0) tile_exclusive = exclusive;
    }
    __syncthreads();
    if (i < size) {
      c.keys[i] = key;
      c.firsts[i] = first;
      c.ends[i] = static_cast<std::int64_t>(tile_exclusive + before_warp + in_warp);
    }
    __syncthreads();  // the shared words are read before the next tile writes them
  }
}

/// The first entry of ends[0, size) above `edge` (one exists: ends[size - 1] > edge), found by the
/// whole warp 32 probes at a time; returned to every lane.
__device__ __forceinline__ std::int64_t first_end_above(const std::int64_t* ends, std::int64_t size, std::int64_t edge) {
  std::int64_t left = 0, right = size - 1;  // the answer is in [left, right]
  while (left < right) {
    const std::int64_t step = (right - left + 32) / 32;
    const std::int64_t probe = min(left + lane_id() * step, right);
    const unsigned above = __ballot_sync(full_warp_mask, ends[probe] > edge);
    if (above == 0) {
      left = min(left + 31 * step, right) + 1;
    } else {
      const int k = __ffs(above) - 1;
      if (k == 0) return left;
      right = min(left + k * step, right);
      left = left + (k - 1) * step + 1;
    }
  }
  return left;
}

/// Relaxes the claimed frontier's edges, an equal share (a multiple of 32) for each warp. Near
/// improvements are staged in shared memory and appended with one atomic a block at the end (or by
/// the warp, past the staging room): a per-warp atomic on the queue's one counter was the round's
/// bottleneck when most edges improve.
template <class Weight>
__global__ void __launch_bounds__(relax_block_threads)
    relax_edges_kernel(relax_args<Weight> a, claimed_frontier<distance_t<Weight>> c, std::int64_t scan_words) {
  using D = distance_t<Weight>;
  // The claim is done: clear its scan words for the next round (which spares a memset).
  for (std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; j < scan_words;
       j += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    c.scan_state[j] = 0;
  __shared__ vertex staged[edge_staging_capacity];
  __shared__ unsigned staged_count;
  __shared__ unsigned long long staged_base;
  const std::int64_t size = static_cast<std::int64_t>(*a.frontier_size);
  if (size == 0) return;  // the whole grid
  const std::int64_t total = c.ends[size - 1];
  if (blockIdx.x == 0 && threadIdx.x == 0 && total != 0)
    atomicAdd(a.stats + relaxed_edges_stat, static_cast<unsigned long long>(total));
  if (threadIdx.x == 0) staged_count = 0;
  __syncthreads();
  a.local = {staged, &staged_count, edge_staging_capacity};
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / warp_threads);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_threads;
  const std::int64_t share = ((total + warps - 1) / warps + 31) / 32 * 32;
  std::int64_t edge = warp * share;  // the next edge of this warp's range [warp * share, last)
  const std::int64_t last = min(total, edge + share);
  // A window of 32 consecutive entries, one a lane, starting with the one that holds `edge`.
  for (std::int64_t window = edge < last ? first_end_above(c.ends, size, edge) : 0; edge < last; window += 32) {
    const std::int64_t entry = window + lane_id();
    const bool inside = entry < size;
    const std::int64_t end = inside ? c.ends[entry] : INT64_MAX;
    std::int64_t start = __shfl_up_sync(full_warp_mask, end, 1);
    if (lane_id() == 0) start = window == 0 ? 0 : c.ends[window - 1];
    const std::int64_t first = inside ? c.firsts[entry] : 0;
    const D key = inside ? c.keys[entry] : D{};
    const std::int64_t window_end = __shfl_sync(full_warp_mask, end, 31);
    for (; edge < last && edge < window_end; edge = min(edge + 32 * edge_unroll, window_end)) {
      vertex t[edge_unroll];
      D candidate[edge_unroll], current[edge_unroll];
      bool active[edge_unroll];
#pragma unroll
      for (int k = 0; k < edge_unroll; ++k) {
        const std::int64_t e = edge + 32 * k + lane_id();
        // The lane whose [start, end) holds e: count the lanes with end <= e.
        int owner = 0;
#pragma unroll
        for (int step = 16; step > 0; step /= 2) {
          const std::int64_t owner_end = __shfl_sync(full_warp_mask, end, owner + step - 1);
          if (owner_end <= e) owner += step;
        }
        const std::int64_t owner_first = __shfl_sync(full_warp_mask, first, owner);
        const std::int64_t owner_start = __shfl_sync(full_warp_mask, start, owner);
        const D owner_key = __shfl_sync(full_warp_mask, key, owner);
        active[k] = e < last && e < window_end;
        t[k] = 0;
        candidate[k] = D{};
        if (active[k]) {
          const std::int64_t at = owner_first + (e - owner_start);
          t[k] = a.targets[at];
          candidate[k] = owner_key + static_cast<D>(a.weights[at]);
        }
      }
      // All the distance reads before the first atomic, so that their latencies overlap.
#pragma unroll
      for (int k = 0; k < edge_unroll; ++k) current[k] = active[k] ? a.distances[t[k]] : D{};
#pragma unroll
      for (int k = 0; k < edge_unroll; ++k) offer_below(a, active[k] && candidate[k] < current[k], t[k], candidate[k]);
    }
  }
  __syncthreads();
  const unsigned staged_size = min(staged_count, edge_staging_capacity);
  if (staged_size == 0) return;  // the whole block
  if (threadIdx.x == 0) staged_base = atomicAdd(a.near.count, static_cast<unsigned long long>(staged_size));
  __syncthreads();
  for (unsigned j = threadIdx.x; j < staged_size; j += blockDim.x) a.near.vertices[staged_base + j] = staged[j];
}

}  // namespace bkt::sssp::gpu
