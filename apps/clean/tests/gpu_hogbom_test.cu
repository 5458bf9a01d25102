// Högbom on the GPU against clean_cpu: the same component list (positions equal, fluxes bit for
// bit), iterations, stop reason and peak; the same model bit for bit; the residual within float
// tolerance with NaN in the same places. Sizes 1x1, 31x33, 64x64 and 256x256 with the PSF the
// image's size and twice it; NaN pixels, masks, ties, every stop rule, batch boundaries (small
// batches, with and without the graph) and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "bkt/error.hpp"
#include "bkt/stream.hpp"
#include "deconvolve.hpp"
#include "gpu/device_plane_buffers.hpp"
#include "gpu/hogbom_loop.hpp"
#include "noise_cycles.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean {
namespace {

constexpr float nan_value = std::numeric_limits<float>::quiet_NaN();

struct sky_case {
  std::string name;
  image dirty;
  image psf;
};

/// Point sources, one extended source and a little noise, on a PSF of the image's size or twice it.
sky_case synthetic_sky(std::int64_t width, std::int64_t height, bool psf_twice, std::uint64_t seed) {
  synthetic::observation_config config;
  config.width = width;
  config.height = height;
  config.psf_twice_size = psf_twice;
  config.points = synthetic::random_point_sources(width, height, 6, 0.5, 4, std::min(width, height) / 4.0, 3, seed);
  config.extended = {{width / 3.0, height / 2.0, 0.3, 5, 3, 0.4}};
  config.noise_sigma = 0.01;
  config.seed = seed;
  synthetic::observation made = synthetic::make_observation(config);
  return {std::to_string(width) + "x" + std::to_string(height) + (psf_twice ? " psf twice" : " psf same"),
          std::move(made.dirty), std::move(made.psf)};
}

/// A 1x1 image: a PSF of 1x1, or 2x2 with its peak at the centre pixel (1, 1).
sky_case single_pixel(bool psf_twice) {
  image psf = psf_twice ? image{2, 2, {0.25f, -0.5f, 0.125f, 1.0f}} : image{1, 1, {1.0f}};
  return {psf_twice ? "1x1 psf twice" : "1x1 psf same", image{1, 1, {0.75f}}, std::move(psf)};
}

std::vector<sky_case> matching_cases() {
  std::vector<sky_case> cases;
  for (const bool twice : {false, true}) {
    cases.push_back(single_pixel(twice));
    cases.push_back(synthetic_sky(31, 33, twice, 3));
    cases.push_back(synthetic_sky(64, 64, twice, 4));
    cases.push_back(synthetic_sky(256, 256, twice, 5));
  }
  return cases;
}

/// A PSF of 0.1 everywhere but 1 at the centre.
image psf_of_size(std::int64_t width, std::int64_t height) {
  image psf{width, height, std::vector<float>(static_cast<std::size_t>(width * height), 0.1f)};
  psf.at(psf_centre(width), psf_centre(height)) = 1.0f;
  return psf;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The component lists agree exactly, and so do the counts, the reason, the peak and the model;
/// the residuals agree within float rounding (they should agree bit for bit: the count of pixels
/// that do not is reported to help find where the two paths part).
void expect_same_run(const clean_result& want, const clean_result& got) {
  ASSERT_EQ(want.components.size(), got.components.size()) << "want reason " << static_cast<int>(want.reason)
                                                           << ", got " << static_cast<int>(got.reason);
  for (std::size_t i = 0; i < want.components.size(); ++i) {
    ASSERT_EQ(want.components[i].x, got.components[i].x) << "component " << i;
    ASSERT_EQ(want.components[i].y, got.components[i].y) << "component " << i;
    ASSERT_TRUE(same_bits(want.components[i].flux, got.components[i].flux))
        << "component " << i << ": flux " << want.components[i].flux << " vs " << got.components[i].flux;
  }
  EXPECT_EQ(want.iterations, got.iterations);
  EXPECT_EQ(want.reason, got.reason);
  EXPECT_EQ(want.peak_residual, got.peak_residual);
  EXPECT_EQ(got.major_cycles, 0);
  ASSERT_EQ(want.model.pixels.size(), got.model.pixels.size());
  ASSERT_EQ(want.residual.pixels.size(), got.residual.pixels.size());
  double scale = 0;
  for (const float v : want.residual.pixels)
    if (!std::isnan(v)) scale = std::max(scale, std::fabs(static_cast<double>(v)));
  std::size_t differing_bits = 0;
  for (std::size_t i = 0; i < want.residual.pixels.size(); ++i) {
    ASSERT_TRUE(same_bits(want.model.pixels[i], got.model.pixels[i])) << "model pixel " << i;
    const float w = want.residual.pixels[i], g = got.residual.pixels[i];
    ASSERT_EQ(std::isnan(w), std::isnan(g)) << "residual pixel " << i << ": " << w << " vs " << g;
    if (!std::isnan(w)) ASSERT_NEAR(w, g, 1e-6 * scale + 1e-30) << "residual pixel " << i;
    differing_bits += same_bits(w, g) ? 0 : 1;
  }
  if (differing_bits != 0) ADD_FAILURE() << differing_bits << " residual pixels differ in their bits (within tolerance)";
}

clean_params hogbom_params(std::int64_t niter, double gain = 0.1) {
  clean_params params;
  params.method = algorithm::hogbom;
  params.niter = niter;
  params.gain = gain;
  return params;
}

TEST(hogbom_gpu, matches_cpu_on_synthetic_skies) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  for (const sky_case& c : matching_cases()) {
    SCOPED_TRACE(c.name);
    const clean_params params = hogbom_params(c.dirty.size() >= 4096 ? 600 : 150);
    expect_same_run(clean_cpu(c.dirty, c.psf, params), clean_gpu(c.dirty, c.psf, params, stream));
  }
}

TEST(hogbom_gpu, noise_cycles_match_cpu) {
  // --auto-threshold with --auto-mask cut into cycles (noise_cycles.hpp): each cycle starts from
  // the last residual, so the paths must agree cycle after cycle, mask and all.
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  const sky_case c = synthetic_sky(64, 64, false, 5);
  clean_params params = hogbom_params(5000);
  const noise_levels levels{1.0, 3.0};
  std::vector<noise_cycle> cpu_cycles, gpu_cycles;
  const clean_result want = clean_by_noise_cycles(
      c.dirty, params, levels, [&](const image& from, const clean_params& with) { return clean_cpu(from, c.psf, with); },
      cpu_cycles);
  const clean_result got = clean_by_noise_cycles(
      c.dirty, params, levels,
      [&](const image& from, const clean_params& with) { return clean_gpu(from, c.psf, with, stream); }, gpu_cycles);
  ASSERT_EQ(cpu_cycles.size(), gpu_cycles.size());
  ASSERT_GE(cpu_cycles.size(), 2u);
  for (std::size_t i = 0; i < cpu_cycles.size(); ++i) {
    EXPECT_EQ(cpu_cycles[i].sigma, gpu_cycles[i].sigma) << "cycle " << i;
    EXPECT_EQ(cpu_cycles[i].iterations, gpu_cycles[i].iterations) << "cycle " << i;
    EXPECT_EQ(cpu_cycles[i].masked, gpu_cycles[i].masked) << "cycle " << i;
  }
  expect_same_run(want, got);
}

TEST(hogbom_gpu, nan_pixels_stay_nan_and_are_never_taken) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  for (const bool twice : {false, true}) {
    SCOPED_TRACE(twice ? "psf twice" : "psf same");
    sky_case c = synthetic_sky(64, 64, twice, 7);
    synthetic::seeded_random random(11);
    for (float& v : c.dirty.pixels)
      if (random.uniform() < 0.1) v = nan_value;
    // The brightest pixel blanked too: the loop must not pick it.
    const auto brightest = std::max_element(c.dirty.pixels.begin(), c.dirty.pixels.end(), [](float a, float b) {
      return std::isnan(a) || (!std::isnan(b) && std::fabs(a) < std::fabs(b));
    });
    *brightest = nan_value;
    const clean_params params = hogbom_params(300);
    const clean_result got = clean_gpu(c.dirty, c.psf, params, stream);
    for (const component& k : got.components) ASSERT_FALSE(std::isnan(c.dirty.at(k.x, k.y)));
    for (std::int64_t i = 0; i < c.dirty.size(); ++i)
      if (std::isnan(c.dirty.pixels[i])) ASSERT_TRUE(same_bits(c.dirty.pixels[i], got.residual.pixels[i])) << i;
    expect_same_run(clean_cpu(c.dirty, c.psf, params), got);
  }
}

TEST(hogbom_gpu, mask_limits_the_components) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  for (const bool twice : {false, true}) {
    SCOPED_TRACE(twice ? "psf twice" : "psf same");
    sky_case c = synthetic_sky(31, 33, twice, 8);
    clean_params params = hogbom_params(200);
    synthetic::seeded_random random(12);
    params.mask.resize(c.dirty.pixels.size());
    for (auto& m : params.mask) m = random.uniform() < 0.7 ? 1 : 0;
    params.mask[5] = 2;  // only 1 means "may take a component", as on the CPU path
    for (std::size_t i = 0; i < c.dirty.pixels.size(); i += 17) c.dirty.pixels[i] = nan_value;
    const clean_result got = clean_gpu(c.dirty, c.psf, params, stream);
    for (const component& k : got.components) ASSERT_EQ(params.mask[k.y * c.dirty.width + k.x], 1);
    expect_same_run(clean_cpu(c.dirty, c.psf, params), got);
  }
}

TEST(hogbom_gpu, ties_go_to_the_smallest_index) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  // Equal |values| of both signs, and -0.0 against +0.0: the first component is the smallest index.
  image dirty{8, 4, std::vector<float>(32, 0.25f)};
  dirty.at(6, 3) = 2.0f;
  dirty.at(2, 1) = -2.0f;
  dirty.at(5, 1) = 2.0f;
  image psf{8, 4, std::vector<float>(32, 0.0f)};
  psf.at(psf_centre(8), psf_centre(4)) = 1.0f;
  const clean_params params = hogbom_params(40, 0.5);
  const clean_result got = clean_gpu(dirty, psf, params, stream);
  ASSERT_FALSE(got.components.empty());
  EXPECT_EQ(got.components[0].x, 2);
  EXPECT_EQ(got.components[0].y, 1);
  expect_same_run(clean_cpu(dirty, psf, params), got);
  image zeros{4, 4, std::vector<float>(16, 0.0f)};
  zeros.pixels[3] = -0.0f;
  const clean_params deep = hogbom_params(5);
  expect_same_run(clean_cpu(zeros, psf_of_size(4, 4), deep), clean_gpu(zeros, psf_of_size(4, 4), deep, stream));
}

TEST(hogbom_gpu, stops_on_each_rule) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  const sky_case c = synthetic_sky(64, 64, true, 9);
  {  // niter
    const clean_params params = hogbom_params(37);
    const clean_result got = clean_gpu(c.dirty, c.psf, params, stream);
    EXPECT_EQ(got.reason, stop_reason::niter);
    EXPECT_EQ(got.iterations, 37);
    expect_same_run(clean_cpu(c.dirty, c.psf, params), got);
  }
  {  // niter 0: nothing taken, the residual is the dirty image
    const clean_params params = hogbom_params(0);
    const clean_result got = clean_gpu(c.dirty, c.psf, params, stream);
    EXPECT_EQ(got.reason, stop_reason::niter);
    EXPECT_TRUE(got.components.empty());
    expect_same_run(clean_cpu(c.dirty, c.psf, params), got);
  }
  {  // threshold
    clean_params params = hogbom_params(100000);
    params.threshold = 0.5;
    const clean_result got = clean_gpu(c.dirty, c.psf, params, stream);
    EXPECT_EQ(got.reason, stop_reason::threshold);
    EXPECT_LE(got.peak_residual, 0.5);
    expect_same_run(clean_cpu(c.dirty, c.psf, params), got);
  }
  {  // no pixels: all blanked, or a mask of zeros
    image blank = c.dirty;
    for (float& v : blank.pixels) v = nan_value;
    const clean_params params = hogbom_params(10);
    const clean_result got = clean_gpu(blank, c.psf, params, stream);
    EXPECT_EQ(got.reason, stop_reason::no_pixels);
    EXPECT_TRUE(got.components.empty());
    EXPECT_EQ(got.peak_residual, 0);
    clean_params masked = hogbom_params(10);
    masked.mask.assign(c.dirty.pixels.size(), 0);
    EXPECT_EQ(clean_gpu(c.dirty, c.psf, masked, stream).reason, stop_reason::no_pixels);
  }
  {  // diverged: a PSF whose sidelobe exceeds its peak makes the residual grow
    image psf{8, 8, std::vector<float>(64, 0.0f)};
    psf.at(4, 4) = 1.0f;
    psf.at(5, 4) = -3.0f;
    image dirty{8, 8, std::vector<float>(64, 0.0f)};
    dirty.at(2, 2) = 1.0f;
    const clean_params params = hogbom_params(100, 1.0);
    const clean_result got = clean_gpu(dirty, psf, params, stream);
    EXPECT_EQ(got.reason, stop_reason::diverged);
    expect_same_run(clean_cpu(dirty, psf, params), got);
  }
}

TEST(hogbom_gpu, batches_of_any_length_give_the_same_run) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  const sky_case c = synthetic_sky(64, 64, false, 10);
  const clean_params params = hogbom_params(700);
  const clean_result want = clean_gpu(c.dirty, c.psf, params, stream);
  EXPECT_EQ(want.iterations, 700);  // crosses two 256-step batches
  // Sanitizer runs (quick mode): one batch length below the run and one past it, same kernels.
  const std::vector<int> lengths = test::quick_mode() ? std::vector<int>{7, 702} : std::vector<int>{1, 7, 700, 702};
  for (const int steps : lengths)
    for (const bool graph : {true, false}) {
      SCOPED_TRACE(std::to_string(steps) + (graph ? " steps, graph" : " steps, plain launches"));
      const gpu::plane_geometry g = gpu::make_geometry(c.dirty, c.psf, params);
      gpu::device_plane_buffers buffers(c.dirty, c.psf, params.mask, g, stream);
      gpu::hogbom_runner runner(buffers.plane(), gpu::rules_of(params), stream, {steps, graph, false});
      // Twice on one runner: the second run starts from the first one's residual, so it takes
      // other components, but the state and ring must start afresh and stop on niter again.
      const gpu::hogbom_outcome outcome = runner.run_sync(stream);
      ASSERT_EQ(outcome.components.size(), want.components.size());
      for (std::size_t i = 0; i < outcome.components.size(); ++i) {
        ASSERT_EQ(outcome.components[i].index, want.components[i].y * 64 + want.components[i].x) << i;
        ASSERT_TRUE(same_bits(static_cast<double>(outcome.components[i].flux), want.components[i].flux)) << i;
      }
      EXPECT_EQ(runner.run_sync(stream).components.size(), 700u);
    }
}

TEST(hogbom_gpu, rejects_bad_arguments) {
  const image dirty{4, 4, std::vector<float>(16, 1.0f)};
  const image odd_psf{6, 6, std::vector<float>(36, 0.0f)};
  EXPECT_THROW(clean_gpu(dirty, odd_psf, hogbom_params(1), nullptr), bkt::error);
  clean_params short_mask = hogbom_params(1);
  short_mask.mask.assign(3, 1);
  EXPECT_THROW(clean_gpu(dirty, dirty, short_mask, nullptr), bkt::error);
  EXPECT_THROW(clean_gpu(dirty, dirty, hogbom_params(-1), nullptr), bkt::error);
  EXPECT_THROW(clean_gpu(dirty, dirty, hogbom_params(1, 0.0), nullptr), bkt::error);
}

}  // namespace
}  // namespace bkt::clean
