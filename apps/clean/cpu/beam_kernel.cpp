#include "cpu/beam_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean::cpu {

double beam_value(const beam& restoring_beam, double dx, double dy) {
  const double sigma_major = restoring_beam.major_fwhm / fwhm_per_sigma;
  const double sigma_minor = restoring_beam.minor_fwhm / fwhm_per_sigma;
  const double cos_angle = std::cos(restoring_beam.angle);
  const double sin_angle = std::sin(restoring_beam.angle);
  const double along_major = dx * cos_angle + dy * sin_angle;
  const double along_minor = -dx * sin_angle + dy * cos_angle;
  return std::exp(-0.5 * (along_major * along_major / (sigma_major * sigma_major) +
                          along_minor * along_minor / (sigma_minor * sigma_minor)));
}

sampled_beam sample_beam(const beam& restoring_beam, std::int64_t max_half_width_x, std::int64_t max_half_width_y) {
  const double sigma_major = restoring_beam.major_fwhm / fwhm_per_sigma;
  const double sigma_minor = restoring_beam.minor_fwhm / fwhm_per_sigma;
  const double cos_angle = std::cos(restoring_beam.angle);
  const double sin_angle = std::sin(restoring_beam.angle);
  // Half extents of the rotated 5-sigma ellipse along x and y.
  const double reach_x = 5 * std::hypot(sigma_major * cos_angle, sigma_minor * sin_angle);
  const double reach_y = 5 * std::hypot(sigma_major * sin_angle, sigma_minor * cos_angle);
  sampled_beam sampled;
  sampled.half_width_x = std::min(static_cast<std::int64_t>(std::ceil(reach_x)), max_half_width_x);
  sampled.half_width_y = std::min(static_cast<std::int64_t>(std::ceil(reach_y)), max_half_width_y);
  sampled.values.width = 2 * sampled.half_width_x + 1;
  sampled.values.height = 2 * sampled.half_width_y + 1;
  sampled.values.pixels.resize(static_cast<std::size_t>(sampled.values.size()));
  for (std::int64_t y = 0; y < sampled.values.height; ++y)
    for (std::int64_t x = 0; x < sampled.values.width; ++x)
      sampled.values.at(x, y) = static_cast<float>(
          beam_value(restoring_beam, static_cast<double>(x - sampled.half_width_x),
                     static_cast<double>(y - sampled.half_width_y)));
  return sampled;
}

void check_beam(const beam& restoring_beam) {
  const bool valid = std::isfinite(restoring_beam.major_fwhm) && std::isfinite(restoring_beam.minor_fwhm) &&
                     restoring_beam.major_fwhm > 0 && restoring_beam.minor_fwhm > 0 &&
                     std::isfinite(restoring_beam.angle);
  if (!valid)
    throw apps::app_error("restoring beam: widths must be positive and finite (major " +
                          std::to_string(restoring_beam.major_fwhm) + ", minor " +
                          std::to_string(restoring_beam.minor_fwhm) + " pixels)");
}

}  // namespace bkt::clean::cpu
