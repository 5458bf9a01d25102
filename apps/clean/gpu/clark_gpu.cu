// Clark on the GPU (Clark 1980, as deconvolve.hpp states it). Each major cycle:
//  1. one pass packs every candidate's peak key and finds the peak (candidate_keys.hpp); the stop
//     rules of Högbom (stop_rules.hpp) apply to that peak on the true residual;
//  2. the candidates are the pixels with |R| > max_sidelobe(psf) x peak (bkt::select_if); when more
//     than minor_capacity, the largest of them (bkt::top_k), and the minor cycle then also stops
//     at the smallest |R| kept, since larger pixels were left out;
//  3. the minor cycle (clark_minor.hpp) runs Högbom over them with a PSF patch until the peak is
//     at or below max(threshold, (1 - mgain) x the cycle's peak), always taking at least one
//     component, and adds the components to the model;
//  4. residual = dirty - model (*) psf by FFT (fft_convolver.hpp).
// The host reads the peak, the candidate count and the minor cycle's outcome once per cycle.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "deconvolve.hpp"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "bkt/workspace.hpp"
#include "candidate_keys.hpp"
#include "clark_minor.hpp"
#include "device_plane_buffers.hpp"
#include "fft_convolver.hpp"
#include "gpu_paths.hpp"
#include "stop_rules.hpp"

namespace bkt::clean::gpu {
namespace {

/// Components one minor cycle may record (device buffer size); a cycle that fills it ends early
/// and the next major cycle carries on.
constexpr std::int64_t max_components_per_cycle = std::int64_t{1} << 20;

bool trace_enabled() {
  const char* text = std::getenv("BKT_CLEAN_TRACE");
  return text != nullptr && std::string(text) == "1";
}

/// The cutoff for minor-cycle candidates, strictly below the peak so that the peak is one of them.
float candidate_level(double sidelobe, float peak) {
  const float level = static_cast<float>(std::max(0.0, sidelobe) * peak);
  return level < peak ? level : std::nextafter(peak, 0.0f);
}

}  // namespace

clean_result clark_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream) {
  const plane_geometry geometry = make_geometry(dirty, psf, params);
  BKT_EXPECTS(dirty.width <= minor_max_extent && dirty.height <= minor_max_extent,
              "clean_gpu: Clark takes images of at most 65535 pixels along each axis");
  clean_result result;
  if (geometry.pixels() == 0) {
    result.model = image{dirty.width, dirty.height, {}};
    result.residual = dirty;
    result.reason = stop_reason::no_pixels;
    return result;
  }
  const std::int64_t pixels = geometry.pixels();
  const stop_rules rules = rules_of(params);
  const bool trace = trace_enabled();

  device_plane_buffers buffers(dirty, psf, params.mask, geometry, stream);
  const device_plane plane = buffers.plane();
  device_buffer<float> dirty_copy(pixels, stream);
  BKT_CUDA_CHECK(cudaMemcpyAsync(dirty_copy.data(), buffers.residual(), pixels * sizeof(float),
                                 cudaMemcpyDeviceToDevice, stream));
  device_buffer<float> model(pixels, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(model.data(), 0, model.size_bytes(), stream));
  device_buffer<std::uint64_t> keys(pixels, stream), selected(pixels, stream), capped(minor_capacity, stream);
  device_buffer<std::uint64_t> peak(1, stream);
  device_buffer<std::int64_t> count(1, stream);
  const std::int64_t component_capacity = std::clamp<std::int64_t>(params.niter, 1, max_components_per_cycle);
  device_buffer<component_record> components(component_capacity, stream);
  device_buffer<minor_outcome> outcome(1, stream);
  const int patch_half = minor_patch_half();
  const std::vector<float> patch_host = psf_patch(psf, patch_half);
  const device_buffer<float> patch = to_device<float>(patch_host, stream);
  fft_convolver convolver(geometry, buffers.psf(), 1, stream);
  const double sidelobe = max_sidelobe(psf);
  workspace ws;

  std::int64_t taken = 0;
  float first_peak = 0;
  std::uint64_t key = no_peak;
  for (;;) {
    pack_candidate_keys(plane, keys.data(), peak.data(), stream);
    key = read_sync(peak.data(), stream);
    const step_decision decision = decide_step(key, taken, first_peak, rules);
    if (decision != step_decision::take) {
      result.reason = reason_of(decision);
      break;
    }
    const float magnitude = peak_magnitude(key);
    if (taken == 0) first_peak = magnitude;
    const candidate_list list = select_candidates(keys.data(), pixels, candidate_level(sidelobe, magnitude),
                                                  minor_capacity, selected.data(), capped.data(), count.data(), ws,
                                                  stream);
    BKT_EXPECTS(list.count >= 1, "clark: the peak is not among the candidates (internal error)");
    double level = std::max(params.threshold, (1.0 - params.mgain) * magnitude);
    if (list.capped) level = std::max(level, static_cast<double>(list.smallest_kept));

    BKT_CUDA_CHECK(cudaMemsetAsync(components.data(), 0xa5, components.size_bytes(), stream));
    minor_cycle_args args;
    args.candidate_keys = list.keys;
    args.count = static_cast<std::int32_t>(list.count);
    args.model = model.data();
    args.patch = patch.data();
    args.patch_half = patch_half;
    args.width = geometry.width;
    args.gain = rules.gain;
    args.level = level;
    args.taken_before = taken;
    args.niter = params.niter;
    args.capacity = static_cast<std::int32_t>(component_capacity);
    args.components = components.data();
    args.outcome = outcome.data();
    launch_minor_cycle(args, stream);
    const minor_outcome minor = read_sync(outcome.data(), stream);
    if (trace)
      std::fprintf(stderr, "bkt-clean clark: cycle %lld peak %g candidates %lld%s level %g took %d stop %d\n",
                   static_cast<long long>(result.major_cycles), static_cast<double>(magnitude),
                   static_cast<long long>(list.count), list.capped ? " (capped)" : "", level, minor.count, minor.stop);
    // At least one component per cycle (the peak passed the stop rules), so the loop ends.
    if (minor.count < 1 || minor.count > component_capacity)
      throw error("clark: minor cycle took " + std::to_string(minor.count) + " components (internal error)",
                  cudaSuccess, __FILE__, __LINE__);
    const std::vector<component_record> records =
        to_host_sync<component_record>({components.data(), static_cast<std::size_t>(minor.count)}, stream);
    for (std::size_t j = 0; j < records.size(); ++j)
      if (records[j].index >= static_cast<std::uint32_t>(pixels))
        throw error("clark: component " + std::to_string(j) + " of a minor cycle was not written (internal error)",
                    cudaSuccess, __FILE__, __LINE__);
    append_components(result, records, dirty.width);
    taken += minor.count;

    convolver.subtract_convolved(dirty_copy.data(), model.data(), buffers.residual(), stream);
    ++result.major_cycles;
  }

  result.model = image{dirty.width, dirty.height, to_host_sync<float>(model.span(), stream)};
  result.residual = image{dirty.width, dirty.height,
                          to_host_sync<float>({buffers.residual(), static_cast<std::size_t>(pixels)}, stream)};
  result.iterations = taken;
  result.peak_residual = peak_magnitude(key);
  return result;
}

}  // namespace bkt::clean::gpu
