// The joint engine's components as the source list gives them: merged per (x, y, scale) over the
// run, their per-channel fluxes summed; with --fit-spectral-pol the flux is the fitted
// polynomial (its first term at the reference frequency, the others WSClean's spectral terms),
// else, over several channels, their weighted mean.
#pragma once

#include <cstdint>
#include <vector>

#include "io/component_list.hpp"
#include "io/sky_wcs.hpp"
#include "joint/joint_clean.hpp"

namespace bkt::clean {

/// Where one engine run's channels sit among the run's input channels, and on the sky.
struct component_placement {
  std::vector<std::size_t> input_channels;   // engine channel c is input channel input_channels[c]
  std::size_t input_channel_count = 0;
  std::int64_t plane = 0;                    // a cube's plane cleaned alone; 0 when joined
  std::vector<std::int64_t> plane_position;  // for the sky positions
};

/// The components of `result` (a run over `channels` with `spectral_terms` terms, 0 for none),
/// merged, with sky positions and Gaussian sizes from `wcs`; ordered by scale, then by
/// descending |flux| (ties: lower y, then lower x). Components whose merged fluxes cancel to 0 in
/// every channel are left out.
std::vector<scaled_component> merge_components(const joint_result& result, const channel_set& channels,
                                               int spectral_terms, const component_placement& placement,
                                               const sky_wcs& wcs);

}  // namespace bkt::clean
