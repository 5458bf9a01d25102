// One step of the scatter pass's stable ranking (scatter_kernel.cuh): every lane of a rank group
// holds one key of a run of the tile; the step gives each key its place among the group's keys of
// the same bucket so far and advances the group's count for that bucket. A group's steps visit its
// keys in input order, so ranks are stable.
#pragma once

#include "bkt/detail/warp/warp_match.cuh"
#include "bkt/device/warp_scan.cuh"

namespace bkt::detail::multisplit {

/// Bucket-id bits a ranking step must tell apart: bucket_bits(num_buckets) rounded up to one of
/// three classes, each a kernel of its own. Up to 5 bits, one ballot per bit finds the lanes of
/// equal bucket (a ballot on a bit no id sets changes nothing, and a per-bit branch on a run-time
/// count cost more than that); 8 bits take a shared table instead.
__host__ __device__ constexpr int rank_bits_class(int num_buckets) {
  const int bits = bucket_bits(num_buckets);
  return bits <= 1 ? 1 : bits <= 5 ? 5 : 8;
}

/// How a pass ranks: 8-bit passes take the packed table (eight ballots and the lane-mask table
/// measured slower, for keys and for pairs: docs/primitives/multisplit.md). For tuning
/// comparisons, BKT_MULTISPLIT_LANE_MASK_RANK and BKT_MULTISPLIT_BALLOT_RANK put every 8-bit pass
/// on another method.
enum class rank_method { ballots, lane_masks, packed_table };
__host__ __device__ constexpr rank_method rank_method_for(int rank_bits) {
  if (rank_bits <= 5) return rank_method::ballots;
#if defined(BKT_MULTISPLIT_LANE_MASK_RANK)
  return rank_method::lane_masks;
#elif defined(BKT_MULTISPLIT_BALLOT_RANK)
  return rank_method::ballots;
#else
  return rank_method::packed_table;
#endif
}

/// Lanes that rank together: a warp, or a half-warp for the packed table, whose 32-bit words hold
/// one lane bit per member beside a 16-bit count.
__host__ __device__ constexpr int rank_group_lanes(rank_method method) {
  return method == rank_method::packed_table ? 16 : 32;
}

/// Where a group's per-bucket count sits in its table word.
__host__ __device__ constexpr int rank_count_shift(rank_method method) {
  return method == rank_method::packed_table ? 16 : 0;
}

/// Ballot ranking (up to 5 bits): the lanes of equal bucket come from one ballot per bit; the
/// lowest of them adds their number to the group's count and shares the count before.
/// `counts` is the group's row of per-bucket counts. Called by the whole warp.
template <int Bits>
__device__ __forceinline__ unsigned ballot_rank(unsigned* counts, unsigned bucket, bool mine, unsigned active) {
  const unsigned peers = match_bucket<Bits>(bucket, active);
  const int leader = __ffs(peers) - 1;
  unsigned before = 0;
  if (mine && lane_id() == leader) before = atomicAdd(&counts[bucket], static_cast<unsigned>(__popc(peers)));
  before = __shfl_sync(full_warp_mask, before, leader & (warp_threads - 1));
  return before + static_cast<unsigned>(__popc(peers & lane_mask_lt()));
}

/// Packed-table ranking (8 bits), for a half-warp group. `entry` is this lane's bucket's word in its
/// group's table: the count so far in the high 16 bits, this step's lanes in the low 16. Each lane
/// adds its bit (distinct bits, so the sum is their OR); one load then gives every lane both its
/// peers and the count before them; the lowest peer adds the peers' number to the count and takes
/// their bits back out. Adds commute, so that fix-up may meet the next step's bits in the word
/// (even a lane's own bit twice, as a carry that the fix-up undoes): the word is only read after the
/// next __syncwarp, when every add of the step before has landed. Three shared accesses a key.
/// Called by the whole warp.
__device__ __forceinline__ unsigned packed_table_rank(unsigned* entry, bool mine, int group_lane) {
  const unsigned lane_bit = 1u << group_lane;
  if (mine) atomicAdd(entry, lane_bit);
  __syncwarp();
  const unsigned word = mine ? *entry : 0u;
  __syncwarp();  // every peer has read the word before its leader changes it
  const unsigned peers = word & 0xffffu;
  const unsigned below = peers & (lane_bit - 1u);
  if (mine && below == 0u) atomicAdd(entry, (static_cast<unsigned>(__popc(peers)) << 16) - peers);
  return (word >> 16) + static_cast<unsigned>(__popc(below));
}

/// Lane-mask ranking (8 bits, a warp group): each lane ORs its bit into its bucket's entry of a mask
/// table (the caller alternates two by step, so that a clear never meets the next step's ORs), reads
/// back the entry and the group's count, and the lowest peer clears the entry and advances the
/// count. Five shared accesses a key. Called by the whole warp.
__device__ __forceinline__ unsigned lane_mask_rank(unsigned* entry, unsigned* count, bool mine) {
  const int lane = lane_id();
  unsigned peers = 0, before = 0;
  if (mine) atomicOr(entry, 1u << lane);
  __syncwarp();
  if (mine) {
    peers = *entry;
    before = *count;
  }
  __syncwarp();
  if (mine && lane == __ffs(peers) - 1) {
    *entry = 0;
    *count = before + static_cast<unsigned>(__popc(peers));
  }
  return before + static_cast<unsigned>(__popc(peers & lane_mask_lt()));
}

}  // namespace bkt::detail::multisplit
