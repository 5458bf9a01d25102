// restore (one component is the beam times its flux; a dense model through FFTs matches the
// direct sum; NaN stays NaN) and mad_sigma on known values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "bkt_apps/app_error.hpp"
#include "cpu/beam_kernel.hpp"
#include "deconvolve.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean {
namespace {

constexpr float nan_value = std::numeric_limits<float>::quiet_NaN();

image filled(std::int64_t width, std::int64_t height, float value = 0) {
  return image{width, height, std::vector<float>(static_cast<std::size_t>(width * height), value)};
}

// model (*) beam + residual, summed in double over every component, with the 5-sigma box restore
// uses (values beyond it are below 4e-6 of the flux).
double expected_restored(const image& model, const image& residual, const beam& shape, std::int64_t x, std::int64_t y) {
  double sum = residual.at(x, y);
  const cpu::sampled_beam box = cpu::sample_beam(shape, model.width - 1, model.height - 1);
  for (std::int64_t py = 0; py < model.height; ++py)
    for (std::int64_t px = 0; px < model.width; ++px)
      if (std::abs(x - px) <= box.half_width_x && std::abs(y - py) <= box.half_width_y)
        sum += model.at(px, py) * cpu::beam_value(shape, static_cast<double>(x - px), static_cast<double>(y - py));
  return sum;
}

TEST(restore, one_component_becomes_the_beam_times_its_flux) {
  const beam shape{5, 3, 0.7};
  image model = filled(48, 40);
  model.at(20, 17) = 2.5f;
  const image residual = filled(48, 40, 0.125f);
  const image restored = restore(model, residual, shape);
  for (std::int64_t y = 0; y < 40; ++y)
    for (std::int64_t x = 0; x < 48; ++x) {
      const double beam_part = 2.5 * cpu::beam_value(shape, static_cast<double>(x - 20), static_cast<double>(y - 17));
      ASSERT_NEAR(restored.at(x, y), 0.125 + beam_part, 1e-5) << x << ", " << y;
    }
  EXPECT_FLOAT_EQ(restored.at(20, 17), 2.625f);  // flux per pixel -> flux per beam: the peak is the flux
}

TEST(restore, dense_model_matches_the_direct_sum) {
  // Every pixel a component: restore takes the FFT path.
  const beam shape{4, 2.5, 2.2};
  synthetic::seeded_random random(3);
  image model = filled(40, 36);
  image residual = filled(40, 36);
  for (float& value : model.pixels) value = static_cast<float>(random.uniform(-1, 1));
  for (float& value : residual.pixels) value = static_cast<float>(random.uniform(-0.1, 0.1));
  const image restored = restore(model, residual, shape);
  for (const auto& [x, y] : {std::pair{0, 0}, {39, 35}, {17, 9}, {3, 30}, {39, 0}})
    EXPECT_NEAR(restored.at(x, y), expected_restored(model, residual, shape, x, y), 2e-5) << x << ", " << y;
}

TEST(restore, nan_residual_pixels_stay_nan) {
  for (const bool dense : {false, true}) {
    image model = filled(32, 32, dense ? 0.5f : 0.0f);
    model.at(10, 10) = 1;
    image residual = filled(32, 32);
    residual.at(11, 10) = nan_value;
    const image restored = restore(model, residual, beam{3, 3, 0});
    EXPECT_TRUE(std::isnan(restored.at(11, 10)));
    EXPECT_FALSE(std::isnan(restored.at(12, 10)));
  }
}

TEST(restore, refuses_mismatched_sizes_and_bad_beams) {
  EXPECT_THROW(restore(filled(8, 8), filled(8, 9), beam{2, 2, 0}), apps::app_error);
  EXPECT_THROW(restore(filled(8, 8), filled(8, 8), beam{0, 2, 0}), apps::app_error);
  EXPECT_THROW(restore(filled(8, 8), filled(8, 8), beam{2, NAN, 0}), apps::app_error);
}

TEST(mad_sigma, known_values) {
  // 1..9: median 5, deviations 4 3 2 1 0 1 2 3 4, their median 2.
  image residual{9, 1, {3, 1, 4, 5, 9, 2, 6, 8, 7}};
  EXPECT_DOUBLE_EQ(mad_sigma(residual, clean_params{}), 1.4826 * 2);
  // Even count: 1 2 3 10 -> median 2.5; deviations 1.5 0.5 0.5 7.5 -> median 1.
  EXPECT_DOUBLE_EQ(mad_sigma(image{4, 1, {10, 1, 3, 2}}, clean_params{}), 1.4826);
}

TEST(mad_sigma, skips_nan_and_masked_pixels) {
  image residual{5, 1, {1, nan_value, 2, 100, 3}};
  clean_params params;
  params.mask = {1, 1, 1, 0, 1};  // leaves 1 2 3: median 2, deviations 1 0 1
  EXPECT_DOUBLE_EQ(mad_sigma(residual, params), 1.4826);
  params.mask = {0, 0, 0, 0, 0};
  EXPECT_EQ(mad_sigma(residual, params), 0.0);
  params.mask = {1, 1};
  EXPECT_THROW(mad_sigma(residual, params), apps::app_error);
}

TEST(mad_sigma, estimates_gaussian_noise_despite_sources) {
  synthetic::seeded_random random(11);
  image residual = filled(256, 256);
  for (float& value : residual.pixels) value = static_cast<float>(0.02 * random.normal());
  for (int i = 0; i < 200; ++i) residual.pixels[static_cast<std::size_t>(i) * 300] = 50;  // bright outliers
  EXPECT_NEAR(mad_sigma(residual, clean_params{}), 0.02, 0.0006);
}

}  // namespace
}  // namespace bkt::clean
