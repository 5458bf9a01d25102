// Under mpirun the planes of a cube are spread over the ranks (plane i of the selection to rank
// i mod N); rank 0 gathers every plane's images and summary and writes the outputs, so that they
// are the bytes a one-process run writes.
#pragma once

#include <cstdint>
#include <vector>

#include "bkt_apps/ranks.hpp"
#include "io/clean_outputs.hpp"
#include "summary.hpp"

namespace bkt::clean {

/// The rank that deconvolves the i-th selected plane.
inline int plane_owner(std::size_t index, const bkt::apps::rank_context& ranks) {
  return static_cast<int>(index % static_cast<std::size_t>(ranks.size()));
}

/// Collective, the summaries' half of gather_planes_to_root (through MPI; no GPU): on return rank
/// 0's `summaries` hold every rank's entries, noise cycles included.
void gather_plane_summaries(std::vector<plane_summary>& summaries, bkt::apps::rank_context& ranks);

/// Collective. On entry each rank holds its own planes' entries (index i of the selection where
/// plane_owner(i) is the rank); on return rank 0 holds every entry: summaries through MPI (a few
/// hundred bytes each), model and residual images through NCCL on the ranks' GPUs. `width` x
/// `height` is every plane's size. Throws usage_error in a build without bkt::dist.
void gather_planes_to_root(std::vector<plane_images>& images, std::vector<plane_summary>& summaries,
                           std::int64_t width, std::int64_t height, bkt::apps::rank_context& ranks);

}  // namespace bkt::clean
