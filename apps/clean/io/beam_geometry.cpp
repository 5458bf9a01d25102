// Both directions go through the ellipse's second-moment matrix: a linear map A takes the
// covariance S of a Gaussian to A S A^T, and FWHMs are the square roots of its eigenvalues (up to
// the same constant on both sides, which cancels). So no Gaussian is ever sampled here.
#include "beam_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {
namespace {

struct matrix2 {
  double a, b, c, d;  // [[a, b], [c, d]]
};

/// Symmetric second-moment matrix [[xx, xy], [xy, yy]] of an ellipse.
struct moments {
  double xx, xy, yy;
};

moments ellipse_moments(double major, double minor, double angle) {
  const double cos_angle = std::cos(angle), sin_angle = std::sin(angle);
  const double major2 = major * major, minor2 = minor * minor;
  return {major2 * cos_angle * cos_angle + minor2 * sin_angle * sin_angle,
          (major2 - minor2) * cos_angle * sin_angle,
          major2 * sin_angle * sin_angle + minor2 * cos_angle * cos_angle};
}

/// A S A^T for a symmetric S.
moments transform(const matrix2& m, const moments& s) {
  // Rows of A S: (a sxx + b sxy, a sxy + b syy) and (c sxx + d sxy, c sxy + d syy).
  const double r0x = m.a * s.xx + m.b * s.xy, r0y = m.a * s.xy + m.b * s.yy;
  const double r1x = m.c * s.xx + m.d * s.xy, r1y = m.c * s.xy + m.d * s.yy;
  return {r0x * m.a + r0y * m.b, r0x * m.c + r0y * m.d, r1x * m.c + r1y * m.d};
}

/// The ellipse of second moments s: major, minor and the major axis's angle from the first axis
/// toward the second.
beam ellipse_of(const moments& s) {
  const double mean = (s.xx + s.yy) / 2, half_difference = (s.xx - s.yy) / 2;
  const double radius = std::hypot(half_difference, s.xy);
  return {std::sqrt(std::max(mean + radius, 0.0)), std::sqrt(std::max(mean - radius, 0.0)),
          0.5 * std::atan2(2 * s.xy, s.xx - s.yy)};
}

/// An angle in degrees folded into (-90, 90]: an ellipse's axis has no direction.
double fold_axis_angle(double degrees) {
  degrees = std::fmod(degrees, 180.0);
  if (degrees <= -90) degrees += 180;
  if (degrees > 90) degrees -= 180;
  return degrees;
}

}  // namespace

sky_beam beam_on_sky(const beam& pixel_beam, const pixel_scale& scale) {
  const matrix2 to_sky{scale.east_x, scale.east_y, scale.north_x, scale.north_y};
  const beam on_sky =
      ellipse_of(transform(to_sky, ellipse_moments(pixel_beam.major_fwhm, pixel_beam.minor_fwhm, pixel_beam.angle)));
  // on_sky.angle runs from east toward north; the position angle runs from north toward east,
  // so PA = 90 deg - angle. (With the usual orientation, RA increasing to the left, a beam at
  // angle t from +x counter-clockwise has PA = t - 90 deg.)
  const double from_east_deg = on_sky.angle * 180 / std::numbers::pi;
  return {on_sky.major_fwhm, on_sky.minor_fwhm, fold_axis_angle(90 - from_east_deg)};
}

beam beam_in_pixels(const sky_beam& sky, const pixel_scale& scale) {
  const double determinant = scale.east_x * scale.north_y - scale.east_y * scale.north_x;
  if (determinant == 0 || !std::isfinite(determinant))
    throw bkt::apps::app_error("the image's pixel scale is singular: cannot convert a beam to pixels");
  const matrix2 to_pixels{scale.north_y / determinant, -scale.east_y / determinant, -scale.north_x / determinant,
                          scale.east_x / determinant};
  const double from_east = (90 - sky.position_angle_deg) * std::numbers::pi / 180;
  return ellipse_of(transform(to_pixels, ellipse_moments(sky.major_deg, sky.minor_deg, from_east)));
}

}  // namespace bkt::clean
