// The scatter pass of multisplit: one tile per block, in one read of its keys (and values).
//
// Per tile:
// 1. Load: each rank group (a warp, or a half-warp for the packed table; warp_rank.cuh) owns one
//    run of the tile, its keys striped over the group's lanes (element i of lane l at i * lanes +
//    l), so the group's steps visit its elements in input order and plain 4-byte loads coalesce.
//    A pass whose elements all share one bucket copies the tile instead (the bucket offsets' scan
//    tells every block so).
// 2. Rank (the multisplit paper's warp-level multisplit): per step, the lanes sharing a bucket
//    are found (one ballot per bit of the bucket id for up to 32 buckets, for more a shared
//    table of lane bits packed with the counts); the lowest of them adds
//    their number to the group's counter for that bucket, and each lane's rank is the counter
//    before plus its place among the peers. Ranks are thus stable.
// 3. Tile totals: thread b sums bucket b over the groups, publishes it for decoupled look-back,
//    and a block scan over buckets gives each bucket's start within the tile, from which thread
//    b writes each group's start for the bucket.
// 4. Stage: keys move to their bucket-sorted place in shared memory (with their bucket ids,
//    unless the functor is cheap to run again); values are loaded meanwhile, into the registers
//    the keys held, and thread b looks back over earlier tiles for bucket b.
// 5. Write: consecutive threads write consecutive staged keys, so each bucket's run of the tile
//    lands as one contiguous, coalesced stretch (the paper's reordering for coalesced writes).
//    Values then take the same way in a second round through the keys' bytes (as Onesweep
//    does): the staging area holds one element, not a pair, and no thread holds a key and a
//    value at once.
//
// Tiles are taken in reverse input order through an atomic counter: the counting pass read the
// input front to back, so its tail is still in L2 when the scatter starts there. Positions count
// back from each bucket's end: bucket b's elements in this tile go just before those of the
// tiles after it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bkt/detail/device/bucket_lookback.cuh"
#include "bkt/detail/multisplit/shared_table.cuh"
#include "bkt/detail/multisplit/tile_shape.hpp"
#include "bkt/detail/multisplit/warp_rank.cuh"
#include "bkt/device/warp_scan.cuh"

namespace bkt::detail::multisplit {

template <class Key, class Value>
struct split_pointers {
  const Key* keys_in = nullptr;
  const typename value_traits<Value>::stored* values_in = nullptr;  // unused for no_value and indices
  Key* keys_out = nullptr;                                          // may be null in index mode
  typename value_traits<Value>::stored* values_out = nullptr;
};

template <class Key, class Value>
struct scatter_args {
  split_pointers<Key, Value> io;
  std::int64_t num_items;
  std::int64_t num_tiles;
  int num_buckets;
  const std::int64_t* offsets;  // num_buckets + 1 bucket starts
  const int* lone_bucket;       // the bucket that holds every element, or -1; null: never copy
  void* status;                 // tiles x num_buckets look-back words, zeroed
  bool wide_status;             // 64-bit words (else 32-bit)
  unsigned* tile_counter;       // zeroed
  unsigned table_bytes;         // the functor's shared table, before the staging area
};

/// Whether the write phase runs the functor again on each staged key instead of staging the key's
/// bucket id beside it: for key-only passes of keys up to 4 bytes whose functor declares
/// `cheap_bucket` (bkt/buckets.hpp). It spares a shared-memory store and load per key, which made
/// a u32 radix sort faster; 8-byte keys (64-bit digit arithmetic, twice the staged bytes to read
/// back) and pairs ran their sorts slower with it (docs/primitives/multisplit.md).
template <class Key, class Value, class Fn>
inline constexpr bool recomputes_bucket =
    sizeof(Key) <= 4 && !value_traits<Value>::present && requires { requires Fn::cheap_bucket; };

/// Bytes of one staged element: keys and values are staged in turn in the same bytes.
template <class Key, class Value>
inline constexpr std::size_t staged_element_bytes = sizeof(Key) > value_bytes<Value> ? sizeof(Key) : value_bytes<Value>;

/// Dynamic shared memory of one block after the functor's table: the staged tile of keys, then of
/// values in the same bytes, and the staged bucket ids after them; the lane-mask ranking's two
/// tables of warps x 256 words share it (they are done with before staging).
template <class Shape, class Key, class Value, class Fn>
constexpr std::size_t staging_bytes(int rank_bits) {
  const std::size_t id_bytes = recomputes_bucket<Key, Value, Fn> ? 0 : 1;
  const std::size_t tile = Shape::tile_items * (staged_element_bytes<Key, Value> + id_bytes);
  const std::size_t masks = rank_method_for(rank_bits) == rank_method::lane_masks
                                ? 2 * sizeof(unsigned) * Shape::warps * Shape::max_buckets
                                : 0;
  return tile > masks ? tile : masks;
}

/// One round of step 5: consecutive threads write consecutive staged elements of the tile to
/// their bucket's stretch. `bucket_of(k)` is the bucket of staged element k.
template <int BlockThreads, class T, class BucketOf>
__device__ __forceinline__ void write_staged(const T* staged, int valid, const std::int64_t* bucket_base,
                                             BucketOf bucket_of, T* out) {
  for (int k = static_cast<int>(threadIdx.x); k < valid; k += BlockThreads) out[bucket_base[bucket_of(k)] + k] = staged[k];
}

/// One tile per block, claimed from a counter in launch order. (A persistent grid that loads its
/// next tile while it finishes the current one, as compaction does, measured slower here: at one
/// 512-thread block per SM the ranking phase no longer hides; see docs/primitives/multisplit.md.)
template <class Shape, int RankBits, class Key, class Value, class Fn>
__global__ void __launch_bounds__(Shape::block_threads, Shape::min_blocks)
    scatter_kernel(scatter_args<Key, Value> args, Fn fn_global) {
  using traits = value_traits<Value>;
  using stored = typename traits::stored;
  constexpr int items = Shape::items;
  constexpr int max_buckets = Shape::max_buckets;
  constexpr int tile_items = Shape::tile_items;
  constexpr bool recompute = recomputes_bucket<Key, Value, Fn>;

  // Lanes rank in groups (warp_rank.cuh); each group's keys are one run of the tile, element i of
  // group lane l at i * group_lanes + l of the run.
  constexpr rank_method method = rank_method_for(RankBits);
  constexpr int group_lanes = rank_group_lanes(method);
  constexpr int groups = Shape::block_threads / group_lanes;
  constexpr int group_items = items * group_lanes;
  constexpr unsigned count_shift = rank_count_shift(method);
  static_assert(group_items < (std::int64_t{1} << (32 - count_shift)) && group_items < (1 << 24),
                "a group's counts fit its table word, and a rank beside a bucket id in one word");

  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ unsigned group_counts[groups][max_buckets];  // per group and bucket; later tile offsets
  __shared__ std::int64_t bucket_base[max_buckets];       // output position minus staged position
  __shared__ unsigned scan_totals[max_buckets / warp_threads];
  __shared__ unsigned tile_order_shared;
  __shared__ bool copy_only_shared;

  const int thread = static_cast<int>(threadIdx.x);
  const int warp = thread / warp_threads;
  const int lane = lane_id();
  const int group = thread / group_lanes;
  const int group_lane = thread % group_lanes;
  const int num_buckets = args.num_buckets;

  if (thread == 0) {
    tile_order_shared = atomicAdd(args.tile_counter, 1u);
    copy_only_shared = args.lone_bucket != nullptr && *args.lone_bucket >= 0;
  }
  const auto fn = shared_table<Fn>::bind(fn_global, shared);
  unsigned char* staging = shared + args.table_bytes;
  Key* staged_keys = reinterpret_cast<Key*>(staging);
  stored* staged_values = reinterpret_cast<stored*>(staging);  // after the keys are written
  unsigned char* staged_buckets = staging + tile_items * staged_element_bytes<Key, Value>;  // unless recompute
  // Lane-mask ranking: [step parity][warp][bucket], the lanes of this step that hold the bucket; in
  // the staging area, which the ranking does not use.
  auto* peer_masks = reinterpret_cast<unsigned(*)[Shape::warps][max_buckets]>(staging);
  if constexpr (method == rank_method::lane_masks)
    for (int i = thread; i < Shape::warps * max_buckets; i += Shape::block_threads)
      (&peer_masks[0][0][0])[i] = (&peer_masks[1][0][0])[i] = 0;
  for (int i = thread; i < groups * max_buckets; i += Shape::block_threads) (&group_counts[0][0])[i] = 0;
  __syncthreads();

  // Tiles go in reverse input order (see the top of this file).
  const std::int64_t order = tile_order_shared;
  const std::int64_t tile_base = (args.num_tiles - 1 - order) * tile_items;
  const std::int64_t remaining = args.num_items - tile_base;
  const int valid = remaining < tile_items ? static_cast<int>(remaining) : tile_items;
  const int group_base = group * group_items;
  auto position_of = [&](int i) { return group_base + i * group_lanes + group_lane; };

  // 1. Load the keys; a full tile without bounds checks.
  Key keys[items];
#pragma unroll
  for (int i = 0; i < items; ++i) {
    const int position = position_of(i);
    if (valid == tile_items || position < valid) keys[i] = args.io.keys_in[tile_base + position];
  }
  // All elements in one bucket (a radix pass over bits every key shares, say): the split keeps the
  // input order, so the tile goes out as it came in. Every block takes this path, so none waits in
  // a look-back for another.
  if (copy_only_shared) {
#pragma unroll
    for (int i = 0; i < items; ++i) {
      const int position = position_of(i);
      if (valid == tile_items || position < valid) {
        const std::int64_t at = tile_base + position;
        if (args.io.keys_out != nullptr) args.io.keys_out[at] = keys[i];
        if constexpr (traits::generated) args.io.values_out[at] = static_cast<stored>(at);
        else if constexpr (traits::present) args.io.values_out[at] = args.io.values_in[at];
      }
    }
    return;
  }

  // 2. Rank within the group: slot = rank << 8 | bucket. A full tile (all but at most one) takes a
  // path without the per-lane bounds.
  unsigned slot[items];
  auto rank = [&](auto full_tile) {
#pragma unroll
    for (int i = 0; i < items; ++i) {
      const bool mine = decltype(full_tile)::value || position_of(i) < valid;
      const unsigned bucket = mine ? clamped_bucket(fn, keys[i], num_buckets) : 0u;
      unsigned before;
      if constexpr (method == rank_method::packed_table) {
        before = packed_table_rank(&group_counts[group][bucket], mine, group_lane);
      } else if constexpr (method == rank_method::lane_masks) {
        before = lane_mask_rank(&peer_masks[i % 2][warp][bucket], &group_counts[warp][bucket], mine);
      } else {
        const unsigned active = decltype(full_tile)::value ? full_warp_mask : __ballot_sync(full_warp_mask, mine);
        before = ballot_rank<RankBits>(group_counts[group], bucket, mine, active);
      }
      slot[i] = (before << 8) | bucket;
    }
  };
  if (valid == tile_items) rank(std::true_type{});
  else rank(std::false_type{});
  __syncthreads();

  // 3. Tile totals per bucket, published at once; then each bucket's start in the tile, and in
  // each group's row the bucket's start for that group (two reads of the rows and one write: the
  // rows are the largest shared array a tile sweeps outside the ranking).
  unsigned tile_count = 0;
  if (thread < num_buckets) {
#pragma unroll
    for (int g = 0; g < groups; ++g) tile_count += group_counts[g][thread] >> count_shift;
    if (args.wide_status) {
      using status = bucket_status<std::uint64_t>;
      auto* words = static_cast<std::uint64_t*>(args.status) + order * num_buckets + thread;
      status::publish(words, order == 0 ? status::inclusive : status::aggregate, tile_count);
    } else {
      using status = bucket_status<std::uint32_t>;
      auto* words = static_cast<std::uint32_t*>(args.status) + order * num_buckets + thread;
      status::publish(words, order == 0 ? status::inclusive : status::aggregate, tile_count);
    }
  }
  unsigned inclusive = 0;
  if (thread < max_buckets) {
    inclusive = warp_inclusive_sum(tile_count);
    if (lane == warp_threads - 1) scan_totals[warp] = inclusive;
  }
  __syncthreads();
  unsigned tile_start = 0;
  if (thread < num_buckets) {
    tile_start = inclusive - tile_count;
    for (int w = 0; w < warp; ++w) tile_start += scan_totals[w];
    unsigned group_start = tile_start;
#pragma unroll
    for (int g = 0; g < groups; ++g) {
      const unsigned count = group_counts[g][thread] >> count_shift;
      group_counts[g][thread] = group_start;
      group_start += count;
    }
  }
  __syncthreads();

  // 4. Stage the keys in bucket order (slot becomes the staged place), load the values, look back.
  // Index mode without key output stages no keys; key-only passes always write them.
  const bool write_keys = !traits::present || args.io.keys_out != nullptr;
#pragma unroll
  for (int i = 0; i < items; ++i) {
    if (position_of(i) < valid) {
      const unsigned bucket = slot[i] & 0xffu;
      const unsigned local = group_counts[group][bucket] + (slot[i] >> 8);
      if (write_keys) staged_keys[local] = keys[i];
      if constexpr (!recompute) staged_buckets[local] = static_cast<unsigned char>(bucket);
      slot[i] = local;
    }
  }
  stored values[items];
  if constexpr (traits::present) {
#pragma unroll
    for (int i = 0; i < items; ++i) {
      const int position = position_of(i);
      if (valid == tile_items || position < valid) {
        if constexpr (traits::generated) values[i] = static_cast<stored>(tile_base + position);
        else values[i] = args.io.values_in[tile_base + position];
      }
    }
  }
  if (thread < num_buckets) {
    std::uint64_t after = 0;  // this bucket's elements in the tiles after this one
    constexpr int window = Shape::lookback_window;
    if (order > 0) {
      after = args.wide_status ? bucket_status<std::uint64_t>::template look_back<window>(
                                     static_cast<std::uint64_t*>(args.status), order, num_buckets, thread, tile_count)
                               : bucket_status<std::uint32_t>::template look_back<window>(
                                     static_cast<std::uint32_t*>(args.status), order, num_buckets, thread, tile_count);
    }
    bucket_base[thread] = args.offsets[thread + 1] - static_cast<std::int64_t>(after) - tile_count - tile_start;
  }
  __syncthreads();

  // 5. Write out, keys then values: runs of one bucket are contiguous in both shared and global
  // memory.
  auto bucket_of = [&](int k) -> unsigned {
    if constexpr (recompute) return clamped_bucket(fn, staged_keys[k], num_buckets);
    else return staged_buckets[k];
  };
  if (write_keys) write_staged<Shape::block_threads>(staged_keys, valid, bucket_base, bucket_of, args.io.keys_out);
  if constexpr (traits::present) {
    if (write_keys) __syncthreads();  // every staged key is read before the values take its bytes
#pragma unroll
    for (int i = 0; i < items; ++i)
      if (position_of(i) < valid) staged_values[slot[i]] = values[i];
    __syncthreads();
    write_staged<Shape::block_threads>(staged_values, valid, bucket_base, bucket_of, args.io.values_out);
  }
}

}  // namespace bkt::detail::multisplit
