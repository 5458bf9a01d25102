// prepare_psf's checks and messages, and max_sidelobe on analytic PSFs and the simulated VLA PSF.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <filesystem>
#include <limits>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "cpu/main_lobe.hpp"
#include "deconvolve.hpp"

#ifndef BKT_DATA_DIR
#define BKT_DATA_DIR "/work/main/data"
#endif

namespace bkt::clean {
namespace {

image blank(std::int64_t width, std::int64_t height) {
  return image{width, height, std::vector<float>(static_cast<std::size_t>(width * height), 0.0f)};
}

// A circular Gaussian of peak `peak` at the centre with sigma 2 pixels.
image gaussian_psf(std::int64_t width, std::int64_t height, float peak = 1) {
  image psf = blank(width, height);
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x) {
      const double dx = static_cast<double>(x - psf_centre(width));
      const double dy = static_cast<double>(y - psf_centre(height));
      psf.at(x, y) = static_cast<float>(peak * std::exp(-(dx * dx + dy * dy) / 8));
    }
  return psf;
}

// The message prepare_psf throws, without the "psf.fits: " it must start with; empty if none.
std::string problem_of(const image& psf, const image& dirty) {
  try {
    prepare_psf(psf, dirty, "psf.fits");
  } catch (const apps::app_error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("psf.fits: ", 0), 0u) << message;
    EXPECT_EQ(error.code(), apps::exit_bad_input);
    return message.substr(10);
  }
  return {};
}

TEST(prepare_psf, divides_by_the_centre_value) {
  const image prepared = prepare_psf(gaussian_psf(32, 32, 4), blank(32, 32), "psf.fits");
  EXPECT_EQ(prepared.at(16, 16), 1.0f);
  EXPECT_FLOAT_EQ(prepared.at(17, 16), std::exp(-1.0f / 8));
}

TEST(prepare_psf, accepts_the_same_size_or_twice_it) {
  EXPECT_EQ(problem_of(gaussian_psf(30, 20), blank(30, 20)), "");
  EXPECT_EQ(problem_of(gaussian_psf(60, 40), blank(30, 20)), "");
  EXPECT_EQ(problem_of(gaussian_psf(31, 21), blank(31, 21)), "");  // odd: centre (15, 10)
}

TEST(prepare_psf, refuses_other_sizes) {
  EXPECT_EQ(problem_of(gaussian_psf(60, 20), blank(30, 20)),
            "PSF is 60 x 20 pixels; it must be the dirty image's size (30 x 20) or twice it (60 x 40)");
  EXPECT_NE(problem_of(gaussian_psf(20, 30), blank(30, 20)), "");
  EXPECT_NE(problem_of(blank(0, 0), blank(0, 0)), "");
}

TEST(prepare_psf, refuses_a_peak_away_from_the_centre) {
  image psf = gaussian_psf(256, 256);
  psf.at(10, 12) = 2;
  EXPECT_EQ(problem_of(psf, blank(256, 256)), "PSF peak is at pixel (10, 12), not at the centre (128, 128)");
  psf.at(10, 12) = -2;  // the peak is of |value|
  EXPECT_EQ(problem_of(psf, blank(256, 256)), "PSF peak is at pixel (10, 12), not at the centre (128, 128)");
}

TEST(prepare_psf, accepts_a_sidelobe_as_large_as_the_centre) {
  image psf = gaussian_psf(32, 32);
  psf.at(3, 3) = -1;
  EXPECT_EQ(problem_of(psf, blank(32, 32)), "");
}

TEST(prepare_psf, refuses_a_centre_that_is_not_positive) {
  EXPECT_EQ(problem_of(gaussian_psf(32, 32, -1), blank(32, 32)),
            "PSF peak at the centre (16, 16) is -1; it must be positive");
  EXPECT_EQ(problem_of(blank(32, 32), blank(32, 32)), "PSF peak at the centre (16, 16) is 0; it must be positive");
}

TEST(prepare_psf, refuses_nan_and_infinity) {
  image psf = gaussian_psf(32, 32);
  psf.at(12, 40 % 32) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(problem_of(psf, blank(32, 32)), "NaN at pixel (12, 8)");
  psf = gaussian_psf(32, 32);
  psf.at(5, 6) = -std::numeric_limits<float>::infinity();
  EXPECT_EQ(problem_of(psf, blank(32, 32)), "infinite value at pixel (5, 6)");
}

TEST(max_sidelobe, is_zero_for_a_psf_that_only_falls) {
  EXPECT_EQ(max_sidelobe(gaussian_psf(64, 64)), 0.0);
}

TEST(max_sidelobe, finds_a_ring_outside_the_main_lobe) {
  image psf = gaussian_psf(64, 64);
  for (std::int64_t y = 0; y < 64; ++y)
    for (std::int64_t x = 0; x < 64; ++x) {
      const double radius = std::hypot(static_cast<double>(x - 32), static_cast<double>(y - 32));
      psf.at(x, y) += static_cast<float>(0.3 * std::exp(-(radius - 12) * (radius - 12) / 2));
    }
  // The ring's crest is 0.3 (plus the Gaussian's tail there, about 1e-8).
  EXPECT_NEAR(max_sidelobe(psf), 0.3, 1e-4);
}

TEST(max_sidelobe, counts_negative_sidelobes_by_magnitude) {
  image psf = gaussian_psf(64, 64);
  psf.at(50, 10) = -0.4f;
  psf.at(5, 5) = 0.2f;
  EXPECT_FLOAT_EQ(static_cast<float>(max_sidelobe(psf)), 0.4f);
}

TEST(main_lobe, stops_where_the_psf_stops_falling) {
  image psf = gaussian_psf(64, 64);
  psf.at(40, 32) = 0.5f;  // a bump on the skirt: climbing to it is not allowed
  const std::vector<std::uint8_t> lobe = cpu::main_lobe(psf);
  EXPECT_EQ(lobe[32 * 64 + 32], 1);
  EXPECT_EQ(lobe[32 * 64 + 36], 1);
  EXPECT_EQ(lobe[32 * 64 + 40], 0);
  EXPECT_FLOAT_EQ(static_cast<float>(max_sidelobe(psf)), 0.5f);
}

// The first plane of a FITS image (the simulated files are 4-D with two axes of length 1).
image read_fits_plane(const std::string& path) {
  fitsfile* file = nullptr;
  int status = 0;
  long axes[4] = {1, 1, 1, 1};
  int axis_count = 0;
  fits_open_file(&file, path.c_str(), READONLY, &status);
  fits_get_img_dim(file, &axis_count, &status);
  fits_get_img_size(file, 4, axes, &status);
  image plane{axes[0], axes[1], std::vector<float>(static_cast<std::size_t>(axes[0] * axes[1]))};
  long first[4] = {1, 1, 1, 1};
  fits_read_pix(file, TFLOAT, first, plane.size(), nullptr, plane.pixels.data(), nullptr, &status);
  int close_status = 0;
  fits_close_file(file, &close_status);
  EXPECT_EQ(status, 0) << path;
  return plane;
}

// The simulated VLA PSF (data/README.md) has a broad positive shelf round its core, falling
// monotonically from 1 to about 0.03 some 25 pixels out: by max_sidelobe's definition (the lobe is
// grown while the PSF keeps falling and stays positive) the shelf is main lobe and the largest
// sidelobe beyond it is 0.027. The README's "about 0.52" is the lobe itself 4 pixels from the
// centre along its major axis (y): that is what excluding a 7 x 7 box gives.
TEST(max_sidelobe, simulated_vla_psf) {
  const std::string path = std::string(BKT_DATA_DIR) + "/clean/yarray-sim-256/sim-psf.fits";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  const image psf = prepare_psf(read_fits_plane(path), blank(256, 256), path);
  EXPECT_NEAR(psf.at(128, 124), 0.52, 0.005);
  EXPECT_EQ(cpu::main_lobe(psf)[124 * 256 + 128], 1);
  EXPECT_NEAR(max_sidelobe(psf), 0.0268, 0.0005);
}

TEST(fit_beam, simulated_vla_psf) {
  const std::string path = std::string(BKT_DATA_DIR) + "/clean/yarray-sim-256/sim-psf.fits";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  const beam fitted = fit_beam(prepare_psf(read_fits_plane(path), blank(256, 256), path));
  // The core is about 6 pixels across x and 8 along y (above): a beam elongated along y.
  EXPECT_GT(fitted.major_fwhm, 6.5);
  EXPECT_LT(fitted.major_fwhm, 10);
  EXPECT_GT(fitted.minor_fwhm, 4.5);
  EXPECT_LT(fitted.minor_fwhm, fitted.major_fwhm);
  EXPECT_NEAR(fitted.angle, std::numbers::pi / 2, 0.1);
}

}  // namespace
}  // namespace bkt::clean
