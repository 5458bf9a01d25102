// Clark's candidate pixels: every candidate's peak key (peak_key.hpp) and the peak in one pass,
// then those above a level, picked with the library's compaction and capped with its top_k.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bkt/workspace.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

/// keys[q] = pack_peak(R[q], q) for every candidate pixel q (not NaN, candidate bit set), else
/// no_peak; *peak = the largest of them (no_peak when none). keys holds geometry.pixels() words.
void pack_candidate_keys(const device_plane& plane, std::uint64_t* keys, std::uint64_t* peak, cudaStream_t stream);

/// Where the chosen candidates' keys ended up.
struct candidate_list {
  const std::uint64_t* keys = nullptr;  // device memory, `count` keys
  std::int64_t count = 0;
  bool capped = false;           // more were above the level; these are the `capacity` largest
  float largest_left_out = 0;    // when capped: the largest |R| of the keys left out
};

/// The keys with |R| > level (select_if into `selected`, which holds as many words as `keys`);
/// when more than `capacity`, the `capacity` largest (top_k into `capped`, which holds
/// capacity + 1 words: the next largest key tells largest_left_out). Waits for `stream` (to read
/// the count).
candidate_list select_candidates(const std::uint64_t* keys, std::int64_t num_keys, float level, std::int64_t capacity,
                                 std::uint64_t* selected, std::uint64_t* capped, std::int64_t* d_count, workspace& ws,
                                 cudaStream_t stream);

}  // namespace bkt::clean::gpu
