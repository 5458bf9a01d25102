// fit_beam on analytic elliptical Gaussians at several angles, a synthetic PSF with sidelobes,
// and PSFs too narrow to fit; beam_value's conventions.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "bkt_apps/app_error.hpp"
#include "cpu/beam_kernel.hpp"
#include "deconvolve.hpp"
#include "synthetic/uv_psf.hpp"

namespace bkt::clean {
namespace {

image psf_of_beam(const beam& shape, std::int64_t width, std::int64_t height) {
  image psf{width, height, std::vector<float>(static_cast<std::size_t>(width * height))};
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x)
      psf.at(x, y) = static_cast<float>(cpu::beam_value(shape, static_cast<double>(x - psf_centre(width)),
                                                        static_cast<double>(y - psf_centre(height))));
  return psf;
}

// Angles are the same modulo pi.
double angle_distance(double a, double b) {
  const double difference = std::fmod(std::fabs(a - b), std::numbers::pi);
  return std::min(difference, std::numbers::pi - difference);
}

TEST(beam_value, is_half_at_half_the_fwhm_along_each_axis) {
  const beam shape{6, 3, 0.5};
  EXPECT_DOUBLE_EQ(cpu::beam_value(shape, 0, 0), 1.0);
  EXPECT_NEAR(cpu::beam_value(shape, 3 * std::cos(0.5), 3 * std::sin(0.5)), 0.5, 1e-12);
  EXPECT_NEAR(cpu::beam_value(shape, -1.5 * std::sin(0.5), 1.5 * std::cos(0.5)), 0.5, 1e-12);
}

TEST(fit_beam, recovers_a_rotated_elliptical_gaussian) {
  for (const double angle : {0.0, 0.3, 1.0, std::numbers::pi / 2, 2.0, 3.0}) {
    SCOPED_TRACE("angle " + std::to_string(angle));
    const beam truth{7.0, 3.5, angle};
    const beam fitted = fit_beam(psf_of_beam(truth, 64, 64));
    EXPECT_NEAR(fitted.major_fwhm, truth.major_fwhm, 1e-3);
    EXPECT_NEAR(fitted.minor_fwhm, truth.minor_fwhm, 1e-3);
    EXPECT_LT(angle_distance(fitted.angle, truth.angle), 1e-3);
    EXPECT_GE(fitted.angle, 0);
    EXPECT_LT(fitted.angle, std::numbers::pi);
  }
}

TEST(fit_beam, orders_major_before_minor) {
  // Given the other way round (minor > major), the fit swaps them and turns the angle by pi/2.
  const beam fitted = fit_beam(psf_of_beam(beam{3, 6, 0.2}, 48, 48));
  EXPECT_NEAR(fitted.major_fwhm, 6, 1e-3);
  EXPECT_NEAR(fitted.minor_fwhm, 3, 1e-3);
  EXPECT_LT(angle_distance(fitted.angle, 0.2 + std::numbers::pi / 2), 1e-3);
}

TEST(fit_beam, circular_beam_on_an_odd_and_a_twice_sized_grid) {
  for (const std::int64_t size : {33, 128}) {
    const beam fitted = fit_beam(psf_of_beam(beam{4, 4, 0}, size, size));
    EXPECT_NEAR(fitted.major_fwhm, 4, 1e-3);
    EXPECT_NEAR(fitted.minor_fwhm, 4, 1e-3);
  }
}

TEST(fit_beam, ignores_sidelobes) {
  image psf = psf_of_beam(beam{5, 4, 1.2}, 64, 64);
  for (std::int64_t x = 0; x < 64; ++x) psf.at(x, 20) += 0.45f;  // a strong stripe outside the lobe
  const beam fitted = fit_beam(psf);
  EXPECT_NEAR(fitted.major_fwhm, 5, 1e-3);
  EXPECT_NEAR(fitted.minor_fwhm, 4, 1e-3);
}

TEST(fit_beam, synthetic_uv_psf_is_sane) {
  synthetic::uv_coverage_config coverage;
  coverage.width = coverage.height = 128;
  const beam fitted = fit_beam(synthetic::make_uv_psf(coverage));
  // 0.7 of the grid's highest frequency: a lobe about 5 x 3.7 pixels, long along y (declination).
  EXPECT_GT(fitted.major_fwhm, 4);
  EXPECT_LT(fitted.major_fwhm, 7);
  EXPECT_GT(fitted.minor_fwhm, 2.5);
  EXPECT_LE(fitted.minor_fwhm, fitted.major_fwhm);
  EXPECT_LT(angle_distance(fitted.angle, std::numbers::pi / 2), 0.2);
}

TEST(fit_beam, refuses_a_lobe_too_narrow_to_fit) {
  image delta{16, 16, std::vector<float>(256, 0.0f)};
  delta.at(8, 8) = 1;
  EXPECT_THROW(fit_beam(delta), apps::app_error);
  delta.at(9, 8) = delta.at(7, 8) = 0.5f;  // a line: no width along y
  EXPECT_THROW(fit_beam(delta), apps::app_error);
}

}  // namespace
}  // namespace bkt::clean
