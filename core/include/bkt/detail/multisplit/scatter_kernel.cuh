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
//    value at once. For cheap functors and values of up to 4 bytes the key round keeps each
//    staged element's bucket in registers for the value round, so it is learnt once.
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
/// bucket id beside it: for keys of up to 4 bytes whose functor declares `cheap_bucket`
/// (bkt/buckets.hpp), alone or with values of up to 4 bytes. It spares a scattered shared-memory
/// store and a load per element. 8-byte keys keep the staged ids (their key-only sorts ran slower
/// with it: 64-bit digit arithmetic; docs/primitives/multisplit.md), and so do 8-byte values
/// (those kernels spilled with it). Passes that recompute stage their keys even where no key is
/// written out (index mode without key output).
template <class Fn>
inline constexpr bool cheap_bucket = requires { requires Fn::cheap_bucket; };
template <class Key, class Value, class Fn>
inline constexpr bool recomputes_bucket = sizeof(Key) <= 4 && value_bytes<Value> <= 4 && cheap_bucket<Fn>;

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

/// One round of step 5 in a plain loop: consecutive threads write consecutive staged elements of
/// the tile to their bucket's stretch. `bucket_of(k)` is the bucket of staged element k.
template <int BlockThreads, class T, class BucketOf>
__device__ __forceinline__ void write_staged(const T* staged, int valid, const std::int64_t* bucket_base,
                                             BucketOf bucket_of, T* out) {
  for (int k = static_cast<int>(threadIdx.x); k < valid; k += BlockThreads) out[bucket_base[bucket_of(k)] + k] = staged[k];
}

/// Step 5's key round: consecutive threads take consecutive staged elements (k = thread + j *
/// BlockThreads for j < Items), learn each one's bucket (`bucket_of(k)`) and write the staged key
/// to its bucket's stretch of `out`. `Unrolled` visits the Items elements unrolled, skipping the
/// writes when `out` is null; else write_staged writes them all (the caller skips it where no key
/// is written). The unrolled visit ran the u64 sort 6 % faster and the u32 sort 2 % slower than
/// the loop (docs/primitives/multisplit.md). With `KeepBuckets` (unrolled only) the value round
/// takes the same elements, so the bucket of element j is kept for it in bits 16-23 of slot[j],
/// above the staged place of item j that stage_keys left there (a tile holds fewer than 2^16
/// elements): 16 registers hold both, where a byte array of the buckets beside them spilled at
/// the 64 registers of two blocks an SM.
template <int BlockThreads, bool Unrolled, bool KeepBuckets, int Items, class Key, class BucketOf>
__device__ __forceinline__ void write_staged_keys(const Key* staged, int valid, const std::int64_t* bucket_base,
                                                  BucketOf bucket_of, Key* out, unsigned (&slot)[Items]) {
  static_assert(Unrolled || !KeepBuckets, "buckets are kept in registers only by the unrolled visit");
  static_assert(BlockThreads * Items <= (1 << 16), "a staged place fits the low 16 bits of a slot");
  if constexpr (Unrolled) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int k = static_cast<int>(threadIdx.x) + j * BlockThreads;
      if (k < valid) {
        const unsigned bucket = bucket_of(k);
        if constexpr (KeepBuckets) slot[j] |= bucket << 16;
        if (out != nullptr) out[bucket_base[bucket] + k] = staged[k];
      }
    }
  } else {
    write_staged<BlockThreads>(staged, valid, bucket_base, bucket_of, out);
  }
}

/// The staged place of item i after write_staged_keys.
__device__ __forceinline__ unsigned staged_place(unsigned slot) { return slot & 0xffffu; }

/// Step 5's value round: the key round's staged elements, their buckets from bits 16-23 of slot
/// where the key round kept them there (`KeptBuckets`, an unrolled visit), else from
/// `bucket_of(k)` (write_staged).
template <int BlockThreads, bool KeptBuckets, int Items, class T, class BucketOf>
__device__ __forceinline__ void write_staged_values(const T* staged, int valid, const std::int64_t* bucket_base,
                                                    BucketOf bucket_of, const unsigned (&slot)[Items], T* out) {
  if constexpr (KeptBuckets) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int k = static_cast<int>(threadIdx.x) + j * BlockThreads;
      if (k < valid) out[bucket_base[slot[j] >> 16] + k] = staged[k];
    }
  } else {
    write_staged<BlockThreads>(staged, valid, bucket_base, bucket_of, out);
  }
}

/// Where a thread's items lie in its tile: the items of rank group g are one run of the tile, item
/// i of group lane l at g * GroupLanes * Items + i * GroupLanes + l of it, so that a group's steps
/// visit its elements in input order. `valid` elements of the tile exist.
template <int Items, int GroupLanes>
struct tile_layout {
  int group_base;
  int group_lane;
  int valid;
  __device__ int position(int i) const { return group_base + i * GroupLanes + group_lane; }
};

/// at(i, position) for each of this thread's items that the tile holds; a full tile (`tile_items`
/// valid) without bounds tests.
template <int Items, int GroupLanes, class At>
__device__ __forceinline__ void for_tile_items(const tile_layout<Items, GroupLanes>& layout, int tile_items, At at) {
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int position = layout.position(i);
    if (layout.valid == tile_items || position < layout.valid) at(i, position);
  }
}

/// What a ranking step reads and writes: the groups' rows of per-bucket counts, the lane-mask
/// ranking's two mask tables, and where this thread sits among them.
template <int Groups, int Warps, int MaxBuckets>
struct rank_tables {
  unsigned (&group_counts)[Groups][MaxBuckets];
  unsigned (*peer_masks)[Warps][MaxBuckets];  // [step parity][warp][bucket]; lane-mask ranking only
  int group;
  int warp;
  int group_lane;
};

/// Step 2: slot[i] = (rank of item i among the group's items of its bucket so far) << 8 | bucket,
/// through the ranking of RankBits (warp_rank.cuh). `FullTile`: every item of the tile is valid.
/// Called by the whole block.
template <int RankBits, bool FullTile, class Key, int Items, int GroupLanes, class Fn, int Groups, int Warps,
          int MaxBuckets>
__device__ __forceinline__ void rank_keys(const Key (&keys)[Items], const tile_layout<Items, GroupLanes>& layout,
                                          const Fn& fn, int num_buckets,
                                          const rank_tables<Groups, Warps, MaxBuckets>& t, unsigned (&slot)[Items]) {
  constexpr rank_method method = rank_method_for(RankBits);
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const bool mine = FullTile || layout.position(i) < layout.valid;
    const unsigned bucket = mine ? clamped_bucket(fn, keys[i], num_buckets) : 0u;
    unsigned before;
    if constexpr (method == rank_method::packed_table) {
      before = packed_table_rank(&t.group_counts[t.group][bucket], mine, t.group_lane);
    } else if constexpr (method == rank_method::lane_masks) {
      before = lane_mask_rank(&t.peer_masks[i % 2][t.warp][bucket], &t.group_counts[t.warp][bucket], mine);
    } else {
      const unsigned active = FullTile ? full_warp_mask : __ballot_sync(full_warp_mask, mine);
      before = ballot_rank<RankBits>(t.group_counts[t.group], bucket, mine, active);
    }
    slot[i] = (before << 8) | bucket;
  }
}

/// f(bucket_status<Word>{}, words) with the pass's look-back words at their width: 64-bit when
/// `wide`, else 32-bit (wide_status, tile_shape.hpp).
template <class F>
__device__ __forceinline__ auto with_status_words(void* words, bool wide, F f) {
  if (wide) return f(bucket_status<std::uint64_t>{}, static_cast<std::uint64_t*>(words));
  return f(bucket_status<std::uint32_t>{}, static_cast<std::uint32_t*>(words));
}

/// Step 3, first half: thread b < num_buckets sums bucket b over the groups' rows and publishes the
/// tile's count for the look-back; returns it (0 on other threads).
template <int Groups, int MaxBuckets>
__device__ __forceinline__ unsigned publish_tile_count(const unsigned (&group_counts)[Groups][MaxBuckets],
                                                       unsigned count_shift, int num_buckets, void* status_words,
                                                       bool wide_status, std::int64_t order) {
  const int thread = static_cast<int>(threadIdx.x);
  unsigned tile_count = 0;
  if (thread < num_buckets) {
#pragma unroll
    for (int g = 0; g < Groups; ++g) tile_count += group_counts[g][thread] >> count_shift;
    with_status_words(status_words, wide_status, [&](auto status, auto* words) {
      using state = decltype(status);
      state::publish(words + order * num_buckets + thread, order == 0 ? state::inclusive : state::aggregate,
                     tile_count);
    });
  }
  return tile_count;
}

/// Step 3, second half: a block scan of the tile counts gives bucket b's start in the tile
/// (returned to thread b), and each group's row then holds, for bucket b, the group's start. (Two
/// reads of the rows and one write: they are the largest shared array a tile sweeps outside the
/// ranking.) Every thread calls it; its barriers are the block's.
template <int Groups, int MaxBuckets>
__device__ __forceinline__ unsigned group_starts(unsigned (&group_counts)[Groups][MaxBuckets],
                                                 unsigned (&scan_totals)[MaxBuckets / warp_threads],
                                                 unsigned count_shift, int num_buckets, unsigned tile_count, int warp,
                                                 int lane) {
  const int thread = static_cast<int>(threadIdx.x);
  unsigned inclusive = 0;
  if (thread < MaxBuckets) {
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
    for (int g = 0; g < Groups; ++g) {
      const unsigned count = group_counts[g][thread] >> count_shift;
      group_counts[g][thread] = group_start;
      group_start += count;
    }
  }
  __syncthreads();
  return tile_start;
}

/// Step 4's staging: each valid item's key (when `stage_key`) and, when `StageBuckets`, its
/// bucket id go to the item's place in bucket order, its group's start for the bucket (`starts`:
/// this group's row after group_starts) plus its rank; slot[i] becomes that place.
template <bool StageBuckets, class Key, int Items, int GroupLanes>
__device__ __forceinline__ void stage_keys(const Key (&keys)[Items], const tile_layout<Items, GroupLanes>& layout,
                                           const unsigned* starts, bool stage_key, Key* staged_keys,
                                           unsigned char* staged_buckets, unsigned (&slot)[Items]) {
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (layout.position(i) < layout.valid) {
      const unsigned bucket = slot[i] & 0xffu;
      const unsigned local = starts[bucket] + (slot[i] >> 8);
      if (stage_key) staged_keys[local] = keys[i];
      if constexpr (StageBuckets) staged_buckets[local] = static_cast<unsigned char>(bucket);
      slot[i] = local;
    }
  }
}

/// Step 4's look-back: thread b < num_buckets learns how many elements of bucket b the tiles after
/// this one hold and sets bucket_base[b], the output position of the bucket's staged element 0.
template <int Window>
__device__ __forceinline__ void set_bucket_base(std::int64_t* bucket_base, const std::int64_t* offsets,
                                                void* status_words, bool wide_status, std::int64_t order,
                                                int num_buckets, unsigned tile_count, unsigned tile_start) {
  const int thread = static_cast<int>(threadIdx.x);
  if (thread >= num_buckets) return;
  std::uint64_t after = 0;
  if (order > 0) {
    after = with_status_words(status_words, wide_status, [&](auto status, auto* words) {
      return decltype(status)::template look_back<Window>(words, order, num_buckets, thread, tile_count);
    });
  }
  bucket_base[thread] = offsets[thread + 1] - static_cast<std::int64_t>(after) - tile_count - tile_start;
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

  // Lanes rank in groups (warp_rank.cuh), each over one run of the tile (tile_layout).
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
  const tile_layout<items, group_lanes> layout{group * group_items, group_lane,
                                               remaining < tile_items ? static_cast<int>(remaining) : tile_items};
  const int valid = layout.valid;

  // 1. Load the keys.
  Key keys[items];
  for_tile_items(layout, tile_items, [&](int i, int position) { keys[i] = args.io.keys_in[tile_base + position]; });
  // All elements in one bucket (a radix pass over bits every key shares, say): the split keeps the
  // input order, so the tile goes out as it came in. Every block takes this path, so none waits in
  // a look-back for another.
  if (copy_only_shared) {
    for_tile_items(layout, tile_items, [&](int i, int position) {
      const std::int64_t at = tile_base + position;
      if (args.io.keys_out != nullptr) args.io.keys_out[at] = keys[i];
      if constexpr (traits::generated) args.io.values_out[at] = static_cast<stored>(at);
      else if constexpr (traits::present) args.io.values_out[at] = args.io.values_in[at];
    });
    return;
  }

  // 2. Rank within the group: slot = rank << 8 | bucket. A full tile (all but at most one) takes a
  // path without the per-lane bounds.
  unsigned slot[items];
  const rank_tables<groups, Shape::warps, max_buckets> tables{group_counts, peer_masks, group, warp, group_lane};
  if (valid == tile_items) rank_keys<RankBits, true>(keys, layout, fn, num_buckets, tables, slot);
  else rank_keys<RankBits, false>(keys, layout, fn, num_buckets, tables, slot);
  __syncthreads();

  // 3. Tile totals: published, then each bucket's start in the tile and each group's within it.
  const unsigned tile_count =
      publish_tile_count(group_counts, count_shift, num_buckets, args.status, args.wide_status, order);
  const unsigned tile_start = group_starts(group_counts, scan_totals, count_shift, num_buckets, tile_count, warp, lane);

  // 4. Stage the keys in bucket order (slot becomes the staged place), load the values, look back.
  // Index mode without key output stages no keys unless the write phase recomputes buckets from
  // them; key-only passes always write them.
  const bool write_keys = !traits::present || args.io.keys_out != nullptr;
  const bool stage_key = write_keys || recompute;
  stage_keys<!recompute>(keys, layout, group_counts[group], stage_key, staged_keys, staged_buckets, slot);
  stored values[items];
  if constexpr (traits::present) {
    for_tile_items(layout, tile_items, [&](int i, int position) {
      if constexpr (traits::generated) values[i] = static_cast<stored>(tile_base + position);
      else values[i] = args.io.values_in[tile_base + position];
    });
  }
  set_bucket_base<Shape::lookback_window>(bucket_base, args.offsets, args.status, args.wide_status, order, num_buckets,
                                          tile_count, tile_start);
  __syncthreads();

  // 5. Write out, keys then values: runs of one bucket are contiguous in both shared and global
  // memory.
  auto bucket_of = [&](int k) -> unsigned {
    if constexpr (recompute) return clamped_bucket(fn, staged_keys[k], num_buckets);
    else return staged_buckets[k];
  };
  // Radix digits and other cheap functors only: with 8-byte values, or functors that need
  // registers of their own (delta, splitters), keeping the buckets or unrolling spilled
  // (-Xptxas -v), so those read their staged ids again in plain loops.
  constexpr bool keep_buckets = traits::present && value_bytes<Value> <= 4 && cheap_bucket<Fn>;
  constexpr bool unrolled = keep_buckets || (sizeof(Key) > 4 && cheap_bucket<Fn>);
  if (unrolled || write_keys)
    write_staged_keys<Shape::block_threads, unrolled, keep_buckets>(staged_keys, valid, bucket_base, bucket_of,
                                                                    write_keys ? args.io.keys_out : nullptr, slot);
  if constexpr (traits::present) {
    if (keep_buckets || stage_key) __syncthreads();  // every staged key is read before the values take its bytes
#pragma unroll
    for (int i = 0; i < items; ++i)
      if (layout.position(i) < valid) staged_values[keep_buckets ? staged_place(slot[i]) : slot[i]] = values[i];
    __syncthreads();
    write_staged_values<Shape::block_threads, keep_buckets>(staged_values, valid, bucket_base, bucket_of, slot,
                                                            args.io.values_out);
  }
}

}  // namespace bkt::detail::multisplit
