// One-pass, order-preserving compaction: each tile loads its elements once, ranks the chosen ones
// with warp scans, publishes its count for decoupled look-back, stages the chosen elements in
// shared memory and writes them out contiguously. Tiles arrive through a ring of shared-memory
// stages that the bulk copy engine fills ahead of the ranking warps, so the bytes in flight are not
// bounded by registers.
//
// The ballot/popc compaction paper (three phases: count, scan, scatter) reads the input twice and
// launches three kernels; here the scan of tile counts happens inside the same pass, so each key is
// read once and each kept key written once.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bkt/detail/compact/kernel_args.cuh"
#include "bkt/detail/compact/tile_agent.cuh"
#include "bkt/detail/compact/tile_shape.hpp"

namespace bkt::detail::compact {

/// A persistent grid: block b handles tiles b, b + grid, b + 2 grid, ... One of its threads keeps
/// the ring's stages filled with the block's next tiles while the ranking warps rank and stage the
/// current one; meanwhile its last warp looks back for the positions of the tiles staged before,
/// which the ranking warps write out `lookback_lag` steps after staging them. The look-back (a few
/// L2 round trips) is thus off the path of the loads, which is what bounds this kernel. Every block
/// of the grid is resident at once (the grid is sized by occupancy), so a tile's predecessors always
/// make progress. Without the copy engine (before sm_90), or for inputs it cannot copy (unaligned,
/// or the last partial tile), a step loads its tile from global memory itself. The phases are the
/// functions of compact_tile_agent (tile_agent.cuh).
template <class Shape, output_mode Mode, class Key, class Value, class Pick>
__global__ void __launch_bounds__(Shape::block_threads, Shape::min_blocks_per_sm)
    compact_tile_kernel(compact_args<Key, Value> args, Pick pick) {
  using agent_type = compact_tile_agent<Shape, Mode, Key, Value, Pick>;
  __shared__ std::uint32_t warp_counts[Shape::output_buffers][Shape::ranking_warps];
  __shared__ std::uint32_t tile_counts[Shape::output_buffers];
  __shared__ std::uint64_t tile_prefixes[Shape::output_buffers];
  __shared__ std::uint64_t stage_filled[Shape::ring_stages];
  const agent_type agent(args, pick, warp_counts, tile_counts, tile_prefixes, stage_filled);

  // The ring (aligned inputs only): one thread sets it up and starts the block's first tiles.
  if constexpr (agent_type::ring) {
    if (threadIdx.x == 0 && args.bulk_loads) agent.start_ring();
    __syncthreads();
  }
  // The last warp looks back; the others rank, stage and write tiles.
  if (agent.warp == Shape::ranking_warps) {
    agent.resolve_prefixes();
    return;
  }
  agent.rank_and_write_tiles();
}

/// Reverses out[num_selected, num_items): partition_reversed leaves the rejected elements there
/// back to front, and this restores input order (stability) in place.
template <class Key, class Value>
__global__ void reverse_rejected_kernel(Key* keys, Value* values, std::int64_t num_items,
                                        const std::int64_t* num_selected) {
  const std::int64_t first = *num_selected;
  const std::int64_t half = (num_items - first) / 2;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < half; i += stride) {
    const std::int64_t a = first + i;
    const std::int64_t b = num_items - 1 - i;
    const Key key = keys[a];
    keys[a] = keys[b];
    keys[b] = key;
    if constexpr (!std::is_same_v<Value, no_value>) {
      const Value value = values[a];
      values[a] = values[b];
      values[b] = value;
    }
  }
}

}  // namespace bkt::detail::compact
