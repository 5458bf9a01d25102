// CLEAN deconvolution on a synthetic sky of 4096^2 pixels with a PSF of 8192^2 (twice the image),
// our GPU paths against our CPU path and against each other, same data, same process.
//
// Bytes that must move per Högbom iteration (the limit): the residual read and written once and
// the PSF window read once, (2 x 4 + 4) x N^2 B (the window of a twice-size PSF covers the whole
// image). Elements = pixel updates = N^2 per iteration.
//
// Rows:
//  - hogbom gpu, 10^4 iterations, device data (bkt::clean::gpu::hogbom_runner: the residual reset
//    from the dirty image on the device, then the loop); peer: clean_cpu, too slow to run 10^4
//    iterations here, timed with 20 and with 220: the difference over 200 is its cost per
//    iteration, the rest of the 20-iteration time its setup (candidates, the model, copies), and
//    the estimate for 10^4 is setup + 10^4 x per iteration. A second row prints the estimate the
//    bench used to make, the 20-iteration time x 500, which counts the setup 500 times. The first
//    220 components must agree bit for bit with the CPU's.
//  - hogbom clean_gpu, the same through the host API (uploads, downloads, the graph built).
//  - clark gpu (clean_gpu): the fewest components on a ladder (2x10^4 ... 10^6) with which Clark
//    reaches the residual RMS that Högbom reaches with 10^5, and its time with them (components,
//    major cycles and both RMS said in the row; a note when no rung reaches it); peer: Högbom on
//    the GPU with 10^5 iterations, run once. No byte limit (FFT major cycles).
// Input: synthetic::make_observation (apps/clean/synthetic): 3000 point sources, 40 extended
// Gaussians, noise sigma 0.01, default uv coverage (8 hour-angle steps). --log2-items K: an image
// of 2^K pixels (K even, at most 24; larger, as the default 28, means 24).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "deconvolve.hpp"
#include "gpu/device_plane_buffers.hpp"
#include "gpu/hogbom_loop.hpp"
#include "harness.hpp"
#include "synthetic/observation.hpp"
#include "synthetic/seeded_random.hpp"

namespace {

using namespace bkt::clean;
using bkt::bench::comparison;
using bkt::bench::timing;

constexpr std::int64_t hogbom_iterations = 10000;
constexpr std::int64_t cpu_iterations = 20;        // the CPU peer's short run
constexpr std::int64_t cpu_iterations_long = 220;  // and its long one: the difference is 200 iterations
constexpr std::int64_t rms_target_iterations = 100000;
/// Clark's component budgets, tried in order until one reaches Högbom's RMS (Clark's RMS need not
/// fall monotonically with the budget once it cleans noise, so this is a ladder, not a bisection).
constexpr std::int64_t clark_ladder[] = {20000, 25000,  30000,  35000,  40000,  50000,  60000, 70000,
                                         85000, 100000, 150000, 200000, 300000, 500000, 1000000};

synthetic::observation bench_sky(std::int64_t side) {
  synthetic::observation_config config;
  config.width = config.height = side;
  config.psf_twice_size = true;
  const int points = static_cast<int>(std::max<std::int64_t>(8, 3000 * side * side / (4096 * 4096)));
  config.points = synthetic::random_point_sources(side, side, points, 0.05, 5, 6, 16, 1);
  synthetic::seeded_random random(2);
  for (int i = 0; i < std::max(1, points / 75); ++i)
    config.extended.push_back({random.uniform(0.1, 0.9) * side, random.uniform(0.1, 0.9) * side, random.uniform(0.01, 0.2),
                               random.uniform(4, 30), random.uniform(2, 10), random.uniform(0, 3.14)});
  config.noise_sigma = 0.01;
  config.seed = 3;
  return synthetic::make_observation(config);
}

double residual_rms(const image& residual) {
  double sum = 0;
  std::int64_t count = 0;
  for (const float v : residual.pixels)
    if (!std::isnan(v)) sum += static_cast<double>(v) * v, ++count;
  return count > 0 ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

clean_params params_for(algorithm method, std::int64_t niter) {
  clean_params params;
  params.method = method;
  params.niter = niter;
  params.gain = 0.1;
  return params;
}

/// Median of `runs` host-timed runs of work().
timing host_time(int runs, const std::function<void()>& work) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

timing scaled(timing t, double factor) { return {t.median_ms * factor, t.min_ms * factor, t.max_ms * factor}; }

/// The time of `iterations` iterations from runs of `short_count` and `long_count` iterations:
/// short + (iterations - short_count) x (long - short) / (long_count - short_count), i.e. the setup
/// once and the per-iteration cost the difference gives. Its min and max pair the extremes that
/// push it furthest (the short time enters with a negative weight when extrapolating).
timing extrapolated(timing short_run, timing long_run, std::int64_t short_count, std::int64_t long_count,
                    std::int64_t iterations) {
  const double b = static_cast<double>(iterations - short_count) / static_cast<double>(long_count - short_count);
  const double a = 1 - b;
  const auto at = [&](double short_ms, double long_ms) { return a * short_ms + b * long_ms; };
  const double one = at(short_run.min_ms, long_run.max_ms), other = at(short_run.max_ms, long_run.min_ms);
  return {at(short_run.median_ms, long_run.median_ms), std::min(one, other), std::max(one, other)};
}

[[noreturn]] void mismatch(const std::string& what) {
  std::fprintf(stderr, "MISMATCH %s\n", what.c_str());
  std::exit(1);
}

void expect_same_prefix(const std::vector<component>& want, const std::vector<component>& got, const std::string& what) {
  if (got.size() < want.size()) mismatch(what + ": the GPU took fewer components than the CPU");
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i].x != got[i].x || want[i].y != got[i].y || std::memcmp(&want[i].flux, &got[i].flux, sizeof(double)) != 0)
      mismatch(what + ": component " + std::to_string(i) + " differs from the CPU's");
}

void bench_body(const bkt::bench::options& opts, cudaStream_t stream) {
  const int log2_pixels = std::min(opts.log2_items, 24) / 2 * 2;
  const std::int64_t side = std::int64_t{1} << (log2_pixels / 2);
  const double pixels = static_cast<double>(side * side);
  std::printf("making the synthetic sky (%lld^2, PSF %lld^2) on the CPU...\n", static_cast<long long>(side),
              static_cast<long long>(2 * side));
  const synthetic::observation sky = bench_sky(side);
  bkt::bench::report rep("clean " + std::to_string(side) + "^2, psf " + std::to_string(2 * side) + "^2, gain 0.1", opts,
                         stream);
  const std::string size = std::to_string(side) + "^2";
  const double bytes_per_iteration = (2 * 4 + 4) * pixels;
  const std::string byte_model = "(2x4 + 4) x N^2 B per iteration: residual read+write, PSF window read";

  // Högbom on device data.
  const clean_params hogbom = params_for(algorithm::hogbom, hogbom_iterations);
  const gpu::plane_geometry geometry = gpu::make_geometry(sky.dirty, sky.psf, hogbom);
  gpu::device_plane_buffers buffers(sky.dirty, sky.psf, hogbom.mask, geometry, stream);
  bkt::device_buffer<float> dirty(geometry.pixels(), stream);
  BKT_CUDA_CHECK(cudaMemcpyAsync(dirty.data(), buffers.residual(), dirty.size_bytes(), cudaMemcpyDeviceToDevice, stream));
  gpu::hogbom_runner runner(buffers.plane(), gpu::rules_of(hogbom), stream);
  gpu::hogbom_outcome device_outcome;
  const auto run_device = [&](cudaStream_t s) {
    BKT_CUDA_CHECK(cudaMemcpyAsync(buffers.residual(), dirty.data(), dirty.size_bytes(), cudaMemcpyDeviceToDevice, s));
    device_outcome = runner.run_sync(s);
  };
  clean_result cpu_result;
  const timing cpu_short = host_time(3, [&] { cpu_result = clean_cpu(sky.dirty, sky.psf, params_for(algorithm::hogbom, cpu_iterations)); });
  const timing cpu_long =
      host_time(3, [&] { cpu_result = clean_cpu(sky.dirty, sky.psf, params_for(algorithm::hogbom, cpu_iterations_long)); });
  if (cpu_result.iterations != cpu_iterations_long)
    mismatch("hogbom cpu stopped after " + std::to_string(cpu_result.iterations) + " of " +
             std::to_string(cpu_iterations_long) + " iterations: no per-iteration cost to extrapolate");
  const double per_iteration_ms =
      (cpu_long.median_ms - cpu_short.median_ms) / static_cast<double>(cpu_iterations_long - cpu_iterations);
  const double setup_ms = cpu_short.median_ms - static_cast<double>(cpu_iterations) * per_iteration_ms;
  const timing cpu_estimate = extrapolated(cpu_short, cpu_long, cpu_iterations, cpu_iterations_long, hogbom_iterations);
  const timing cpu_old_estimate = scaled(cpu_short, static_cast<double>(hogbom_iterations) / cpu_iterations);
  std::printf("cpu peer (clean_cpu, medians of 3): %lld it %.1f ms, %lld it %.1f ms -> %.3f ms per iteration, setup "
              "%.1f ms\n  1e4 iterations: %.0f ms as setup + 1e4 x per iteration (this table); %.0f ms as %lld it x%lld "
              "(the earlier estimate, setup counted x%lld)\n",
              static_cast<long long>(cpu_iterations), cpu_short.median_ms, static_cast<long long>(cpu_iterations_long),
              cpu_long.median_ms, per_iteration_ms, setup_ms, cpu_estimate.median_ms, cpu_old_estimate.median_ms,
              static_cast<long long>(cpu_iterations), static_cast<long long>(hogbom_iterations / cpu_iterations),
              static_cast<long long>(hogbom_iterations / cpu_iterations));
  const std::string cpu_name = "cpu " + std::to_string(cpu_iterations) + "/" + std::to_string(cpu_iterations_long) + " it";
  const std::string old_cpu_name =
      "cpu " + std::to_string(cpu_iterations) + " it x" + std::to_string(hogbom_iterations / cpu_iterations);

  comparison row;
  row.name = "hogbom gpu " + size + " 1e4 it (device data)";
  row.elements = pixels * hogbom_iterations;
  row.limit_bytes = bytes_per_iteration * hogbom_iterations;
  row.byte_model = byte_model;
  row.ours = bkt::bench::time_it(run_device, stream, opts.repeats);
  row.peer_name = cpu_name;
  row.peer = cpu_estimate;
  if (device_outcome.components.size() != static_cast<std::size_t>(hogbom_iterations))
    mismatch("hogbom gpu took " + std::to_string(device_outcome.components.size()) + " components, not 1e4");
  clean_result device_result;
  device_result.components.reserve(device_outcome.components.size());
  for (const gpu::component_record& r : device_outcome.components)
    device_result.components.push_back({r.index % side, r.index / side, static_cast<double>(r.flux)});
  expect_same_prefix(cpu_result.components, device_result.components, row.name);
  rep.add(row);
  comparison old_row = row;  // the same GPU times against the earlier estimate, for comparison
  old_row.name = "  same, peer as " + old_cpu_name.substr(4) + " (old)";
  old_row.peer_name = old_cpu_name;
  old_row.peer = cpu_old_estimate;
  rep.add(old_row);

  // The same through the host API.
  clean_result host_result;
  comparison host_row = row;
  host_row.name = "hogbom clean_gpu " + size + " 1e4 it (host API)";
  host_row.ours = bkt::bench::time_it([&](cudaStream_t s) { host_result = clean_gpu(sky.dirty, sky.psf, hogbom, s); },
                                      stream, std::min(opts.repeats, 5), 1);
  expect_same_prefix(cpu_result.components, host_result.components, host_row.name);
  rep.add(host_row);

  // Högbom with 10^5 components once: the RMS Clark must reach.
  clean_result hogbom_deep;
  const timing hogbom_deep_time = host_time(1, [&] {
    hogbom_deep = clean_gpu(sky.dirty, sky.psf, params_for(algorithm::hogbom, rms_target_iterations), stream);
  });
  const double target_rms = residual_rms(hogbom_deep.residual);

  std::int64_t clark_niter = 0;
  clean_result clark;
  for (const std::int64_t niter : clark_ladder) {
    clark_niter = niter;
    clark = clean_gpu(sky.dirty, sky.psf, params_for(algorithm::clark, niter), stream);
    if (residual_rms(clark.residual) <= target_rms || clark.reason != stop_reason::niter) break;
  }
  const double clark_rms = residual_rms(clark.residual);
  comparison clark_row;
  char name[160];
  std::snprintf(name, sizeof name, "clark gpu %s to hogbom-1e5 rms: %lld comp., %lld cycles (rms %.4g vs %.4g)",
                size.c_str(), static_cast<long long>(clark.iterations), static_cast<long long>(clark.major_cycles),
                clark_rms, target_rms);
  clark_row.name = name;
  clark_row.elements = pixels * rms_target_iterations;  // Högbom's pixel updates to reach that RMS
  clark_row.limit_bytes = 0;
  clark_row.byte_model = "none: FFT major cycles (elements: Hogbom's pixel updates for 1e5 it)";
  clark_row.ours = bkt::bench::time_it(
      [&](cudaStream_t s) { clark = clean_gpu(sky.dirty, sky.psf, params_for(algorithm::clark, clark_niter), s); },
      stream, std::min(opts.repeats, 5), 1);
  clark_row.peer_name = "hogbom gpu 1e5 (1 run)";
  clark_row.peer = hogbom_deep_time;
  rep.add(clark_row);
  if (clark_rms > target_rms)
    std::printf("note: Clark did not reach Hogbom's 1e5 RMS with up to %lld components (%.4g > %.4g, stop %d)\n",
                static_cast<long long>(clark_niter), clark_rms, target_rms, static_cast<int>(clark.reason));
  rep.finish();
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "clean_bench", "CLEAN (Hogbom, Clark): GPU against CPU and each other",
                              bench_body);
}
