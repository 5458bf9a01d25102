// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016): each tile publishes its count as soon as it knows it, then sums its
// predecessors' published counts, stopping at the first tile that has published an inclusive sum.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "bkt/detail/warp/warp_scan.cuh"

namespace bkt::detail {

/// One 64-bit word per tile: the top two bits say what the low 62 bits hold. Value and state live
/// in one word so that a relaxed load sees both or neither, with no fence between them.
struct tile_status {
  static constexpr std::uint64_t invalid = 0;
  static constexpr std::uint64_t aggregate = 1ull << 62;   // this tile's own count
  static constexpr std::uint64_t inclusive = 2ull << 62;   // count of this tile and all before it
  static constexpr std::uint64_t state_mask = 3ull << 62;
  static constexpr std::uint64_t value_mask = ~state_mask;
};

__device__ __forceinline__ void publish_tile_status(std::uint64_t* status, std::int64_t tile,
                                                    std::uint64_t state, std::uint64_t value) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> word(status[tile]);
  word.store(state | value, cuda::memory_order_relaxed);
}

__device__ __forceinline__ std::uint64_t load_tile_status(std::uint64_t* status, std::int64_t tile) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> word(status[tile]);
  return word.load(cuda::memory_order_relaxed);
}

/// Tiles each lane inspects per round. Four per lane (128 tiles a round) measured slower on H100
/// than one: the nearest inclusive tile is usually close, and wider rounds poll more words.
inline constexpr int lookback_tiles_per_lane = 1;

/// Called by one whole warp of tile `tile` (> 0) after it published its aggregate. Returns, in
/// every lane, the sum of the counts of all earlier tiles; lane 0 then publishes the inclusive sum.
__device__ inline std::uint64_t lookback_exclusive_prefix(std::uint64_t* status, std::int64_t tile,
                                                          std::uint64_t aggregate) {
  constexpr int per_lane = lookback_tiles_per_lane;
  constexpr std::uint64_t state_mask = tile_status::state_mask;
  const int lane = lane_id();
  std::uint64_t exclusive = 0;
  std::int64_t window_end = tile;  // a round looks at tiles [window_end - 32 * per_lane, window_end)
  for (;;) {
    // Lane l holds tiles window_end - 1 - per_lane * l - j, nearest first; tiles before 0 count as
    // an inclusive zero.
    std::uint64_t word[per_lane];
    auto predecessor = [&](int j) { return window_end - 1 - per_lane * lane - j; };
#pragma unroll
    for (int j = 0; j < per_lane; ++j)
      word[j] = predecessor(j) >= 0 ? load_tile_status(status, predecessor(j)) : tile_status::inclusive;
    int nearest_inclusive;  // in this lane, per_lane when none
    int stop_lane;          // the nearest lane holding an inclusive tile, 31 when none does
    for (unsigned backoff = 8;; backoff = backoff < 256 ? 2 * backoff : backoff) {
      nearest_inclusive = per_lane;
#pragma unroll
      for (int j = per_lane - 1; j >= 0; --j)
        if ((word[j] & state_mask) == tile_status::inclusive) nearest_inclusive = j;
      const unsigned inclusive_lanes = __ballot_sync(full_warp_mask, nearest_inclusive < per_lane);
      stop_lane = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : warp_threads - 1;
      // Only tiles up to the nearest inclusive one are needed; wait for those to be published.
      bool ready = true;
#pragma unroll
      for (int j = 0; j < per_lane; ++j) {
        const bool needed = lane < stop_lane || (lane == stop_lane && j <= nearest_inclusive);
        if (needed && (word[j] & state_mask) == tile_status::invalid) ready = false;
      }
      if (__all_sync(full_warp_mask, ready)) break;
      __nanosleep(backoff);
#pragma unroll
      for (int j = 0; j < per_lane; ++j)
        if (predecessor(j) >= 0 && (word[j] & state_mask) == tile_status::invalid)
          word[j] = load_tile_status(status, predecessor(j));
    }
    std::uint64_t contribution = 0;
#pragma unroll
    for (int j = 0; j < per_lane; ++j)
      if (lane < stop_lane || (lane == stop_lane && j <= nearest_inclusive))
        contribution += word[j] & tile_status::value_mask;
    exclusive += warp_sum(contribution);
    if (__any_sync(full_warp_mask, nearest_inclusive < per_lane)) break;
    window_end -= warp_threads * per_lane;
  }
  if (lane == 0) publish_tile_status(status, tile, tile_status::inclusive, exclusive + aggregate);
  return exclusive;
}

}  // namespace bkt::detail
