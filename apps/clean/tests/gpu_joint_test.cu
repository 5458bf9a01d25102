// The joint engine on the GPU against the CPU path (joint/joint_clean.hpp): each backend step on
// the same state gives the same figures, Högbom's first cycle takes the same components, and
// every method ends with residuals and models within 1 % of the CPU's, with and without NaN
// pixels and a mask.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "bkt/stream.hpp"
#include "cpu/joint_cpu_backend.hpp"
#include "gpu/joint_gpu_backend.hpp"
#include "image_statistics.hpp"
#include "joint/joint_clean.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"
#include "synthetic/spectral_field.hpp"
#include "wsclean_field.hpp"

namespace bkt::clean {
namespace {

using namespace clean_test;

synthetic::spectral_field small_field(bool with_nan) {
  synthetic::spectral_field_config config;
  config.base.width = 160;
  config.base.height = 128;  // not square: width and height must not be swapped anywhere
  config.base.psf_twice_size = true;
  config.base.coverage.hour_angle_steps = 12;
  config.base.points = {{40, 50, 1.0}, {120, 80, 0.6}, {70, 30, 0.3}, {100, 100, 0.2}};
  config.base.extended = {{60, 90, 0.05, 14, 10, 0.4}};
  config.base.noise_sigma = 0.002;
  config.base.seed = 9;
  config.point_indices = {-0.7, 0.3, -1.5, 0.0};
  config.extended_indices = {-0.5};
  config.frequencies = {1.2e9, 1.35e9, 1.5e9};
  synthetic::spectral_field field = synthetic::make_spectral_field(config);
  if (with_nan)
    for (image& dirty : field.channels.dirty)
      for (std::int64_t x = 0; x < 20; ++x) dirty.at(x, 5) = std::numeric_limits<float>::quiet_NaN();
  return field;
}

void expect_close_runs(const joint_result& cpu, const joint_result& gpu) {
  ASSERT_EQ(cpu.model.size(), gpu.model.size());
  EXPECT_EQ(cpu.reason, gpu.reason);
  for (std::size_t c = 0; c < cpu.model.size(); ++c) {
    SCOPED_TRACE("channel " + std::to_string(c));
    EXPECT_NEAR(finite_rms(gpu.residual[c]) / finite_rms(cpu.residual[c]), 1.0, 0.01);
    EXPECT_NEAR(image_sum(gpu.model[c]) / image_sum(cpu.model[c]), 1.0, 0.01);
    for (std::size_t i = 0; i < cpu.residual[c].pixels.size(); ++i)
      ASSERT_EQ(std::isnan(cpu.residual[c].pixels[i]), std::isnan(gpu.residual[c].pixels[i])) << "pixel " << i;
  }
}

TEST(joint_gpu, each_step_gives_the_cpu_figures) {
  BKT_REQUIRE_GPU();
  const channel_set channels = wsclean_field_channels();
  const joint_params params = wsclean_field_params(channels);
  const std::vector<scale_info> scales = scales_for(channels, params).scales;
  ASSERT_GE(scales.size(), 3u);
  bkt::owned_stream stream;
  cpu::joint_cpu_backend on_cpu(channels, params, scales);
  gpu::joint_gpu_backend on_gpu(channels, params, scales, stream.get());
  EXPECT_NEAR(on_gpu.integrated_sigma() / on_cpu.integrated_sigma(), 1.0, 1e-5);
  std::vector<int> all;
  for (std::size_t s = 0; s < scales.size(); ++s) all.push_back(static_cast<int>(s));
  std::vector<scale_peak> cpu_peaks = on_cpu.find_peaks(all, false);
  const std::vector<scale_peak> gpu_peaks = on_gpu.find_peaks(all, false);
  for (std::size_t s = 0; s < scales.size(); ++s) {
    SCOPED_TRACE("scale " + std::to_string(scales[s].size));
    ASSERT_TRUE(gpu_peaks[s].found);
    EXPECT_EQ(gpu_peaks[s].x, cpu_peaks[s].x);
    EXPECT_EQ(gpu_peaks[s].y, cpu_peaks[s].y);
    EXPECT_NEAR(gpu_peaks[s].value / cpu_peaks[s].value, 1.0, 1e-4);
  }
  // One sub-minor loop at each of the two smallest scales, from the same residuals.
  for (const int scale : {0, 1}) {
    SCOPED_TRACE("sub-minor loop at scale " + std::to_string(scales[scale].size));
    cpu_peaks = on_cpu.find_peaks(all, false);  // after the last loop's residuals
    sub_minor_request request;
    request.scale = scale;
    request.candidate_threshold = request.stop_threshold = 0.8 * std::fabs(cpu_peaks[scale].value);
    request.max_components = 1000;
    joint_result cpu_components, gpu_components;
    const sub_minor_outcome cpu_outcome = on_cpu.run_sub_minor(request, false, cpu_components);
    const sub_minor_outcome gpu_outcome = on_gpu.run_sub_minor(request, false, gpu_components);
    ASSERT_GT(cpu_outcome.taken, 0);
    ASSERT_EQ(gpu_outcome.taken, cpu_outcome.taken);
    for (std::size_t i = 0; i < gpu_components.components.size(); ++i) {
      EXPECT_EQ(gpu_components.components[i].x, cpu_components.components[i].x) << "component " << i;
      EXPECT_EQ(gpu_components.components[i].y, cpu_components.components[i].y) << "component " << i;
    }
    for (std::size_t i = 0; i < gpu_components.fluxes.size(); ++i)
      EXPECT_NEAR(gpu_components.fluxes[i], cpu_components.fluxes[i], 1e-4 * std::fabs(cpu_components.fluxes[i]) + 1e-7);
    on_cpu.update_residuals();
    on_gpu.update_residuals();
  }
  joint_result cpu_images, gpu_images;
  on_cpu.fetch(cpu_images);
  on_gpu.fetch(gpu_images);
  for (std::size_t c = 0; c < channels.dirty.size(); ++c) {
    double worst = 0;
    for (std::size_t i = 0; i < cpu_images.model[c].pixels.size(); ++i) {
      worst = std::max(worst, std::fabs(static_cast<double>(cpu_images.model[c].pixels[i]) - gpu_images.model[c].pixels[i]));
      worst = std::max(worst, std::fabs(static_cast<double>(cpu_images.residual[c].pixels[i]) - gpu_images.residual[c].pixels[i]));
    }
    EXPECT_LT(worst, 1e-5) << "channel " << c;
  }
}

TEST(joint_gpu, wsclean_field_matches_the_cpu_run) {
  BKT_REQUIRE_GPU();
  // Under the sanitizers (quick mode) each_step_gives_the_cpu_figures runs every kernel of this run.
  if (bkt::test::quick_mode()) GTEST_SKIP() << "the whole run is left to the full test pass";
  const channel_set channels = wsclean_field_channels();
  const joint_params params = wsclean_field_params(channels);
  bkt::owned_stream stream;
  const joint_result cpu = joint_clean_cpu(channels, params);
  const joint_result gpu = joint_clean_gpu(channels, params, stream.get());
  expect_close_runs(cpu, gpu);
  EXPECT_NEAR(static_cast<double>(gpu.iterations) / static_cast<double>(cpu.iterations), 1.0, 0.05);
}

TEST(joint_gpu, every_method_matches_the_cpu_with_nan_pixels_and_a_mask) {
  BKT_REQUIRE_GPU();
  bkt::owned_stream stream;
  for (const bool with_nan : {false, true})
    for (const algorithm method : {algorithm::hogbom, algorithm::clark, algorithm::multiscale}) {
      if (bkt::test::quick_mode() && !with_nan) continue;  // sanitizer runs: the NaN-and-mask cases alone
      SCOPED_TRACE(std::string(method == algorithm::hogbom ? "hogbom" : method == algorithm::clark ? "clark" : "multiscale") +
                   (with_nan ? " with NaN" : ""));
      const synthetic::spectral_field field = small_field(with_nan);
      joint_params params;
      params.method = method;
      params.niter = 5000;
      params.threshold = 0.01;
      params.spectral_terms = 2;
      params.beam_fwhm = 2;
      if (with_nan) {
        params.mask.assign(160 * 128, 1);
        for (std::int64_t y = 0; y < 128; ++y) params.mask[static_cast<std::size_t>(y * 160 + 150)] = 0;
      }
      const joint_result cpu = joint_clean_cpu(field.channels, params);
      const joint_result gpu = joint_clean_gpu(field.channels, params, stream.get());
      expect_close_runs(cpu, gpu);
      for (const joint_component& c : gpu.components) EXPECT_FALSE(with_nan && (c.x == 150 || (c.y == 5 && c.x < 20)));
    }
}

TEST(joint_gpu, hogbom_takes_the_cpu_components_in_its_first_cycle) {
  BKT_REQUIRE_GPU();
  const synthetic::spectral_field field = small_field(false);
  joint_params params;
  params.method = algorithm::hogbom;
  params.niter = 100000;
  params.threshold = 0.05;
  // The first cycle's components: before it ends no transform has run on either path.
  params.niter = joint_clean_cpu(field.channels, params).cycles.front().iterations;
  ASSERT_GT(params.niter, 10);
  bkt::owned_stream stream;
  const joint_result cpu = joint_clean_cpu(field.channels, params);
  const joint_result gpu = joint_clean_gpu(field.channels, params, stream.get());
  ASSERT_EQ(gpu.components.size(), cpu.components.size());
  for (std::size_t i = 0; i < cpu.components.size(); ++i) {
    ASSERT_EQ(gpu.components[i].x, cpu.components[i].x) << "component " << i;
    ASSERT_EQ(gpu.components[i].y, cpu.components[i].y) << "component " << i;
  }
  for (std::size_t i = 0; i < cpu.fluxes.size(); ++i) EXPECT_EQ(gpu.fluxes[i], cpu.fluxes[i]) << "flux " << i;
}

TEST(joint_gpu, sub_minor_loop_stops_as_diverged_where_the_cpu_does) {
  BKT_REQUIRE_GPU();
  const channel_set channels = wsclean_field_channels();
  const joint_params params = wsclean_field_params(channels);
  const std::vector<scale_info> scales = scales_for(channels, params).scales;
  bkt::owned_stream stream;
  for (const double level : {0.9, 1.1}) {
    SCOPED_TRACE("divergence level " + std::to_string(level) + " x the peak");
    cpu::joint_cpu_backend on_cpu(channels, params, scales);
    gpu::joint_gpu_backend on_gpu(channels, params, scales, stream.get());
    const scale_peak peak = on_cpu.find_peaks({0}, false).front();
    sub_minor_request request;
    request.candidate_threshold = request.stop_threshold = 0.5 * std::fabs(peak.value);
    request.divergence_level = level * std::fabs(peak.value);
    request.max_components = 1000;
    joint_result cpu_result, gpu_result;
    const sub_minor_outcome cpu = on_cpu.run_sub_minor(request, false, cpu_result);
    const sub_minor_outcome gpu = on_gpu.run_sub_minor(request, false, gpu_result);
    EXPECT_EQ(gpu.diverged, cpu.diverged);
    EXPECT_EQ(gpu.diverged, level < 1);
    EXPECT_EQ(gpu.candidates, cpu.candidates);
    EXPECT_EQ(gpu.taken, cpu.taken);
    EXPECT_NEAR(gpu.last_peak, cpu.last_peak, 1e-4 * cpu.last_peak);
  }
}

}  // namespace
}  // namespace bkt::clean
