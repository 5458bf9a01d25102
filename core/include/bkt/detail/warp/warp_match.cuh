// Warp-level bucket matching (the multisplit paper's warp-synchronous primitives): which lanes
// hold the same bucket id, from one ballot per bit of the id.
#pragma once

#include <cstdint>

#include "bkt/detail/warp/warp_scan.cuh"

namespace bkt::detail {

/// Bits needed for bucket ids below `num_buckets` (0 for a single bucket).
__host__ __device__ constexpr int bucket_bits(int num_buckets) {
  int bits = 0;
  while ((1 << bits) < num_buckets) ++bits;
  return bits;
}

/// Lanes of `active` whose bucket equals this lane's: one ballot per bit, and each lane keeps the
/// lanes that agree with it on every bit. `bits` is warp-uniform and at most MaxBits. Cheaper than
/// __match_any_sync for the few bits of small bucket counts, and as cheap at eight bits.
template <int MaxBits>
__device__ __forceinline__ unsigned match_bucket(unsigned bucket, int bits, unsigned active) {
#ifdef BKT_MATCH_ANY  // tuning runs: the hardware match instruction instead of ballots
  return __match_any_sync(full_warp_mask, bucket) & active;
#endif
  unsigned peers = active;
#pragma unroll
  for (int bit = 0; bit < MaxBits; ++bit) {
    if (bit < bits) {
      const bool set = (bucket >> bit) & 1u;
      const unsigned plane = __ballot_sync(full_warp_mask, set);
      peers &= set ? plane : ~plane;
    }
  }
  return peers;
}

/// Bit planes of the warp's bucket ids: plane[bit] has lane l set when bit `bit` of lane l's id is
/// set. With them any lane can count the lanes holding any bucket (count_in_planes).
template <int MaxBits>
struct bucket_planes {
  unsigned plane[MaxBits > 0 ? MaxBits : 1];

  __device__ __forceinline__ void build(unsigned bucket, int bits, unsigned active) {
#pragma unroll
    for (int bit = 0; bit < MaxBits; ++bit)
      if (bit < bits) plane[bit] = __ballot_sync(full_warp_mask, (bucket >> bit) & 1u);
    active_lanes = active;
  }

  /// Lanes of the warp whose bucket is `bucket`.
  __device__ __forceinline__ unsigned lanes_of(unsigned bucket, int bits) const {
    unsigned lanes = active_lanes;
#pragma unroll
    for (int bit = 0; bit < MaxBits; ++bit)
      if (bit < bits) lanes &= ((bucket >> bit) & 1u) ? plane[bit] : ~plane[bit];
    return lanes;
  }

  unsigned active_lanes;
};

}  // namespace bkt::detail
