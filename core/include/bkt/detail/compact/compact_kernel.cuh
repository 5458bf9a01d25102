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

#include "bkt/detail/block/bulk_copy.cuh"
#include "bkt/detail/block/named_barrier.cuh"
#include "bkt/detail/compact/tile_shape.hpp"
#include "bkt/detail/device/tile_lookback.cuh"
#include "bkt/detail/thread/packed_run.cuh"
#include "bkt/detail/warp/warp_scan.cuh"

namespace bkt::detail::compact {

enum class output_mode {
  select,              // chosen elements to `out`; the rest dropped
  partition_split,     // chosen to `out`, the rest to `rejected`, both in input order
  partition_reversed,  // chosen to the front of `out`, the rest to its back in reverse order
};

template <class Key, class Value>
struct compact_args {
  const Key* keys_in;
  const Value* values_in;  // unused for no_value
  Key* keys_out;
  Value* values_out;
  Key* keys_rejected;      // partition_split only
  Value* values_rejected;
  std::int64_t num_items;
  std::int64_t num_tiles;
  std::int64_t* num_selected;
  std::uint64_t* tile_status;  // zeroed before the launch, one word per tile
  bool vector_keys;            // keys_in is aligned for the tile's vector loads
  bool vector_flags;           // likewise the flag array, when the pick reads one
  bool bulk_loads;             // both are 16-byte aligned: full tiles may come through the ring
};

/// Chooses by a predicate on the key.
template <class Pred>
struct pick_by_predicate {
  static constexpr bool reads_flags = false;
  using flag_type = unsigned char;  // unused
  Pred pred;
  __host__ __device__ const flag_type* flags() const { return nullptr; }
  template <class Key>
  __device__ __forceinline__ bool operator()(const Key& key, flag_type) const {
    return static_cast<bool>(pred(key));
  }
};

/// Chooses by a flag array beside the keys; the flags are loaded with the keys, as vectors.
template <class Flag>
struct pick_by_flag {
  static constexpr bool reads_flags = true;
  using flag_type = Flag;
  const Flag* flag_array;
  __host__ __device__ const Flag* flags() const { return flag_array; }
  template <class Key>
  __device__ __forceinline__ bool operator()(const Key&, const Flag& flag) const {
    return static_cast<bool>(flag);
  }
};

/// Shared memory of one block: the staged output (keys, then values) of `Shape::lag` + 1 tiles,
/// since tile j is staged while tiles j - lag .. j - 1 wait for their prefixes or are written out;
/// then the ring's stages, each a tile's keys and flags.
template <class Shape, class Key, class Value>
__host__ __device__ constexpr std::size_t output_staging_bytes() {
  return Shape::out_buffers * Shape::tile_items * (sizeof(Key) + value_bytes<Value>);
}
template <class Shape, class Key, class Pick>
__host__ __device__ constexpr std::size_t ring_stage_bytes() {
  return Shape::tile_items * (sizeof(Key) + (Pick::reads_flags ? sizeof(typename Pick::flag_type) : 0));
}
template <class Shape, class Key, class Value, class Pick>
__host__ __device__ constexpr std::size_t shared_bytes() {
  return output_staging_bytes<Shape, Key, Value>() + Shape::stages * ring_stage_bytes<Shape, Key, Pick>();
}

/// What one thread holds of a tile before it is ranked: C runs of V consecutive elements.
template <class Key, class Flag, int C, int V, bool ReadsFlags>
struct thread_elements {
  packed_run<Key, V> keys[C];
  packed_run<Flag, V> flags[ReadsFlags ? C : 1];
};

/// Numbered barriers of the tile kernel (0 is __syncthreads'). `counted` and `resolved` come one
/// per staging buffer: a barrier is reused only a full cycle of buffers later, after every thread
/// has passed its previous round, so an early arrival can never complete the wrong round.
template <int Buffers>
struct compact_barriers {
  static constexpr int ranked = 1;                   // ranking warps only: every warp's count is in
  static constexpr int counted = 2;                  // + buffer: the tile is staged, its count published
  static constexpr int resolved = counted + Buffers; // + buffer: the tile's output position is known
  static_assert(resolved + Buffers <= 16, "the hardware has 16 numbered barriers");
};

/// A persistent grid: block b handles tiles b, b + grid, b + 2 grid, ... One of its threads keeps
/// the ring's stages filled with the block's next tiles while the ranking warps rank and stage the
/// current one; meanwhile its last warp looks back for the positions of the tiles staged before,
/// which the ranking warps write out `lag` steps after staging them. The look-back (a few L2 round
/// trips) is thus off the path of the loads, which is what bounds this kernel. Every block of the
/// grid is resident at once (the grid is sized by occupancy), so a tile's predecessors always make
/// progress. Without the copy engine (before sm_90), or for inputs it cannot copy (unaligned, or
/// the last partial tile), a step loads its tile from global memory itself.
template <class Shape, output_mode Mode, class Key, class Value, class Pick>
__global__ void __launch_bounds__(Shape::block_threads, Shape::min_blocks)
    compact_tile_kernel(compact_args<Key, Value> args, Pick pick) {
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  constexpr bool keeps_rejected = Mode != output_mode::select;
  constexpr int V = Shape::chunk_items;
  constexpr int C = Shape::chunks;
  using value_slot = std::conditional_t<has_values, Value, char>;
  using flag_type = typename Pick::flag_type;
  using elements = thread_elements<Key, flag_type, C, V, Pick::reads_flags>;
  constexpr int K = Shape::out_buffers;
  using barriers = compact_barriers<K>;
  auto next_buffer = [](int b) { return b + 1 == K ? 0 : b + 1; };

  // Dynamic, as raw bytes: large tiles pass the 48 KB static limit, and shared arrays of a type
  // with a constructor would not compile.
  extern __shared__ __align__(16) unsigned char staging[];
  constexpr std::size_t buffer_bytes = Shape::tile_items * (sizeof(Key) + value_bytes<Value>);
  auto staged_keys = [&](int buffer) { return reinterpret_cast<Key*>(staging + buffer * buffer_bytes); };
  auto staged_values = [&](int buffer) {
    return reinterpret_cast<value_slot*>(staging + buffer * buffer_bytes + Shape::tile_items * sizeof(Key));
  };
  __shared__ std::uint32_t warp_counts[K][Shape::warps];
  __shared__ std::uint32_t tile_counts[K];
  __shared__ std::uint64_t tile_prefixes[K];

  const int warp = static_cast<int>(threadIdx.x) / warp_threads;
  const int lane = lane_id();
  const std::int64_t grid = gridDim.x;
  auto valid_in = [&](std::int64_t tile) {
    const std::int64_t remaining = args.num_items - tile * Shape::tile_items;
    return remaining < Shape::tile_items ? static_cast<int>(remaining) : Shape::tile_items;
  };
  const flag_type* flags_in = pick.flags();

  // The ring: the block's k-th tile goes to stage k mod S. Only full tiles of aligned inputs come
  // through it; the input's last tile, when partial, and unaligned inputs are loaded directly.
  constexpr int S = Shape::stages;
  static_assert(S >= 1, "a shape has at least one ring stage");
  constexpr bool ring = bulk_copy_available();
  __shared__ std::uint64_t stage_filled[S];
  constexpr std::uint32_t stage_key_bytes = Shape::tile_items * sizeof(Key);
  constexpr std::uint32_t stage_bytes = ring_stage_bytes<Shape, Key, Pick>();
  static_assert(stage_key_bytes % 16 == 0 && stage_bytes % 16 == 0, "the copy engine moves multiples of 16 bytes");
  unsigned char* const ring_memory = staging + output_staging_bytes<Shape, Key, Value>();
  auto stage_keys = [&](int s) { return reinterpret_cast<const Key*>(ring_memory + s * stage_bytes); };
  auto stage_flags = [&](int s) {
    return reinterpret_cast<const flag_type*>(ring_memory + s * stage_bytes + stage_key_bytes);
  };
  auto through_ring = [&](std::int64_t tile) {
    return ring && args.bulk_loads && tile < args.num_tiles && valid_in(tile) == Shape::tile_items;
  };
  // One thread starts the copies of a tile into a stage.
  auto fill_stage = [&](std::int64_t tile, int s) {
    if (!through_ring(tile)) return;
    const std::int64_t base = tile * Shape::tile_items;
    unsigned char* destination = ring_memory + s * stage_bytes;
    stage_expect_bytes(&stage_filled[s], stage_bytes);
    bulk_copy_to_shared(destination, args.keys_in + base, stage_key_bytes, &stage_filled[s]);
    if constexpr (Pick::reads_flags)
      bulk_copy_to_shared(destination + stage_key_bytes, flags_in + base, stage_bytes - stage_key_bytes,
                          &stage_filled[s]);
  };
  if constexpr (ring) {
    if (threadIdx.x == 0 && args.bulk_loads) {
      for (int s = 0; s < S; ++s) stage_barrier_init(&stage_filled[s]);
      for (int s = 0; s < S; ++s) fill_stage(blockIdx.x + s * grid, s);
    }
    __syncthreads();
  }

  if (warp == Shape::warps) {
    // The look-back warp: for each of the block's tiles, once it is counted, find how many chosen
    // elements precede it. The count is read back from the tile's status word (the ranking warps
    // published it before they arrived) rather than from shared memory: compute-sanitizer's
    // racecheck does not follow an arrive-then-sync hand-over of shared data.
    int buffer = 0;
    for (std::int64_t tile = blockIdx.x; tile < args.num_tiles; tile += gridDim.x, buffer = next_buffer(buffer)) {
      barrier_sync(barriers::counted + buffer, Shape::block_threads);
      const std::uint64_t count = load_tile_status(args.tile_status, tile) & tile_status::value_mask;
      const std::uint64_t prefix = tile == 0 ? 0 : lookback_exclusive_prefix(args.tile_status, tile, count);
      if (lane == 0) {
        tile_prefixes[buffer] = prefix;
        if (tile == args.num_tiles - 1) *args.num_selected = static_cast<std::int64_t>(prefix + count);
      }
      __syncwarp();
      barrier_arrive(barriers::resolved + buffer, Shape::block_threads);
    }
    return;
  }

  // Position in the tile of element v of run c of this thread.
  auto position = [&](int c, int v) { return warp * Shape::warp_items + c * warp_threads * V + lane * V + v; };
  // One run of keys or flags: a vector load when the tile is full and the array aligned, else
  // element by element up to the tile's end.
  auto load_run = [&](auto& run, const auto* array, std::int64_t base, int c, int valid, bool vector) {
    if constexpr (std::remove_reference_t<decltype(run)>::vector_loadable) {
      if (vector && valid == Shape::tile_items) {
        run.load_vector(array + base + position(c, 0));
        return;
      }
    }
#pragma unroll
    for (int v = 0; v < V; ++v)
      if (position(c, v) < valid) run.set(v, array[base + position(c, v)]);
  };
  int stage = 0;              // of the tile being ranked
  std::uint32_t parity = 0;   // of the stage's fill that holds it
  auto load = [&](std::int64_t tile, elements& e) {
    if constexpr (ring) {
      if (through_ring(tile)) {
        stage_wait(&stage_filled[stage], parity);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          load_run(e.keys[c], stage_keys(stage), 0, c, Shape::tile_items, true);
          if constexpr (Pick::reads_flags) load_run(e.flags[c], stage_flags(stage), 0, c, Shape::tile_items, true);
        }
        return;
      }
    }
    const std::int64_t base = tile * Shape::tile_items;
    const int valid = valid_in(tile);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      load_run(e.keys[c], args.keys_in, base, c, valid, args.vector_keys);
      if constexpr (Pick::reads_flags) load_run(e.flags[c], flags_in, base, c, valid, args.vector_flags);
    }
  };
  // Writes a staged tile out once the look-back warp has found its position. The buffer is next
  // staged into at the following step, after the `ranked` barrier that every ranking thread reaches
  // only once done here.
  auto write_out = [&](std::int64_t tile, int buffer) {
    barrier_sync(barriers::resolved + buffer, Shape::block_threads);
    const std::int64_t prefix = static_cast<std::int64_t>(tile_prefixes[buffer]);
    const int count = static_cast<int>(tile_counts[buffer]);
    const Key* keys = staged_keys(buffer);
    const value_slot* values = staged_values(buffer);
    for (int k = static_cast<int>(threadIdx.x); k < count; k += Shape::ranking_threads) {
      args.keys_out[prefix + k] = keys[k];
      if constexpr (has_values) args.values_out[prefix + k] = values[k];
    }
    if constexpr (keeps_rejected) {
      const std::int64_t rejected_prefix = tile * Shape::tile_items - prefix;
      const int rejected_count = valid_in(tile) - count;
      for (int k = static_cast<int>(threadIdx.x); k < rejected_count; k += Shape::ranking_threads) {
        const std::int64_t destination = Mode == output_mode::partition_split
                                             ? rejected_prefix + k
                                             : args.num_items - 1 - (rejected_prefix + k);
        Key* keys_destination = Mode == output_mode::partition_split ? args.keys_rejected : args.keys_out;
        keys_destination[destination] = keys[count + k];
        if constexpr (has_values) {
          Value* values_destination = Mode == output_mode::partition_split ? args.values_rejected : args.values_out;
          values_destination[destination] = values[count + k];
        }
      }
    }
  };

  // A step takes the block's next tile from the ring (or from global memory), ranks and stages it,
  // and writes out the tile `lag` steps back.
  std::int64_t tile = blockIdx.x;
  int buffer = 0;
  for (;;) {
    elements current;
    load(tile, current);
    const std::int64_t tile_base = tile * Shape::tile_items;
    const int valid = valid_in(tile);

    std::uint32_t chosen[C];  // bit v: element v of run c is chosen
#pragma unroll
    for (int c = 0; c < C; ++c) {
      chosen[c] = 0;
#pragma unroll
      for (int v = 0; v < V; ++v) {
        flag_type flag{};
        if constexpr (Pick::reads_flags) flag = current.flags[c].get(v);
        if (position(c, v) < valid)
          chosen[c] |= static_cast<std::uint32_t>(pick(current.keys[c].get(v), flag)) << v;
      }
    }

    // Values: when only chosen elements are kept, read only their values (at 1% kept this skips
    // most of the value array); a partition needs all of them.
    value_slot values[C][V];
    if constexpr (has_values) {
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int v = 0; v < V; ++v)
          if (keeps_rejected ? position(c, v) < valid : ((chosen[c] >> v) & 1u))
            values[c][v] = args.values_in[tile_base + position(c, v)];
    }

    // Rank within the warp: runs are ordered run-major (run c of all lanes, then run c + 1), so
    // each run needs a scan over lanes. Two runs share one scan in 16-bit fields (a run's warp
    // total is at most 32 * 16).
    std::uint32_t run_rank[C];  // chosen elements of this warp before run c of this lane
    std::uint32_t warp_total = 0;
#pragma unroll
    for (int c = 0; c < C; c += 2) {
      const std::uint32_t low = __popc(chosen[c]);
      const std::uint32_t high = c + 1 < C ? __popc(chosen[c + 1]) : 0u;
      const std::uint32_t packed = low | (high << 16);
      const std::uint32_t inclusive = warp_inclusive_sum(packed);
      const std::uint32_t exclusive = inclusive - packed;
      const std::uint32_t totals = __shfl_sync(full_warp_mask, inclusive, warp_threads - 1);
      run_rank[c] = warp_total + (exclusive & 0xffffu);
      warp_total += totals & 0xffffu;
      if (c + 1 < C) {
        run_rank[c + 1] = warp_total + (exclusive >> 16);
        warp_total += totals >> 16;
      }
    }
    if (lane == 0) warp_counts[buffer][warp] = warp_total;
    barrier_sync(barriers::ranked, Shape::ranking_threads);
    // Every ranking thread has its elements of the stage in registers: refill it.
    if constexpr (ring)
      if (threadIdx.x == 0) fill_stage(tile + S * grid, stage);

    std::uint32_t warp_offset = 0;
    std::uint32_t tile_count = 0;
#pragma unroll
    for (int w = 0; w < Shape::warps; ++w) {
      warp_offset += w < warp ? warp_counts[buffer][w] : 0u;
      tile_count += warp_counts[buffer][w];
    }
    // Publish this tile's count first: successors look back at it while this tile stages.
    if (threadIdx.x == 0) {
      publish_tile_status(args.tile_status, tile, tile == 0 ? tile_status::inclusive : tile_status::aggregate,
                          tile_count);
      tile_counts[buffer] = tile_count;
    }

    // Stage: chosen elements at their rank, rejected ones after all chosen ones, in input order.
    Key* keys = staged_keys(buffer);
    value_slot* staged = staged_values(buffer);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      std::uint32_t rank = warp_offset + run_rank[c];
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const bool is_chosen = (chosen[c] >> v) & 1u;
        if (is_chosen) {
          keys[rank] = current.keys[c].get(v);
          if constexpr (has_values) staged[rank] = values[c][v];
        } else if (keeps_rejected && position(c, v) < valid) {
          const std::uint32_t slot = tile_count + (position(c, v) - rank);
          keys[slot] = current.keys[c].get(v);
          if constexpr (has_values) staged[slot] = values[c][v];
        }
        rank += is_chosen;
      }
    }
    barrier_arrive(barriers::counted + buffer, Shape::block_threads);

    // The look-back of the tile `lag` steps back ran while the tiles since loaded, ranked and
    // staged; its buffer is the next one in the cycle.
    if (tile - Shape::lag * grid >= blockIdx.x) write_out(tile - Shape::lag * grid, next_buffer(buffer));
    if (tile + grid >= args.num_tiles) break;
    tile += grid;
    buffer = next_buffer(buffer);
    if (++stage == S) stage = 0, parity ^= 1u;
  }
  // The last `lag` tiles are staged and not yet written, oldest first.
  for (int back = Shape::lag - 1; back >= 0; --back)
    if (tile - back * grid >= blockIdx.x) write_out(tile - back * grid, (buffer + K - back) % K);
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
