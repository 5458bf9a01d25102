// Delta-stepping rounds without the host: one cooperative kernel relaxes round after round, with
// a grid-wide barrier between rounds, while the frontier is small.
//
// High-diameter graphs (roads, grids) need thousands of rounds whose frontiers hold a few thousand
// vertices; there the host's per-round copy and wait, not the work, would set the time. Inside this
// kernel the current bucket is the near queue and everything at or beyond the threshold is a far
// pile: when the near queue runs dry, the threshold moves to the bucket of the smallest far key and
// the pile is split (the same buckets of width delta, formed in place). Once the frontier grows past
// hand_back_above, the kernel stops and the host's multisplit rounds go on.
//
// Most rounds of a high-diameter graph relax the few vertices the previous round improved, so a
// round costs a grid-wide barrier and a chain of dependent memory accesses for little work. Each
// block therefore keeps the near improvements it finds in shared memory and relaxes them itself,
// up to local_steps times, before the barrier (GraphIt's "bucket fusion", Zhang et al. 2020): the
// label-correcting search needs only that every improved vertex is expanded again some time, which
// it is, by this block or, past its queue's room or its steps, from the global near queue.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "queue_kernels.cuh"
#include "relax.cuh"

namespace bkt::sssp::gpu {

// The tuning, measured on the H100 (docs/tools/bkt-sssp.md); the macros let a variant
// build (-D) try other values.
#ifndef BKT_SSSP_PERSISTENT_BLOCKS_PER_SM
#define BKT_SSSP_PERSISTENT_BLOCKS_PER_SM 2
#endif
#ifndef BKT_SSSP_LOCAL_STEPS
#define BKT_SSSP_LOCAL_STEPS 16
#endif
#ifndef BKT_SSSP_LOCAL_SPILL_EDGES
#define BKT_SSSP_LOCAL_SPILL_EDGES 2048
#endif
/// Blocks per SM: a few cover a small frontier; more only make each barrier dearer (1, 2 and 4
/// ran alike on a grid; 2 keeps more warps for the larger frontiers before hand-back).
inline constexpr int persistent_blocks_per_sm = BKT_SSSP_PERSISTENT_BLOCKS_PER_SM;
/// Steps a block relaxes its own improvements before the grid-wide barrier (8 to 24 ran alike on a
/// grid and Luxembourg's roads; 1000 was far slower on the grid: blocks wait for the longest).
inline constexpr int local_steps = BKT_SSSP_LOCAL_STEPS;
/// The room of each of a block's two shared queues.
inline constexpr unsigned local_queue_capacity = 2048;
/// A block queue of more than about this many edges goes to the global queue at once: the whole
/// grid relaxes it faster than one block would. A grid (4 edges a vertex) ran much slower spilling
/// above 64 or 256 vertices and alike at 512 to 2048; a Facebook graph (44 a vertex) wants under 100.
inline constexpr double local_spill_edges = BKT_SSSP_LOCAL_SPILL_EDGES;

/// The block queue's length above which it spills, for a graph of this mean out-degree.
inline unsigned local_spill_above(double mean_degree) {
  const double vertices = local_spill_edges / (mean_degree > 1 ? mean_degree : 1.0);
  return vertices >= local_queue_capacity ? local_queue_capacity : vertices <= 32 ? 32u : static_cast<unsigned>(vertices);
}

/// The loop's state in device memory. Counters that a round reads, appends to and resets rotate
/// through three slots, so that no extra barrier is needed to reset them.
struct persistent_state {
  unsigned long long near_count[3];
  unsigned long long hub_count[3];
  unsigned long long far_count[2];
  unsigned long long min_key_bits;
  unsigned long long threshold_bits;
  long long rounds;   // rounds run by the last launch
  int far_side;       // the far buffer that holds the pile
  int stop;           // 0: all done, 1: the frontier grew past hand_back_above
};

template <class Weight>
struct persistent_args {
  relax_args<Weight> graph;  // graph, distances, pending flags, hubs, stats; queues are set per round
  vertex* near[2];
  vertex* far[2];
  distance_t<Weight> delta;
  unsigned long long hand_back_above;
  unsigned local_spill_above;  // local_spill_above(the graph's mean out-degree)
  persistent_state* state;
};

template <class T>
__device__ __forceinline__ T volatile_load(const T& value) {
  return *const_cast<const volatile T*>(&value);
}

/// The start of the bucket that holds `key`.
template <class D>
__host__ __device__ __forceinline__ D bucket_start(D key, D delta) {
  if constexpr (std::is_floating_point_v<D>) return floor(key / delta) * delta;
  else return key / delta * delta;
}

/// Relaxes the near improvements the block has queued in local[0] (and the ones that yields) for up
/// to local_steps steps, then moves what is left to the global near queue (at once, when it holds
/// more than spill_above). Every thread of the block calls it; on return the block's queues are free.
template <class Weight>
__device__ void relax_block_local(relax_args<Weight> r, vertex (*local)[local_queue_capacity], unsigned* local_count,
                                  unsigned spill_above) {
  constexpr int warps = relax_block_warps;
  const int warp = static_cast<int>(threadIdx.x / warp_threads);
  relax_tally tally;
  int in = 0;
  for (int step = 0;; ++step) {
    __syncthreads();  // the appends to local[in] are done, and the reads of local[1 - in]
    const unsigned size = min(local_count[in], local_queue_capacity);
    if (size == 0) break;
    if (step == local_steps || size > spill_above) {
      for (unsigned i = warp * warp_threads; i < size; i += warps * warp_threads) {
        const unsigned entry = i + lane_id();
        warp_append(r.near, entry < size, entry < size ? local[in][entry] : 0);
      }
      break;
    }
    if (threadIdx.x == 0) local_count[1 - in] = 0;
    __syncthreads();
    r.local = {local[1 - in], &local_count[1 - in], local_queue_capacity};
    relax_share(r, local[in], size, warp, warps, tally);
    in = 1 - in;
  }
  tally.flush(r.stats);
}

/// Runs until the work is done or must go back to the host. The near queue of round r is in
/// buffer r % 2 with count near_count[r % 3]; the first round starts with an empty near queue,
/// so it moves the threshold and splits the far pile.
template <class Weight>
__global__ void __launch_bounds__(relax_block_threads) persistent_rounds_kernel(persistent_args<Weight> a) {
  using D = distance_t<Weight>;
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ vertex local[2][local_queue_capacity];
  __shared__ unsigned local_count[2];
  persistent_state& s = *a.state;
  const bool leader = grid.thread_rank() == 0;
  D threshold = distance_from_bits<D>(volatile_load(s.threshold_bits));
  long long round = 0;
  int stop = 0;
  for (;; ++round) {
    const int slot = static_cast<int>(round % 3);
    const int out_slot = (slot + 1) % 3;
    const int side = static_cast<int>(round & 1);
    const int far_side = volatile_load(s.far_side);
    const unsigned long long near_size = volatile_load(s.near_count[slot]);
    const unsigned long long far_size = volatile_load(s.far_count[far_side]);
    if (near_size > a.hand_back_above) {
      stop = 1;
      break;
    }
    if (leader) {  // slot + 2 was last read in the previous round, which the barrier closed
      s.near_count[(slot + 2) % 3] = 0;
      s.hub_count[(slot + 2) % 3] = 0;
    }
    if (near_size == 0) {
      if (far_size == 0) break;
      // Move the threshold past the smallest live far key's bucket, then split the pile.
      if (leader) {
        s.min_key_bits = ~0ull;
        s.far_count[1 - far_side] = 0;
      }
      grid.sync();
      unsigned long long smallest = ~0ull;
      for (std::int64_t i = grid.thread_rank(); i < static_cast<std::int64_t>(far_size); i += grid.size())
        smallest = min(smallest, distance_bits(a.graph.distances[a.far[far_side][i]]));
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) smallest = min(smallest, __shfl_xor_sync(full_warp_mask, smallest, offset));
      if (lane_id() == 0 && smallest != ~0ull) atomicMin(&s.min_key_bits, smallest);
      grid.sync();
      threshold = bucket_start(distance_from_bits<D>(volatile_load(s.min_key_bits)), a.delta) + a.delta;
      split_far_pile(a.far[far_side], static_cast<std::int64_t>(far_size), a.graph.distances, a.graph.pending,
                     a.graph.piled, threshold,
                     queue_view{a.near[1 - side], &s.near_count[out_slot]},
                     queue_view{a.far[1 - far_side], &s.far_count[1 - far_side]},
                     static_cast<std::int64_t>(grid.thread_rank() / warp_threads),
                     static_cast<std::int64_t>(grid.size() / warp_threads));
      if (leader) s.far_side = 1 - far_side;
      grid.sync();
      continue;
    }
    relax_args<Weight> r = a.graph;
    r.frontier = a.near[side];
    r.near = {a.near[1 - side], &s.near_count[out_slot]};
    r.far = {a.far[far_side], &s.far_count[far_side]};
    r.threshold = threshold;
    r.hubs.count = &s.hub_count[slot];
    if (threadIdx.x == 0) local_count[0] = 0;
    __syncthreads();
    r.local = {local[0], &local_count[0], local_queue_capacity};
    relax_entries(r, static_cast<std::int64_t>(near_size));
    relax_block_local(r, local, local_count, a.local_spill_above);
    grid.sync();
    if (const unsigned long long hubs = volatile_load(s.hub_count[slot]); hubs != 0) {
      r.local = {};
      relax_hubs(r, static_cast<std::int64_t>(hubs));
      grid.sync();
    }
  }
  if (leader) {
    s.rounds = round;
    s.stop = stop;
    s.threshold_bits = distance_bits(threshold);
  }
}

}  // namespace bkt::sssp::gpu
