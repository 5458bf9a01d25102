// --auto-threshold and --auto-mask by cycles (noise_cycles.hpp) around the CPU deconvolution: the
// noise measured again each cycle falls as the sources' sidelobes go, each cycle aims at the level
// its own noise gives, the auto-mask confines later components to the pixels found before it, and
// the pieces add up to one residual = dirty - model (*) psf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "deconvolve.hpp"
#include "noise_cycles.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/psf_convolution.hpp"

namespace bkt::clean {
namespace {

// Bright point sources on a snapshot's PSF (sidelobes near 0.3) and weak noise: the sidelobes
// dominate the dirty image's MAD, so the first noise is far above the true one.
synthetic::observation bright_field() {
  synthetic::observation_config config;
  config.width = config.height = 96;
  config.coverage.hour_angle_steps = 1;
  config.points = synthetic::random_point_sources(96, 96, 6, 1.0, 3.0, 10, 8, 21);
  config.extended = {{60, 40, 0.05, 9, 6, 0.5}};
  config.noise_sigma = 0.002;
  config.seed = 22;
  return synthetic::make_observation(config);
}

/// Runs the cycles with clean_cpu, recording what each cycle was asked.
struct recorded_run {
  clean_result result;
  std::vector<noise_cycle> cycles;
  std::vector<clean_params> calls;
  std::vector<image> models_before;  // the run's model when each call began
};

recorded_run run_cycles(const synthetic::observation& field, const clean_params& params, const noise_levels& levels) {
  recorded_run run;
  image model{field.dirty.width, field.dirty.height, std::vector<float>(field.dirty.pixels.size(), 0.0f)};
  const deconvolver deconvolve = [&](const image& from, const clean_params& with) {
    run.calls.push_back(with);
    run.models_before.push_back(model);
    clean_result part = clean_cpu(from, field.psf, with);
    for (std::size_t i = 0; i < model.pixels.size(); ++i) model.pixels[i] += part.model.pixels[i];
    return part;
  };
  run.result = clean_by_noise_cycles(field.dirty, params, levels, deconvolve, run.cycles);
  return run;
}

void expect_cycles_to_the_last_level(const synthetic::observation& field, algorithm method) {
  clean_params params;
  params.method = method;
  params.niter = 20000;
  params.mgain = 0.8;
  const recorded_run run = run_cycles(field, params, {3.0, std::nullopt});
  ASSERT_GE(run.cycles.size(), 3u);
  EXPECT_EQ(run.calls.size(), run.cycles.size() - 1) << "the last cycle only measures and stops";
  EXPECT_EQ(run.result.reason, stop_reason::threshold);
  EXPECT_LT(run.cycles.back().sigma, 0.5 * run.cycles.front().sigma) << "the sidelobes inflated the first noise";
  for (std::size_t i = 0; i < run.cycles.size(); ++i) {
    EXPECT_DOUBLE_EQ(run.cycles[i].level, 3.0 * run.cycles[i].sigma);
    EXPECT_FALSE(run.cycles[i].masked);
    if (i < run.calls.size()) EXPECT_GE(run.calls[i].threshold, run.cycles[i].level);
  }
  EXPECT_LE(run.result.peak_residual, run.cycles.back().level);
  std::int64_t taken = 0;
  for (const noise_cycle& cycle : run.cycles) taken += cycle.iterations;
  EXPECT_EQ(taken, run.result.iterations);
  EXPECT_EQ(static_cast<std::int64_t>(run.result.components.size()), run.result.iterations);
  // The pieces make one deconvolution: residual = dirty - model (*) psf.
  const image convolved = synthetic::convolve(run.result.model, field.psf);
  double worst = 0, peak = 0;
  for (std::size_t i = 0; i < convolved.pixels.size(); ++i) {
    const double expected = static_cast<double>(field.dirty.pixels[i]) - convolved.pixels[i];
    worst = std::max(worst, std::fabs(expected - run.result.residual.pixels[i]));
    peak = std::max(peak, std::fabs(static_cast<double>(field.dirty.pixels[i])));
  }
  EXPECT_LT(worst, 1e-4 * peak);
}

TEST(noise_cycles, the_noise_is_measured_again_each_cycle_and_the_run_stops_at_the_last_level) {
  const synthetic::observation field = bright_field();
  for (const algorithm method : {algorithm::hogbom, algorithm::clark}) {
    SCOPED_TRACE(method == algorithm::hogbom ? "hogbom" : "clark");
    expect_cycles_to_the_last_level(field, method);
  }
}

TEST(noise_cycles, the_auto_mask_keeps_later_components_where_earlier_ones_are) {
  const synthetic::observation field = bright_field();
  clean_params params;
  params.niter = 20000;
  const recorded_run run = run_cycles(field, params, {1.0, 4.0});
  std::size_t first_masked = run.cycles.size();
  for (std::size_t i = 0; i < run.cycles.size(); ++i)
    if (run.cycles[i].masked) {
      first_masked = std::min(first_masked, i);
      EXPECT_DOUBLE_EQ(run.cycles[i].level, 1.0 * run.cycles[i].sigma);
    } else {
      EXPECT_EQ(first_masked, run.cycles.size()) << "no unmasked cycle after the mask";
      EXPECT_DOUBLE_EQ(run.cycles[i].level, 4.0 * run.cycles[i].sigma);
    }
  ASSERT_LT(first_masked, run.cycles.size()) << "the run reached 4 sigma";
  ASSERT_LT(first_masked, run.calls.size()) << "and cleaned inside the mask";
  const image& at_switch = run.models_before[first_masked];
  for (std::size_t c = first_masked; c < run.calls.size(); ++c) {
    const std::vector<std::uint8_t>& mask = run.calls[c].mask;
    ASSERT_EQ(mask.size(), at_switch.pixels.size());
    for (std::size_t i = 0; i < mask.size(); ++i) EXPECT_EQ(mask[i], at_switch.pixels[i] != 0.0f ? 1 : 0) << i;
  }
  for (const component& c : run.result.components)
    EXPECT_NE(at_switch.at(c.x, c.y), 0.0f) << "a component outside the auto-mask at " << c.x << "," << c.y;
  EXPECT_EQ(run.result.reason, stop_reason::threshold);
}

TEST(noise_cycles, niter_and_the_user_threshold_still_bound_the_run) {
  const synthetic::observation field = bright_field();
  clean_params params;
  params.niter = 37;
  const recorded_run few = run_cycles(field, params, {1.0, std::nullopt});
  EXPECT_EQ(few.result.iterations, 37);
  EXPECT_EQ(few.result.reason, stop_reason::niter);
  params.niter = 20000;
  params.threshold = 0.5;  // above every noise level here
  const recorded_run high = run_cycles(field, params, {1.0, std::nullopt});
  EXPECT_EQ(high.result.reason, stop_reason::threshold);
  for (const noise_cycle& cycle : high.cycles) EXPECT_DOUBLE_EQ(cycle.level, 0.5);
  EXPECT_LE(high.result.peak_residual, 0.5);
}

}  // namespace
}  // namespace bkt::clean
