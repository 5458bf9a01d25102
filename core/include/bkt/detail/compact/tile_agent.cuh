// The phases of one block of the compaction tile kernel, one function each: the ring's loads, the
// look-back warp, and for the ranking warps load, choose, rank, stage and write out. The kernel
// (compact_kernel.cuh) declares the shared memory and calls these in order. Every function is
// forced inline: the phases share registers (a thread's elements, its choices and ranks) that must
// never go through memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bkt/detail/block/bulk_copy.cuh"
#include "bkt/detail/block/named_barrier.cuh"
#include "bkt/detail/compact/kernel_args.cuh"
#include "bkt/detail/compact/tile_shape.hpp"
#include "bkt/detail/thread/packed_run.cuh"
#include "bkt/device/tile_lookback.cuh"
#include "bkt/device/warp_scan.cuh"

namespace bkt::detail::compact {

/// The block's dynamic shared memory: output buffers, then ring stages (shared_bytes). Raw bytes:
/// large tiles pass the 48 KB static limit, and shared arrays of a type with a constructor would
/// not compile.
extern __shared__ __align__(16) unsigned char staging[];

/// What one thread holds of a tile before it is ranked: `Runs` runs of `RunItems` consecutive
/// elements.
template <class Key, class Flag, int Runs, int RunItems, bool ReadsFlags>
struct thread_elements {
  packed_run<Key, RunItems> keys[Runs];
  packed_run<Flag, RunItems> flags[ReadsFlags ? Runs : 1];
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

/// One block's view of the tile kernel: the kernel's arguments and the block's shared memory, by
/// reference, and the functions of each phase. Tile t of the block uses output buffer
/// (t's step) mod output_buffers and, when it comes through the ring, stage (t's step) mod
/// ring_stages.
template <class Shape, output_mode Mode, class Key, class Value, class Pick>
struct compact_tile_agent {
  static constexpr bool has_values = !std::is_same_v<Value, no_value>;
  static constexpr bool keeps_rejected = Mode != output_mode::select;
  static constexpr int run_items = Shape::run_items;
  static constexpr int runs_per_thread = Shape::runs_per_thread;
  static constexpr int tile_items = Shape::tile_items;
  static constexpr int ranking_warps = Shape::ranking_warps;
  static constexpr int output_buffers = Shape::output_buffers;
  static constexpr int ring_stages = Shape::ring_stages;
  static_assert(ring_stages >= 1, "a shape has at least one ring stage");
  static constexpr bool ring = bulk_copy_available();
  using value_slot = std::conditional_t<has_values, Value, char>;
  using flag_type = typename Pick::flag_type;
  using elements = thread_elements<Key, flag_type, runs_per_thread, run_items, Pick::reads_flags>;
  using barriers = compact_barriers<output_buffers>;
  // One output buffer: a tile's keys, then its values.
  static constexpr std::size_t buffer_bytes = tile_items * (sizeof(Key) + value_bytes<Value>);
  // One ring stage: a tile's keys, then its flags.
  static constexpr std::uint32_t stage_key_bytes = tile_items * sizeof(Key);
  static constexpr std::uint32_t stage_bytes = ring_stage_bytes<Shape, Key, Pick>();
  static_assert(stage_key_bytes % 16 == 0 && stage_bytes % 16 == 0, "the copy engine moves multiples of 16 bytes");

  const compact_args<Key, Value>& args;
  const Pick& pick;
  std::uint32_t (*const warp_counts)[ranking_warps];  // [buffer][warp]: chosen elements of each warp
  std::uint32_t* const tile_counts;                    // [buffer]: chosen elements of the tile
  std::uint64_t* const tile_prefixes;                  // [buffer]: chosen elements before the tile
  std::uint64_t* const stage_filled;                   // [stage]: the copy engine's completion barrier
  const int warp;
  const int lane;
  const std::int64_t grid;
  const flag_type* const flags_in;

  __device__ __forceinline__ compact_tile_agent(const compact_args<Key, Value>& args_, const Pick& pick_,
                                                std::uint32_t (*warp_counts_)[ranking_warps],
                                                std::uint32_t* tile_counts_, std::uint64_t* tile_prefixes_,
                                                std::uint64_t* stage_filled_)
      : args(args_),
        pick(pick_),
        warp_counts(warp_counts_),
        tile_counts(tile_counts_),
        tile_prefixes(tile_prefixes_),
        stage_filled(stage_filled_),
        warp(static_cast<int>(threadIdx.x) / warp_threads),
        lane(lane_id()),
        grid(gridDim.x),
        flags_in(pick_.flags()) {}

  __device__ __forceinline__ static int next_buffer(int buffer) {
    return buffer + 1 == output_buffers ? 0 : buffer + 1;
  }

  /// Elements of the input in `tile`: a whole tile but for the last one.
  __device__ __forceinline__ int valid_items(std::int64_t tile) const {
    const std::int64_t remaining = args.num_items - tile * tile_items;
    return remaining < tile_items ? static_cast<int>(remaining) : tile_items;
  }

  __device__ __forceinline__ Key* staged_keys(int buffer) const {
    return reinterpret_cast<Key*>(staging + buffer * buffer_bytes);
  }
  __device__ __forceinline__ value_slot* staged_values(int buffer) const {
    return reinterpret_cast<value_slot*>(staging + buffer * buffer_bytes + tile_items * sizeof(Key));
  }

  // ---- The ring: the block's k-th tile goes to stage k mod ring_stages. Only full tiles of aligned
  // inputs come through it; the input's last tile, when partial, and unaligned inputs are loaded
  // directly.

  __device__ __forceinline__ unsigned char* ring_memory() const {
    return staging + output_staging_bytes<Shape, Key, Value>();
  }
  __device__ __forceinline__ const Key* stage_keys(int stage) const {
    return reinterpret_cast<const Key*>(ring_memory() + stage * stage_bytes);
  }
  __device__ __forceinline__ const flag_type* stage_flags(int stage) const {
    return reinterpret_cast<const flag_type*>(ring_memory() + stage * stage_bytes + stage_key_bytes);
  }
  __device__ __forceinline__ bool through_ring(std::int64_t tile) const {
    return ring && args.bulk_loads && tile < args.num_tiles && valid_items(tile) == tile_items;
  }

  /// One thread starts the copies of `tile` into `stage`.
  __device__ __forceinline__ void fill_stage(std::int64_t tile, int stage) const {
    if (!through_ring(tile)) return;
    const std::int64_t base = tile * tile_items;
    unsigned char* destination = ring_memory() + stage * stage_bytes;
    stage_expect_bytes(&stage_filled[stage], stage_bytes);
    bulk_copy_to_shared(destination, args.keys_in + base, stage_key_bytes, &stage_filled[stage]);
    if constexpr (Pick::reads_flags)
      bulk_copy_to_shared(destination + stage_key_bytes, flags_in + base, stage_bytes - stage_key_bytes,
                          &stage_filled[stage]);
  }

  /// One thread sets up the stages' barriers and starts the copies of the block's first
  /// `ring_stages` tiles.
  __device__ __forceinline__ void start_ring() const {
    for (int stage = 0; stage < ring_stages; ++stage) stage_barrier_init(&stage_filled[stage]);
    for (int stage = 0; stage < ring_stages; ++stage) fill_stage(blockIdx.x + stage * grid, stage);
  }

  // ---- The look-back warp.

  /// For each of the block's tiles, once it is counted, finds how many chosen elements precede it.
  /// The count is read back from the tile's status word (the ranking warps published it before they
  /// arrived) rather than from shared memory: compute-sanitizer's racecheck does not follow an
  /// arrive-then-sync hand-over of shared data.
  __device__ __forceinline__ void resolve_prefixes() const {
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
  }

  // ---- The ranking warps: load.

  /// Position in the tile of element `item` of run `run` of this thread.
  __device__ __forceinline__ int position(int run, int item) const {
    return warp * Shape::warp_items + run * warp_threads * run_items + lane * run_items + item;
  }

  /// One run of keys or flags: a vector load when the tile is full and the array aligned, else
  /// element by element up to the tile's end.
  template <class Run, class T>
  __device__ __forceinline__ void load_run(Run& packed, const T* array, std::int64_t base, int run, int valid,
                                           bool vector) const {
    if constexpr (Run::vector_loadable) {
      if (vector && valid == tile_items) {
        packed.load_vector(array + base + position(run, 0));
        return;
      }
    }
#pragma unroll
    for (int item = 0; item < run_items; ++item)
      if (position(run, item) < valid) packed.set(item, array[base + position(run, item)]);
  }

  /// This thread's keys (and flags) of `tile`: from `stage` of the ring, once its fill of `parity`
  /// has landed, or else from global memory.
  __device__ __forceinline__ void load_tile(std::int64_t tile, int stage, std::uint32_t parity, elements& e) const {
    if constexpr (ring) {
      if (through_ring(tile)) {
        stage_wait(&stage_filled[stage], parity);
#pragma unroll
        for (int run = 0; run < runs_per_thread; ++run) {
          load_run(e.keys[run], stage_keys(stage), 0, run, tile_items, true);
          if constexpr (Pick::reads_flags) load_run(e.flags[run], stage_flags(stage), 0, run, tile_items, true);
        }
        return;
      }
    }
    const std::int64_t base = tile * tile_items;
    const int valid = valid_items(tile);
#pragma unroll
    for (int run = 0; run < runs_per_thread; ++run) {
      load_run(e.keys[run], args.keys_in, base, run, valid, args.vector_keys);
      if constexpr (Pick::reads_flags) load_run(e.flags[run], flags_in, base, run, valid, args.vector_flags);
    }
  }

  // ---- Choose.

  /// Bit `item` of chosen[run]: element `item` of run `run` is in the tile and chosen.
  __device__ __forceinline__ void choose(const elements& e, int valid,
                                         std::uint32_t (&chosen)[runs_per_thread]) const {
#pragma unroll
    for (int run = 0; run < runs_per_thread; ++run) {
      chosen[run] = 0;
#pragma unroll
      for (int item = 0; item < run_items; ++item) {
        flag_type flag{};
        if constexpr (Pick::reads_flags) flag = e.flags[run].get(item);
        if (position(run, item) < valid)
          chosen[run] |= static_cast<std::uint32_t>(pick(e.keys[run].get(item), flag)) << item;
      }
    }
  }

  /// Values: when only chosen elements are kept, reads only their values (at 1% kept this skips
  /// most of the value array); a partition needs all of them.
  __device__ __forceinline__ void load_values(std::int64_t tile_base, int valid,
                                              const std::uint32_t (&chosen)[runs_per_thread],
                                              value_slot (&values)[runs_per_thread][run_items]) const {
    if constexpr (has_values) {
#pragma unroll
      for (int run = 0; run < runs_per_thread; ++run)
#pragma unroll
        for (int item = 0; item < run_items; ++item)
          if (keeps_rejected ? position(run, item) < valid : ((chosen[run] >> item) & 1u))
            values[run][item] = args.values_in[tile_base + position(run, item)];
    }
  }

  // ---- Rank.

  /// Ranks within the warp: run_rank[run] is the number of the warp's chosen elements before run
  /// `run` of this lane; returns the warp's total. Runs are ordered run-major (run c of all lanes,
  /// then run c + 1), so each run needs a scan over lanes. Two runs share one scan in 16-bit fields
  /// (a run's warp total is at most 32 * 16).
  __device__ __forceinline__ std::uint32_t rank_in_warp(const std::uint32_t (&chosen)[runs_per_thread],
                                                        std::uint32_t (&run_rank)[runs_per_thread]) const {
    std::uint32_t warp_total = 0;
#pragma unroll
    for (int run = 0; run < runs_per_thread; run += 2) {
      const std::uint32_t low = __popc(chosen[run]);
      const std::uint32_t high = run + 1 < runs_per_thread ? __popc(chosen[run + 1]) : 0u;
      const std::uint32_t packed = low | (high << 16);
      const std::uint32_t inclusive = warp_inclusive_sum(packed);
      const std::uint32_t exclusive = inclusive - packed;
      const std::uint32_t totals = __shfl_sync(full_warp_mask, inclusive, warp_threads - 1);
      run_rank[run] = warp_total + (exclusive & 0xffffu);
      warp_total += totals & 0xffffu;
      if (run + 1 < runs_per_thread) {
        run_rank[run + 1] = warp_total + (exclusive >> 16);
        warp_total += totals >> 16;
      }
    }
    return warp_total;
  }

  /// Hands this warp's total to the other ranking warps: after it, every ranking thread has its
  /// elements in registers and every warp's total is in `warp_counts[buffer]`.
  __device__ __forceinline__ void share_warp_total(int buffer, std::uint32_t warp_total) const {
    if (lane == 0) warp_counts[buffer][warp] = warp_total;
    barrier_sync(barriers::ranked, Shape::ranking_threads);
  }

  /// The chosen elements of the warps before this one (`warp_offset`) and of the whole tile.
  __device__ __forceinline__ void sum_warp_totals(int buffer, std::uint32_t& warp_offset,
                                                  std::uint32_t& tile_count) const {
#pragma unroll
    for (int other = 0; other < ranking_warps; ++other) {
      warp_offset += other < warp ? warp_counts[buffer][other] : 0u;
      tile_count += warp_counts[buffer][other];
    }
  }

  /// Publishes the tile's count for the look-back of its successors and of the look-back warp.
  __device__ __forceinline__ void publish_tile_count(std::int64_t tile, int buffer, std::uint32_t tile_count) const {
    if (threadIdx.x == 0) {
      publish_tile_status(args.tile_status, tile, tile == 0 ? tile_status::inclusive : tile_status::aggregate,
                          tile_count);
      tile_counts[buffer] = tile_count;
    }
  }

  // ---- Stage and write out.

  /// Stages the tile in output buffer `buffer`: chosen elements at their rank, rejected ones after
  /// all chosen ones, in input order.
  __device__ __forceinline__ void stage_tile(const elements& e, const std::uint32_t (&chosen)[runs_per_thread],
                                             const std::uint32_t (&run_rank)[runs_per_thread],
                                             const value_slot (&values)[runs_per_thread][run_items], int valid,
                                             std::uint32_t warp_offset, std::uint32_t tile_count, int buffer) const {
    Key* keys = staged_keys(buffer);
    value_slot* staged = staged_values(buffer);
#pragma unroll
    for (int run = 0; run < runs_per_thread; ++run) {
      std::uint32_t rank = warp_offset + run_rank[run];
#pragma unroll
      for (int item = 0; item < run_items; ++item) {
        const bool is_chosen = (chosen[run] >> item) & 1u;
        if (is_chosen) {
          keys[rank] = e.keys[run].get(item);
          if constexpr (has_values) staged[rank] = values[run][item];
        } else if (keeps_rejected && position(run, item) < valid) {
          const std::uint32_t slot = tile_count + (position(run, item) - rank);
          keys[slot] = e.keys[run].get(item);
          if constexpr (has_values) staged[slot] = values[run][item];
        }
        rank += is_chosen;
      }
    }
  }

  /// Writes a staged tile out once the look-back warp has found its position. The buffer is next
  /// staged into at the following step, after the `ranked` barrier that every ranking thread
  /// reaches only once done here.
  __device__ __forceinline__ void write_out(std::int64_t tile, int buffer) const {
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
      const std::int64_t rejected_prefix = tile * tile_items - prefix;
      const int rejected_count = valid_items(tile) - count;
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
  }

  // ---- The ranking warps' loop.

  /// A step takes the block's next tile from the ring (or from global memory), ranks and stages
  /// it, and writes out the tile `lookback_lag` steps back.
  __device__ __forceinline__ void rank_and_write_tiles() const {
    std::int64_t tile = blockIdx.x;
    int buffer = 0;
    int stage = 0;             // of the tile being ranked
    std::uint32_t parity = 0;  // of the stage's fill that holds it
    for (;;) {
      elements current;
      load_tile(tile, stage, parity, current);
      const std::int64_t tile_base = tile * tile_items;
      const int valid = valid_items(tile);

      std::uint32_t chosen[runs_per_thread];
      choose(current, valid, chosen);
      value_slot values[runs_per_thread][run_items];
      load_values(tile_base, valid, chosen, values);

      std::uint32_t run_rank[runs_per_thread];
      const std::uint32_t warp_total = rank_in_warp(chosen, run_rank);
      share_warp_total(buffer, warp_total);
      // Every ranking thread has its elements of the stage in registers: refill it.
      if constexpr (ring)
        if (threadIdx.x == 0) fill_stage(tile + ring_stages * grid, stage);
      std::uint32_t warp_offset = 0;
      std::uint32_t tile_count = 0;
      sum_warp_totals(buffer, warp_offset, tile_count);
      // Publish this tile's count first: successors look back at it while this tile stages.
      publish_tile_count(tile, buffer, tile_count);

      stage_tile(current, chosen, run_rank, values, valid, warp_offset, tile_count, buffer);
      barrier_arrive(barriers::counted + buffer, Shape::block_threads);

      // The look-back of the tile `lookback_lag` steps back ran while the tiles since loaded,
      // ranked and staged; its buffer is the next one in the cycle.
      if (tile - Shape::lookback_lag * grid >= blockIdx.x)
        write_out(tile - Shape::lookback_lag * grid, next_buffer(buffer));
      if (tile + grid >= args.num_tiles) break;
      tile += grid;
      buffer = next_buffer(buffer);
      if (++stage == ring_stages) stage = 0, parity ^= 1u;
    }
    // The last `lookback_lag` tiles are staged and not yet written, oldest first.
    for (int back = Shape::lookback_lag - 1; back >= 0; --back)
      if (tile - back * grid >= blockIdx.x)
        write_out(tile - back * grid, (buffer + output_buffers - back) % output_buffers);
  }
};

}  // namespace bkt::detail::compact
