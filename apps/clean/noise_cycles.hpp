// --auto-threshold and --auto-mask with WSClean's meaning: the noise is measured again on the
// residual at every cycle, not once on the dirty image, so that the sources' sidelobes, which
// inflate the first measurement, stop raising the threshold once they are cleaned.
//
// A cycle ends once the peak has fallen by mgain, where Clark's major cycle (and WSClean's) ends;
// Högbom, which has no major cycles, is cut at the same points. Each cycle:
//  1. sigma = 1.4826 x MAD of the residual over the candidate pixels (mad_sigma; the user's mask,
//     never the auto-mask, which holds the sources);
//  2. the level is S x sigma (--auto-threshold S), or M x sigma while the auto-mask is not yet on
//     (--auto-mask M > S), and never below --threshold;
//  3. if the peak is at or below the level: with the auto-mask still off, it goes on (the mask
//     becomes the pixels that hold components, within the user's mask) and the cycle starts over
//     at S x sigma; else the run stops (threshold);
//  4. the deconvolution runs from the current residual with the threshold max(level, (1 - mgain)
//     x peak) and the components left of --niter; a stop other than threshold ends the run.
// The divergence rule compares each cycle's peaks with that cycle's first.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "image.hpp"

namespace bkt::clean {

/// What one cycle measured and did.
struct noise_cycle {
  double sigma = 0;            // the residual's MAD noise at the cycle's start
  double level = 0;            // the stopping level it aimed at (image units)
  std::int64_t iterations = 0; // components taken in the cycle
  bool masked = false;         // inside the auto-mask
};

/// The levels: auto_threshold S (none: --threshold alone), auto_mask M (none: no auto-mask).
struct noise_levels {
  std::optional<double> auto_threshold;
  std::optional<double> auto_mask;
};

/// One deconvolution from `dirty` with `params` (clean_cpu or clean_gpu on a stream).
using deconvolver = std::function<clean_result(const image& dirty, const clean_params& params)>;

/// The whole run by cycles; `cycles` receives one entry per cycle (the last one the one that
/// stopped). params.threshold is the floor (--threshold), params.mask the user's mask.
clean_result clean_by_noise_cycles(const image& dirty, const clean_params& params, const noise_levels& levels,
                                   const deconvolver& deconvolve, std::vector<noise_cycle>& cycles);

}  // namespace bkt::clean
