// A realistic dirty beam (PSF) for tests and benchmarks: the transform of the uv coverage of a
// Y-shaped array (like the VLA) tracking a source for a while as the Earth turns.
#pragma once

#include <cstdint>

#include "image.hpp"

namespace bkt::clean::synthetic {

struct uv_coverage_config {
  std::int64_t width = 256;  // of the PSF
  std::int64_t height = 256;
  int antennas_per_arm = 9;       // three arms, 120 degrees apart
  int hour_angle_steps = 8;       // snapshots along the track (1: a snapshot, high sidelobes)
  double hour_angle_span = 1.0;   // radians of Earth rotation (about 4 hours)
  double declination = 0.7854;    // radians: v shrinks by sin(declination), so the beam is elliptical
  double max_uv_fraction = 0.7;   // longest baseline, as a fraction of the highest frequency the
                                  // pixel grid holds; 0.7 gives a main lobe about 5 x 3.7 pixels
  std::uint64_t seed = 1;         // the array's rotation and its antennas' small offsets
};

/// The PSF of that coverage with natural weighting, each baseline rounded to the pixel grid's uv
/// cells: sum of cos(2 pi (u dx / width + v dy / height)) over samples, divided by their count, so
/// the peak is exactly 1 at psf_centre. Sidelobes (max_sidelobe) run from about 0.05 for 16 steps
/// to 0.3 for one. Throws std::invalid_argument
/// on a bad config.
image make_uv_psf(const uv_coverage_config& config);

}  // namespace bkt::clean::synthetic
