// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016): each tile publishes its count as soon as it knows it, then sums its
// predecessors' published counts, stopping at the first tile that has published an inclusive sum.
// A single-pass scan over tiles uses it so: tile 0 publishes its count as inclusive at once; any
// other tile publishes it as an aggregate, then one warp of the tile calls
// lookback_exclusive_prefix. The status words (one a tile) must be zero (invalid) before the pass.
// Device code only (nvcc).
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "bkt/device/warp_scan.cuh"

namespace bkt {

/// One 64-bit word per tile: the top two bits say what the low 62 bits hold. Value and state live
/// in one word so that a relaxed load sees both or neither, with no fence between them.
struct tile_status {
  static constexpr std::uint64_t invalid = 0;
  static constexpr std::uint64_t aggregate = 1ull << 62;   // this tile's own count
  static constexpr std::uint64_t inclusive = 2ull << 62;   // count of this tile and all before it
  static constexpr std::uint64_t state_mask = 3ull << 62;
  static constexpr std::uint64_t value_mask = ~state_mask;
};

/// Publishes tile `tile`'s word: `state` (tile_status::aggregate or inclusive) with `value`.
__device__ __forceinline__ void publish_tile_status(std::uint64_t* status, std::int64_t tile,
                                                    std::uint64_t state, std::uint64_t value) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> word(status[tile]);
  word.store(state | value, cuda::memory_order_relaxed);
}

/// Reads tile `tile`'s word (state and value together).
__device__ __forceinline__ std::uint64_t load_tile_status(std::uint64_t* status, std::int64_t tile) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> word(status[tile]);
  return word.load(cuda::memory_order_relaxed);
}

/// Called by one whole warp of tile `tile` (> 0) after it published its aggregate. Returns, in
/// every lane, the sum of the counts of all earlier tiles; lane 0 then publishes the inclusive sum.
/// Each round reads 32 predecessors, one per lane (128 a round measured slower on H100: the nearest
/// inclusive tile is usually close, and wider rounds poll more words).
__device__ inline std::uint64_t lookback_exclusive_prefix(std::uint64_t* status, std::int64_t tile,
                                                          std::uint64_t aggregate) {
  constexpr std::uint64_t state_mask = tile_status::state_mask;
  const int lane = lane_id();
  std::uint64_t exclusive = 0;
  std::int64_t window_end = tile;  // a round looks at tiles [window_end - 32, window_end)
  for (;;) {
    const std::int64_t predecessor = window_end - 1 - lane;  // lane 0 is the nearest tile
    // Tiles before 0 count as an inclusive zero.
    std::uint64_t word = predecessor >= 0 ? load_tile_status(status, predecessor) : tile_status::inclusive;
    unsigned inclusive_lanes;
    // Wait only for the lanes up to the nearest inclusive one: tiles beyond it are not needed.
    for (unsigned backoff = 8;; backoff = backoff < 256 ? 2 * backoff : backoff) {
      inclusive_lanes = __ballot_sync(full_warp_mask, (word & state_mask) == tile_status::inclusive);
      const unsigned needed =
          inclusive_lanes ? ((inclusive_lanes & (0u - inclusive_lanes)) << 1) - 1 : full_warp_mask;
      const unsigned invalid_lanes = __ballot_sync(full_warp_mask, (word & state_mask) == tile_status::invalid);
      if ((invalid_lanes & needed) == 0) break;
      __nanosleep(backoff);
      if (predecessor >= 0 && (word & state_mask) == tile_status::invalid) word = load_tile_status(status, predecessor);
    }
    const int stop_lane = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : warp_threads - 1;
    exclusive += warp_sum(lane <= stop_lane ? (word & tile_status::value_mask) : 0);
    if (inclusive_lanes) break;
    window_end -= warp_threads;
  }
  if (lane == 0) publish_tile_status(status, tile, tile_status::inclusive, exclusive + aggregate);
  return exclusive;
}

}  // namespace bkt
