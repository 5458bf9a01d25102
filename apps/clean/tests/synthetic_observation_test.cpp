// The synthetic generator: a PSF that prepare_psf accepts, a dirty image that is the sky convolved
// with it plus the asked-for noise, the same output for the same seed, and sources that keep apart.
#include <gtest/gtest.h>

#include <cmath>

#include "deconvolve.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/psf_convolution.hpp"
#include "synthetic/uv_psf.hpp"

namespace bkt::clean {
namespace {

TEST(synthetic_uv_psf, peaks_at_one_in_the_centre_and_is_symmetric) {
  for (const std::int64_t size : {64, 65, 128}) {
    synthetic::uv_coverage_config coverage;
    coverage.width = size;
    coverage.height = size + 2;
    const image psf = synthetic::make_uv_psf(coverage);
    const std::int64_t cx = psf_centre(psf.width), cy = psf_centre(psf.height);
    EXPECT_EQ(psf.at(cx, cy), 1.0f);
    float largest_elsewhere = 0;
    for (std::int64_t y = 0; y < psf.height; ++y)
      for (std::int64_t x = 0; x < psf.width; ++x)
        if (x != cx || y != cy) largest_elsewhere = std::max(largest_elsewhere, std::fabs(psf.at(x, y)));
    EXPECT_LT(largest_elsewhere, 0.99f);
    // A sum of cosines: psf(centre + d) = psf(centre - d).
    EXPECT_NEAR(psf.at(cx + 5, cy - 3), psf.at(cx - 5, cy + 3), 1e-5);
    EXPECT_NEAR(psf.at(cx + 17, cy + 11), psf.at(cx - 17, cy - 11), 1e-5);
    EXPECT_NO_THROW(prepare_psf(psf, image{size, size + 2, {}}, "synthetic"));
  }
}

TEST(synthetic_uv_psf, snapshots_have_higher_sidelobes_than_long_tracks) {
  synthetic::uv_coverage_config coverage;
  coverage.width = coverage.height = 128;
  coverage.hour_angle_steps = 1;
  const double snapshot = max_sidelobe(synthetic::make_uv_psf(coverage));
  coverage.hour_angle_steps = 16;
  const double track = max_sidelobe(synthetic::make_uv_psf(coverage));
  EXPECT_GT(snapshot, 0.2);
  EXPECT_LT(track, 0.15);
}

TEST(synthetic_observation, dirty_is_the_sky_convolved_with_the_psf) {
  for (const bool twice : {false, true}) {
    synthetic::observation_config config;
    config.width = 40;
    config.height = 30;
    config.psf_twice_size = twice;
    config.points = {{5, 5, 1}, {30, 20, -0.5}};
    config.extended = {{20, 12, 0.1, 5, 3, 0.3}};
    const synthetic::observation made = synthetic::make_observation(config);
    EXPECT_EQ(made.psf.width, twice ? 80 : 40);
    EXPECT_EQ(made.psf.height, twice ? 60 : 30);
    EXPECT_FLOAT_EQ(made.sky.at(5, 5), 1.0f);
    EXPECT_NEAR(made.sky.at(20, 12), 0.1, 1e-6);
    const image want = synthetic::convolve_direct(made.sky, made.psf);
    for (std::int64_t i = 0; i < want.size(); ++i) ASSERT_NEAR(made.dirty.pixels[i], want.pixels[i], 1e-5) << i;
  }
}

TEST(synthetic_observation, adds_seeded_noise) {
  synthetic::observation_config config;
  config.width = config.height = 128;
  config.noise_sigma = 0.01;
  config.seed = 4;
  const synthetic::observation first = synthetic::make_observation(config);
  EXPECT_NEAR(mad_sigma(first.dirty, clean_params{}), 0.01, 0.0005);
  EXPECT_EQ(synthetic::make_observation(config).dirty.pixels, first.dirty.pixels);
  config.seed = 5;
  EXPECT_NE(synthetic::make_observation(config).dirty.pixels, first.dirty.pixels);
}

TEST(synthetic_observation, refuses_a_source_off_the_image) {
  synthetic::observation_config config;
  config.width = config.height = 16;
  config.points = {{16, 0, 1}};
  EXPECT_THROW(synthetic::make_observation(config), std::invalid_argument);
}

TEST(synthetic_random_point_sources, keep_their_distance_and_margin) {
  const auto sources = synthetic::random_point_sources(200, 100, 30, 0.5, 2, 12, 8, 21);
  ASSERT_EQ(sources.size(), 30u);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    EXPECT_GE(sources[i].x, 8);
    EXPECT_LT(sources[i].x, 192);
    EXPECT_GE(sources[i].y, 8);
    EXPECT_LT(sources[i].y, 92);
    EXPECT_GE(sources[i].flux, 0.5);
    EXPECT_LT(sources[i].flux, 2);
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_GE(std::hypot(static_cast<double>(sources[i].x - sources[j].x),
                           static_cast<double>(sources[i].y - sources[j].y)),
                12);
  }
  EXPECT_EQ(synthetic::random_point_sources(200, 100, 30, 0.5, 2, 12, 8, 21).front().x, sources.front().x);
}

}  // namespace
}  // namespace bkt::clean
