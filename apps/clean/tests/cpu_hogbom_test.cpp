// Högbom on the CPU: against a literal transcription of deconvolve.hpp's contract (bit for bit),
// recovery of point sources, the residual identity, stop reasons, NaN, mask and tie rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "deconvolve.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/psf_convolution.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean {
namespace {

constexpr float nan_value = std::numeric_limits<float>::quiet_NaN();

image filled(std::int64_t width, std::int64_t height, float value = 0) {
  return image{width, height, std::vector<float>(static_cast<std::size_t>(width * height), value)};
}

// deconvolve.hpp's Högbom, line by line, with a whole-image argmax every iteration.
clean_result contract_hogbom(const image& dirty, const image& psf, const clean_params& params) {
  clean_result result;
  result.residual = dirty;
  result.model = filled(dirty.width, dirty.height);
  const auto is_candidate = [&](std::int64_t i) {
    return !std::isnan(dirty.pixels[i]) && (params.mask.empty() || params.mask[i] == 1);
  };
  float first_peak = 0;
  for (;;) {
    const std::vector<float>& r = result.residual.pixels;
    std::int64_t p = -1;
    for (std::int64_t i = 0; i < dirty.size(); ++i)
      if (is_candidate(i) && (p < 0 || std::fabs(r[i]) > std::fabs(r[p]))) p = i;
    if (p < 0) {
      result.reason = stop_reason::no_pixels;
      break;
    }
    const float peak = std::fabs(result.residual.pixels[p]);
    result.peak_residual = peak;
    if (peak <= params.threshold) {
      result.reason = stop_reason::threshold;
      break;
    }
    if (result.iterations == params.niter) {
      result.reason = stop_reason::niter;
      break;
    }
    if (result.iterations == 0) first_peak = peak;
    if (peak > 1.1 * first_peak) {
      result.reason = stop_reason::diverged;
      break;
    }
    const float flux = static_cast<float>(params.gain) * result.residual.pixels[p];
    result.model.pixels[p] += flux;
    const std::int64_t px = p % dirty.width, py = p / dirty.width;
    result.components.push_back({px, py, flux});
    ++result.iterations;
    for (std::int64_t qy = 0; qy < dirty.height; ++qy)
      for (std::int64_t qx = 0; qx < dirty.width; ++qx) {
        const std::int64_t sx = qx - px + psf_centre(psf.width), sy = qy - py + psf_centre(psf.height);
        float& value = result.residual.at(qx, qy);
        if (sx >= 0 && sx < psf.width && sy >= 0 && sy < psf.height && !std::isnan(value))
          value = std::fmaf(-flux, psf.at(sx, sy), value);
      }
  }
  return result;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_identical(const clean_result& want, const clean_result& got) {
  ASSERT_EQ(want.components.size(), got.components.size());
  for (std::size_t i = 0; i < want.components.size(); ++i) {
    ASSERT_EQ(want.components[i].x, got.components[i].x) << "component " << i;
    ASSERT_EQ(want.components[i].y, got.components[i].y) << "component " << i;
    ASSERT_EQ(want.components[i].flux, got.components[i].flux) << "component " << i;
  }
  for (std::size_t i = 0; i < want.residual.pixels.size(); ++i) {
    ASSERT_TRUE(same_bits(want.residual.pixels[i], got.residual.pixels[i])) << "residual pixel " << i;
    ASSERT_TRUE(same_bits(want.model.pixels[i], got.model.pixels[i])) << "model pixel " << i;
  }
  EXPECT_EQ(want.iterations, got.iterations);
  EXPECT_EQ(want.reason, got.reason);
  EXPECT_EQ(want.peak_residual, got.peak_residual);
  EXPECT_EQ(got.major_cycles, 0);
}

synthetic::observation small_observation(std::int64_t size, bool psf_twice_size, double noise, std::uint64_t seed) {
  synthetic::observation_config config;
  config.width = config.height = size;
  config.psf_twice_size = psf_twice_size;
  config.points = synthetic::random_point_sources(size, size, 6, 0.5, 4, size / 4.0, 4, seed);
  config.extended = {{size / 3.0, size / 2.0, 0.3, 6, 3, 0.4}};
  config.noise_sigma = noise;
  config.seed = seed;
  return synthetic::make_observation(config);
}

TEST(hogbom_cpu, follows_the_contract_bit_for_bit) {
  for (const bool twice : {false, true})
    for (const std::int64_t size : {37, 64}) {
      SCOPED_TRACE(std::string(twice ? "PSF twice" : "PSF same") + " size " + std::to_string(size));
      const synthetic::observation sky = small_observation(size, twice, 0.01, 5);
      image dirty = sky.dirty;
      synthetic::seeded_random random(9);
      clean_params params;
      params.niter = 300;
      params.gain = 0.15;
      params.mask.resize(dirty.pixels.size());
      for (std::size_t i = 0; i < dirty.pixels.size(); ++i) {
        if (random.uniform() < 0.05) dirty.pixels[i] = nan_value;
        params.mask[i] = random.uniform() < 0.9 ? 1 : 0;
      }
      expect_identical(contract_hogbom(dirty, sky.psf, params), clean_cpu(dirty, sky.psf, params));
      params.mask.clear();
      expect_identical(contract_hogbom(dirty, sky.psf, params), clean_cpu(dirty, sky.psf, params));
    }
}

TEST(hogbom_cpu, large_image_on_threads_follows_the_contract) {
  // 1024^2 pixels with a twice-sized PSF: each update spans enough rows to run on threads.
  synthetic::observation_config config;
  config.width = config.height = 1024;
  config.psf_twice_size = true;
  config.points = {{100, 900, 3}, {512, 512, -2}, {800, 40, 1}};
  const synthetic::observation sky = synthetic::make_observation(config);
  clean_params params;
  params.niter = 12;
  expect_identical(contract_hogbom(sky.dirty, sky.psf, params), clean_cpu(sky.dirty, sky.psf, params));
}

TEST(hogbom_cpu, recovers_separated_point_sources) {
  for (const bool twice : {false, true}) {
    synthetic::observation_config config;
    config.width = config.height = 96;
    config.psf_twice_size = twice;
    config.points = {{20, 30, 1.0}, {70, 25, 2.5}, {48, 70, 0.8}, {15, 80, -0.6}, {80, 80, 1.7}};
    const synthetic::observation sky = synthetic::make_observation(config);
    clean_params params;
    params.niter = 5000;
    params.threshold = 1e-4;
    const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
    EXPECT_EQ(result.reason, stop_reason::threshold);
    for (const synthetic::point_source& source : config.points)
      EXPECT_NEAR(result.model.at(source.x, source.y), source.flux, 0.01 * std::fabs(source.flux));
    // Every component sits on a source.
    for (const component& c : result.components) EXPECT_NE(sky.sky.at(c.x, c.y), 0.0f) << c.x << ", " << c.y;
  }
}

TEST(hogbom_cpu, residual_is_dirty_minus_model_convolved_with_the_psf) {
  for (const bool twice : {false, true}) {
    const synthetic::observation sky = small_observation(48, twice, 0.02, 8);
    clean_params params;
    params.niter = 400;
    const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
    const image predicted = synthetic::convolve_direct(result.model, sky.psf);
    for (std::int64_t i = 0; i < sky.dirty.size(); ++i)
      ASSERT_NEAR(result.residual.pixels[i], sky.dirty.pixels[i] - predicted.pixels[i], 2e-5) << i;
    // The model is the components summed per pixel.
    image summed = filled(48, 48);
    for (const component& c : result.components) summed.at(c.x, c.y) += static_cast<float>(c.flux);
    EXPECT_EQ(summed.pixels, result.model.pixels);
  }
}

TEST(hogbom_cpu, stops_after_niter_components) {
  const synthetic::observation sky = small_observation(40, false, 0.01, 2);
  clean_params params;
  params.niter = 7;
  const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
  EXPECT_EQ(result.reason, stop_reason::niter);
  EXPECT_EQ(result.iterations, 7);
  EXPECT_EQ(result.components.size(), 7u);
  params.niter = 0;
  EXPECT_EQ(clean_cpu(sky.dirty, sky.psf, params).reason, stop_reason::niter);
}

TEST(hogbom_cpu, stops_at_the_threshold) {
  const synthetic::observation sky = small_observation(40, false, 0.01, 2);
  clean_params params;
  params.niter = 100000;
  params.threshold = 0.05;
  const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
  EXPECT_EQ(result.reason, stop_reason::threshold);
  EXPECT_LE(result.peak_residual, 0.05);
  EXPECT_GT(result.iterations, 0);
}

TEST(hogbom_cpu, stops_with_no_pixels) {
  const synthetic::observation sky = small_observation(32, false, 0.01, 2);
  clean_params params;
  params.mask.assign(sky.dirty.pixels.size(), 0);
  clean_result result = clean_cpu(sky.dirty, sky.psf, params);
  EXPECT_EQ(result.reason, stop_reason::no_pixels);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(result.peak_residual, 0);
  EXPECT_EQ(result.residual.pixels, sky.dirty.pixels);
  result = clean_cpu(filled(32, 32, nan_value), sky.psf, clean_params{});
  EXPECT_EQ(result.reason, stop_reason::no_pixels);
}

TEST(hogbom_cpu, diverges_with_sidelobes_as_deep_as_the_peak) {
  // Negative sidelobes of -1 round the centre (prepare_psf allows the tie) and gain 1: each
  // component moves the whole flux to a neighbour, and two neighbours' share adds up to 2.
  image psf = filled(32, 32);
  psf.at(16, 16) = 1;
  psf.at(15, 16) = psf.at(17, 16) = psf.at(16, 15) = psf.at(16, 17) = -1;
  image dirty = filled(32, 32);
  dirty.at(10, 12) = 1;
  clean_params params;
  params.gain = 1;
  params.niter = 1000;
  const clean_result result = clean_cpu(dirty, prepare_psf(psf, dirty, "psf"), params);
  EXPECT_EQ(result.reason, stop_reason::diverged);
  EXPECT_GT(result.peak_residual, 1.1);
}

TEST(hogbom_cpu, never_picks_nan_pixels_and_keeps_them_nan) {
  const synthetic::observation sky = small_observation(40, false, 0.01, 4);
  image dirty = sky.dirty;
  std::int64_t brightest = 0;
  for (std::int64_t i = 0; i < dirty.size(); ++i)
    if (std::fabs(dirty.pixels[i]) > std::fabs(dirty.pixels[brightest])) brightest = i;
  dirty.pixels[brightest] = nan_value;
  dirty.pixels[brightest + 1] = nan_value;
  clean_params params;
  params.niter = 200;
  const clean_result result = clean_cpu(dirty, sky.psf, params);
  for (const component& c : result.components) EXPECT_FALSE(std::isnan(dirty.at(c.x, c.y)));
  EXPECT_TRUE(std::isnan(result.residual.pixels[brightest]));
  EXPECT_TRUE(std::isnan(result.residual.pixels[brightest + 1]));
  EXPECT_FALSE(std::isnan(result.peak_residual));
}

TEST(hogbom_cpu, respects_the_mask) {
  const synthetic::observation sky = small_observation(40, true, 0.01, 6);
  clean_params params;
  params.niter = 150;
  params.mask.assign(sky.dirty.pixels.size(), 0);
  for (std::int64_t y = 5; y < 20; ++y)
    for (std::int64_t x = 10; x < 30; ++x) params.mask[y * 40 + x] = 1;
  const clean_result result = clean_cpu(sky.dirty, sky.psf, params);
  float largest_inside = 0;
  for (std::int64_t i = 0; i < 40 * 40; ++i)
    if (params.mask[i] == 1) largest_inside = std::max(largest_inside, std::fabs(result.residual.pixels[i]));
  for (const component& c : result.components) EXPECT_EQ(params.mask[c.y * 40 + c.x], 1);
  EXPECT_EQ(result.peak_residual, largest_inside);
}

TEST(hogbom_cpu, ties_go_to_the_smaller_index) {
  image psf = filled(16, 16);
  psf.at(8, 8) = 1;  // a delta: components do not disturb each other
  image dirty = filled(16, 16);
  dirty.at(10, 5) = 1;
  dirty.at(3, 9) = 1;
  dirty.at(12, 2) = -1;  // |value| ties regardless of sign
  dirty.at(2, 2) = 0.5f;
  clean_params params;
  params.gain = 1;
  params.niter = 3;
  const clean_result result = clean_cpu(dirty, psf, params);
  ASSERT_EQ(result.components.size(), 3u);
  EXPECT_EQ(result.components[0].x, 12);  // index 2 * 16 + 12 = 44
  EXPECT_EQ(result.components[1].x, 10);  // 5 * 16 + 10 = 90
  EXPECT_EQ(result.components[2].x, 3);   // 9 * 16 + 3 = 147
  EXPECT_EQ(result.components[0].flux, -1);
}

}  // namespace
}  // namespace bkt::clean
