// The restoring beam as numbers: its value at an offset, and sampled on pixels for restore.
#pragma once

#include <cstdint>

#include "deconvolve.hpp"

namespace bkt::clean::cpu {

/// FWHM / sigma of a Gaussian: 2 sqrt(2 ln 2).
inline constexpr double fwhm_per_sigma = 2.3548200450309493;

/// The beam's value (1 at its centre) at (dx, dy) pixels from the centre.
double beam_value(const beam& restoring_beam, double dx, double dy);

/// The beam sampled on whole pixels over the box that holds its ellipse out to 5 sigma (beyond,
/// it is below 4e-6), at most max_half_width_x/y pixels either side; centre at (half_width_x,
/// half_width_y).
struct sampled_beam {
  image values;
  std::int64_t half_width_x = 0;
  std::int64_t half_width_y = 0;
};
sampled_beam sample_beam(const beam& restoring_beam, std::int64_t max_half_width_x, std::int64_t max_half_width_y);

/// Throws bkt::apps::app_error unless both widths are positive and finite and the angle finite.
void check_beam(const beam& restoring_beam);

}  // namespace bkt::clean::cpu
