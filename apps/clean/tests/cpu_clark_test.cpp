// Clark on the CPU: its FFT residual against a direct convolution, its depth against Högbom's on
// the same sky and budget (also on a crowded sky whose sidelobes reach past the minor cycle's
// patch), the correction of a batch for the PSF beyond the patch, and the stop rules, masks and
// NaN it shares with Högbom.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cpu/clark_minor_cycle.hpp"
#include "cpu/padded_convolver.hpp"
#include "deconvolve.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/psf_convolution.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean {
namespace {

constexpr float nan_value = std::numeric_limits<float>::quiet_NaN();

synthetic::observation crowded_observation(std::int64_t size, bool psf_twice_size, int hour_angle_steps,
                                           std::uint64_t seed) {
  synthetic::observation_config config;
  config.width = config.height = size;
  config.psf_twice_size = psf_twice_size;
  config.coverage.hour_angle_steps = hour_angle_steps;  // 1: a snapshot, sidelobes near 0.3
  config.points = synthetic::random_point_sources(size, size, 20, 0.2, 3, 6, 3, seed);
  config.extended = {{size * 0.6, size * 0.4, 0.2, 8, 5, 1.0}};
  config.noise_sigma = 0.005;
  config.seed = seed;
  return synthetic::make_observation(config);
}

double rms(const image& plane) {
  double sum = 0;
  std::int64_t count = 0;
  for (const float value : plane.pixels)
    if (!std::isnan(value)) {
      sum += static_cast<double>(value) * value;
      ++count;
    }
  return std::sqrt(sum / static_cast<double>(count));
}

clean_params clark_params(std::int64_t niter) {
  clean_params params;
  params.method = algorithm::clark;
  params.niter = niter;
  return params;
}

TEST(padded_convolver, matches_direct_convolution) {
  synthetic::seeded_random random(1);
  for (const auto& [width, height, kernel_width, kernel_height] :
       {std::array<std::int64_t, 4>{23, 17, 23, 17}, {23, 17, 46, 34}, {16, 16, 7, 5}, {30, 10, 60, 20}}) {
    image in{width, height, std::vector<float>(static_cast<std::size_t>(width * height))};
    image kernel = in;
    kernel.width = kernel_width;
    kernel.height = kernel_height;
    kernel.pixels.resize(static_cast<std::size_t>(kernel_width * kernel_height));
    for (float& value : in.pixels) value = static_cast<float>(random.uniform(-1, 1));
    for (float& value : kernel.pixels) value = static_cast<float>(random.uniform(-1, 1));
    cpu::padded_convolver convolver(kernel, psf_centre(kernel_width), psf_centre(kernel_height), width, height);
    image out = in;
    convolver.convolve(out.pixels.data(), out.pixels.data());  // in place
    const image want = synthetic::convolve_direct(in, kernel);
    for (std::int64_t i = 0; i < in.size(); ++i) ASSERT_NEAR(out.pixels[i], want.pixels[i], 1e-4) << i;
  }
}

TEST(clark_cpu, residual_is_dirty_minus_model_convolved_with_the_psf) {
  for (const bool twice : {false, true}) {
    const synthetic::observation sky = crowded_observation(64, twice, 1, 3);
    const clean_result result = clean_cpu(sky.dirty, sky.psf, clark_params(300));
    EXPECT_GE(result.major_cycles, 2);
    const image predicted = synthetic::convolve_direct(result.model, sky.psf);
    for (std::int64_t i = 0; i < sky.dirty.size(); ++i)
      ASSERT_NEAR(result.residual.pixels[i], sky.dirty.pixels[i] - predicted.pixels[i], 1e-4) << i;
  }
}

TEST(clark_cpu, cleans_as_deep_as_hogbom_with_the_same_budget) {
  for (const bool twice : {false, true})
    for (const int steps : {1, 8}) {
      SCOPED_TRACE(std::string(twice ? "PSF twice" : "PSF same") + ", hour angle steps " + std::to_string(steps));
      const synthetic::observation sky = crowded_observation(96, twice, steps, 7);
      clean_params hogbom_params;
      hogbom_params.niter = 1500;
      const clean_result hogbom = clean_cpu(sky.dirty, sky.psf, hogbom_params);
      const clean_result clark = clean_cpu(sky.dirty, sky.psf, clark_params(1500));
      EXPECT_EQ(clark.iterations, 1500);
      EXPECT_LT(rms(hogbom.residual), 0.05 * rms(sky.dirty));
      EXPECT_LT(rms(clark.residual), 1.2 * rms(hogbom.residual));
      EXPECT_GT(clark.major_cycles, 1);
    }
}

TEST(clark_cpu, cleans_a_crowded_sky_as_deep_as_hogbom) {
  // The sky of clark_gpu's test of the same name (the benchmark's at 512^2): 46 sources of 0.05
  // to 5, an extended one and noise 0.01, PSF 1024^2 with grating sidelobes of about 0.07
  // everywhere, so that both the candidate cap and the patch are in play. A minor cycle that
  // ignored the PSF beyond its patch for its whole length left 1.54x Högbom's RMS.
  synthetic::observation_config config;
  config.width = config.height = 512;
  config.psf_twice_size = true;
  config.points = synthetic::random_point_sources(512, 512, 46, 0.05, 5, 6, 16, 1);
  synthetic::seeded_random random(2);
  config.extended.push_back({random.uniform(0.1, 0.9) * 512, random.uniform(0.1, 0.9) * 512, random.uniform(0.01, 0.2),
                             random.uniform(4, 30), random.uniform(2, 10), random.uniform(0, 3.14)});
  config.noise_sigma = 0.01;
  config.seed = 3;
  const synthetic::observation sky = synthetic::make_observation(config);
  const clean_result clark = clean_cpu(sky.dirty, sky.psf, clark_params(3000));
  clean_params hogbom_params;
  hogbom_params.niter = 3000;
  const clean_result hogbom = clean_cpu(sky.dirty, sky.psf, hogbom_params);
  EXPECT_EQ(clark.iterations, 3000);
  EXPECT_GE(clark.major_cycles, 3);
  const double clark_rms = rms(clark.residual), hogbom_rms = rms(hogbom.residual);
  std::printf("    clark cpu rms %.6g (%lld cycles), hogbom %.6g, dirty %.6g\n", clark_rms,
              static_cast<long long>(clark.major_cycles), hogbom_rms, rms(sky.dirty));
  EXPECT_LT(clark_rms, 1.5 * hogbom_rms);
}

TEST(clark_cpu, counts_components_over_all_minor_cycles) {
  const synthetic::observation sky = crowded_observation(48, false, 1, 5);
  const clean_result result = clean_cpu(sky.dirty, sky.psf, clark_params(250));
  EXPECT_EQ(result.reason, stop_reason::niter);
  EXPECT_EQ(result.iterations, 250);
  EXPECT_EQ(result.components.size(), 250u);
  image summed{48, 48, std::vector<float>(48 * 48, 0.0f)};
  for (const component& c : result.components) summed.at(c.x, c.y) += static_cast<float>(c.flux);
  EXPECT_EQ(summed.pixels, result.model.pixels);
  // peak_residual is the largest |residual| of the last major cycle, which is the returned one.
  float largest = 0;
  for (const float value : result.residual.pixels) largest = std::max(largest, std::fabs(value));
  EXPECT_EQ(result.peak_residual, largest);
}

TEST(clark_cpu, stops_at_the_threshold_and_with_no_pixels) {
  const synthetic::observation sky = crowded_observation(48, false, 8, 5);
  clean_params params = clark_params(100000);
  params.threshold = 0.03;
  const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
  EXPECT_EQ(result.reason, stop_reason::threshold);
  EXPECT_LE(result.peak_residual, 0.03);
  params.mask.assign(sky.dirty.pixels.size(), 0);
  EXPECT_EQ(clean_cpu(sky.dirty, sky.psf, params).reason, stop_reason::no_pixels);
}

TEST(clark_cpu, first_major_cycle_is_hogbom_when_the_patch_covers_everything) {
  // A 64-pixel PSF fits the 128-pixel patch whole, and mgain 1 with every pixel selected
  // (a PSF with no sidelobe) makes the minor cycle exact Högbom over all pixels.
  synthetic::observation_config config;
  config.width = config.height = 32;
  config.points = {{8, 8, 1}, {20, 22, 2}};
  synthetic::observation sky = synthetic::make_observation(config);
  image psf = sky.psf;
  for (std::int64_t y = 0; y < 32; ++y)
    for (std::int64_t x = 0; x < 32; ++x) {
      const double r2 = std::pow(x - 16.0, 2) + std::pow(y - 16.0, 2);
      psf.at(x, y) = static_cast<float>(std::exp(-r2 / 6));
    }
  const image dirty = synthetic::convolve_direct(sky.sky, psf);
  clean_params params = clark_params(60);
  params.mgain = 1;
  const clean_result clark = clean_cpu(dirty, psf, params);
  params.method = algorithm::hogbom;
  const clean_result hogbom = clean_cpu(dirty, psf, params);
  ASSERT_EQ(clark.components.size(), hogbom.components.size());
  for (std::size_t i = 0; i < clark.components.size(); ++i) {
    EXPECT_EQ(clark.components[i].x, hogbom.components[i].x);
    EXPECT_EQ(clark.components[i].y, hogbom.components[i].y);
    EXPECT_EQ(clark.components[i].flux, hogbom.components[i].flux);
  }
}

TEST(clark_cpu, respects_nan_and_the_mask) {
  const synthetic::observation sky = crowded_observation(48, true, 1, 9);
  image dirty = sky.dirty;
  for (std::int64_t i = 0; i < dirty.size(); i += 7) dirty.pixels[i] = nan_value;
  clean_params params = clark_params(300);
  params.mask.assign(dirty.pixels.size(), 1);
  for (std::int64_t i = 0; i < dirty.size() / 2; ++i) params.mask[i] = 0;
  const clean_result result = clean_cpu(dirty, sky.psf, params);
  for (const component& c : result.components) {
    EXPECT_EQ(params.mask[c.y * 48 + c.x], 1);
    EXPECT_FALSE(std::isnan(dirty.at(c.x, c.y)));
  }
  for (std::int64_t i = 0; i < dirty.size(); i += 7) EXPECT_TRUE(std::isnan(result.residual.pixels[i]));
  EXPECT_FALSE(std::isnan(result.peak_residual));
}

TEST(clark_minor_cycle, keeps_the_largest_pixels_when_capped) {
  image residual{4, 2, {0.5f, -3, 2, 0.1f, 3, -1, 0.2f, 2}};
  const std::vector<std::uint8_t> candidates{1, 1, 1, 1, 1, 1, 1, 1};
  const cpu::minor_cycle_pixels kept = cpu::select_minor_cycle_pixels(residual, candidates, 0.4, 1, 3);
  // |values| 3 (index 1), 3 (index 4), then 2 at index 2 beats 2 at index 7; kept in index order.
  ASSERT_EQ(kept.values.size(), 3u);
  EXPECT_EQ(kept.values, (std::vector<float>{-3, 2, 3}));
  EXPECT_EQ(kept.x, (std::vector<std::int64_t>{1, 2, 0}));
  EXPECT_EQ(kept.y, (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_TRUE(kept.capped);
  EXPECT_EQ(kept.largest_left_out, 2.0f);  // index 7
  const cpu::minor_cycle_pixels all = cpu::select_minor_cycle_pixels(residual, candidates, 0.4, 1, 8);
  EXPECT_EQ(all.values.size(), 6u);
  EXPECT_FALSE(all.capped);
}

TEST(clark_minor_cycle, exterior_sidelobe_is_the_largest_reachable_psf_outside_the_patch) {
  const std::int64_t half = cpu::max_patch_half_width;
  image psf{600, 400, std::vector<float>(600 * 400, 0.01f)};
  psf.at(300, 200) = 1;
  psf.at(300 + half, 200 - half) = 0.9f;  // inside the patch
  psf.at(300 - half - 1, 200) = 0.3f;
  psf.at(300 + 299, 200) = 0.8f;  // beyond the reach of a 299-pixel-wide image
  EXPECT_EQ(cpu::exterior_sidelobe(psf, 300, 200), 0.8f);
  EXPECT_EQ(cpu::exterior_sidelobe(psf, 299, 200), 0.3f);
  // A PSF inside the patch leaves nothing outside it.
  const image small{100, 60, std::vector<float>(100 * 60, 0.5f)};
  EXPECT_EQ(cpu::exterior_sidelobe(small, 100, 60), 0.0);
}

TEST(clark_minor_cycle, correction_subtracts_the_psf_beyond_the_patch) {
  synthetic::seeded_random random(11);
  for (const auto& [width, height, psf_width, psf_height] :
       {std::array<std::int64_t, 4>{300, 200, 600, 400}, {300, 200, 300, 200}, {301, 150, 301, 150}}) {
    SCOPED_TRACE("image " + std::to_string(width) + " x " + std::to_string(height) + ", PSF " +
                 std::to_string(psf_width) + " x " + std::to_string(psf_height));
    image psf{psf_width, psf_height, std::vector<float>(static_cast<std::size_t>(psf_width * psf_height))};
    for (float& value : psf.pixels) value = static_cast<float>(random.uniform(-1, 1));
    cpu::minor_cycle_pixels pixels;
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x)
        if (random.uniform() < 0.1) {
          pixels.x.push_back(x);
          pixels.y.push_back(y);
          pixels.values.push_back(static_cast<float>(random.uniform(-1, 1)));
        }
    std::vector<component> batch;
    for (int i = 0; i < 20; ++i)
      batch.push_back({static_cast<std::int64_t>(random.uniform(0, 1) * (width - 1)),
                       static_cast<std::int64_t>(random.uniform(0, 1) * (height - 1)),
                       static_cast<float>(random.uniform(-1, 1))});
    batch.push_back({0, 0, 0.5f});
    batch.push_back({width - 1, height - 1, -0.5f});
    const cpu::minor_cycle_pixels before = pixels;
    cpu::correct_beyond_patch(pixels, psf, batch);
    const std::int64_t centre_x = psf_centre(psf_width), centre_y = psf_centre(psf_height);
    const std::int64_t half = cpu::max_patch_half_width;
    for (std::size_t i = 0; i < pixels.values.size(); ++i) {
      double want = before.values[i];
      for (const component& c : batch) {
        const std::int64_t dx = pixels.x[i] - c.x, dy = pixels.y[i] - c.y;
        const std::int64_t psf_x = centre_x + dx, psf_y = centre_y + dy;
        const bool in_psf = psf_x >= 0 && psf_x < psf_width && psf_y >= 0 && psf_y < psf_height;
        if (in_psf && (std::abs(dx) > half || std::abs(dy) > half)) want -= c.flux * psf.at(psf_x, psf_y);
      }
      ASSERT_NEAR(pixels.values[i], want, 1e-5) << "pixel " << pixels.x[i] << ", " << pixels.y[i];
    }
  }
}

}  // namespace
}  // namespace bkt::clean
