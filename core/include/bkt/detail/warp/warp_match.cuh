// Warp-level bucket matching (the multisplit paper's warp-synchronous primitives): which lanes
// hold the same bucket id, from one ballot per bit of the id.
#pragma once

#include <cstdint>

#include "bkt/device/warp_scan.cuh"

namespace bkt::detail {

/// Bits needed for bucket ids below `num_buckets` (0 for a single bucket).
__host__ __device__ constexpr int bucket_bits(int num_buckets) {
  int bits = 0;
  while ((1 << bits) < num_buckets) ++bits;
  return bits;
}

/// Lanes of `active` whose bucket equals this lane's: one ballot per bit, and each lane keeps the
/// lanes that agree with it on every bit. Every bucket id must be below 2^Bits; a bit that no lane
/// sets costs its ballot but changes nothing, so callers round the bits up to a few classes rather
/// than branch per bit. Building with BKT_MATCH_ANY uses the hardware __match_any_sync instead
/// (measured faster for one bit, slower for eight; docs/primitives/multisplit.md).
template <int Bits>
__device__ __forceinline__ unsigned match_bucket(unsigned bucket, unsigned active) {
#ifdef BKT_MATCH_ANY
  return __match_any_sync(full_warp_mask, bucket) & active;
#else
  unsigned peers = active;
#pragma unroll
  for (int bit = 0; bit < Bits; ++bit) {
    const bool set = (bucket >> bit) & 1u;
    const unsigned plane = __ballot_sync(full_warp_mask, set);
    peers &= set ? plane : ~plane;
  }
  return peers;
#endif
}

}  // namespace bkt::detail
