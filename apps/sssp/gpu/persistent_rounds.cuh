// Delta-stepping rounds without the host: one cooperative kernel relaxes round after round, with
// a grid-wide barrier between rounds, while the frontier is small.
//
// High-diameter graphs (roads, grids) need thousands of rounds whose frontiers hold a few thousand
// vertices; there the host's per-round copy and wait, not the work, would set the time. Inside this
// kernel the current bucket is the near queue and everything at or beyond the threshold is a far
// pile: when the near queue runs dry, the threshold moves to the bucket of the smallest far key and
// the pile is split (the same buckets of width delta, formed in place). Once the frontier grows past
// hand_back_above, the kernel stops and the host's multisplit rounds go on.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "queue_kernels.cuh"
#include "relax.cuh"

namespace bkt::sssp::gpu {

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

/// Runs until the work is done or must go back to the host. The near queue of round r is in
/// buffer r % 2 with count near_count[r % 3]; the first round starts with an empty near queue,
/// so it moves the threshold and splits the far pile.
template <class Weight>
__global__ void __launch_bounds__(relax_block_threads) persistent_rounds_kernel(persistent_args<Weight> a) {
  using D = distance_t<Weight>;
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
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
                     static_cast<std::int64_t>(grid.thread_rank() / 32), static_cast<std::int64_t>(grid.size() / 32));
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
    relax_entries(r, static_cast<std::int64_t>(near_size));
    grid.sync();
    if (const unsigned long long hubs = volatile_load(s.hub_count[slot]); hubs != 0) {
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
