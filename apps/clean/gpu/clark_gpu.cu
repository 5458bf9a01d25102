// Clark on the GPU (Clark 1980, as deconvolve.hpp states it). Each major cycle:
//  1. one pass packs every candidate's peak key and finds the peak P (candidate_keys.hpp); the
//     stop rules of Högbom (stop_rules.hpp) apply to it on the true residual;
//  2. the candidates are the pixels with |R| > max_sidelobe(psf) x P (bkt::select_if); when more
//     than minor_capacity, the largest of them (bkt::top_k);
//  3. the minor cycle (clark_minor.hpp) runs Högbom over them with a PSF patch, always taking at
//     least one component, until their peak is at or below
//       max(threshold, (1 - mgain) x P, the largest |R| outside the list),
//     the last being the largest left out when capped, else the sidelobe cutoff: below it a pixel
//     outside the list may be the true peak;
//  4. residual = dirty - model (*) psf by FFT (fft_convolver.hpp).
// The patch leaves out the PSF beyond it: with the sky's many sources each component shifts every
// candidate by up to flux x exterior_sidelobe (the largest |psf| outside the patch: for a PSF of
// grating sidelobes, about max_sidelobe), and a long minor cycle then cleans sidelobes as sources
// (on the 4096^2 benchmark sky it stalled far above Högbom's residual). So the minor cycle runs in
// batches: a batch ends once exterior_sidelobe x sqrt(E) >= batch_error_fraction x peak, E being
// the sum over candidates of (flux taken there in the batch)^2 (an error estimate for components
// at unrelated positions); the candidates are then corrected for the batch with the whole PSF
// (clark_exterior.hpp) and the next batch goes on from exact values. Pixels outside the list
// drift likewise and are only seen by the FFT, so the major cycle ends once
// exterior_sidelobe x sqrt(sum of the batches' E) >= cycle_error_fraction x peak.
// The host reads the peak, the candidate count and each batch's outcome and records.
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
#include "clark_exterior.hpp"
#include "clark_minor.hpp"
#include "device_plane_buffers.hpp"
#include "fft_convolver.hpp"
#include "gpu_paths.hpp"
#include "stop_rules.hpp"

namespace bkt::clean::gpu {
namespace {

/// Components one minor-cycle launch may record (device buffer size); a launch that fills it ends
/// the cycle early and the next major cycle carries on.
constexpr std::int64_t max_components_per_cycle = std::int64_t{1} << 20;

/// The error budgets of a batch and of a major cycle, as fractions of the current peak (see
/// above), chosen on CPU emulations of this loop on the benchmark's sky at 1024^2 to 4096^2 (PSF
/// twice the size): they reached Högbom's residual RMS in tens of major cycles
/// (docs/tools/bkt-clean.md). A cycle budget of 1 let the 4096^2 run wander once it cleaned noise.
constexpr double batch_error_fraction = 0.3;
constexpr double cycle_error_fraction = 0.5;

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
  device_buffer<std::uint64_t> keys(pixels, stream), selected(pixels, stream), capped(minor_capacity + 1, stream);
  device_buffer<float> values(minor_capacity, stream);
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
  const double exterior = exterior_sidelobe_sync(buffers.psf(), geometry, patch_half, stream);
  const double batch_error_scale = std::pow(exterior / batch_error_fraction, 2);
  const double cycle_error_scale = std::pow(exterior / cycle_error_fraction, 2);
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
    const float cutoff = candidate_level(sidelobe, magnitude);
    const candidate_list list = select_candidates(keys.data(), pixels, cutoff, minor_capacity, selected.data(),
                                                  capped.data(), count.data(), ws, stream);
    BKT_EXPECTS(list.count >= 1, "clark: the peak is not among the candidates (internal error)");
    const double outside = list.capped ? list.largest_left_out : cutoff;
    const double level = std::max({params.threshold, (1.0 - params.mgain) * magnitude, outside});

    minor_cycle_args args;
    args.candidate_keys = list.keys;
    args.values_out = values.data();
    args.count = static_cast<std::int32_t>(list.count);
    args.model = model.data();
    args.patch = patch.data();
    args.patch_half = patch_half;
    args.width = geometry.width;
    args.gain = rules.gain;
    args.level = level;
    args.batch_error_scale = batch_error_scale;
    args.cycle_error_scale = cycle_error_scale;
    args.niter = params.niter;
    args.capacity = static_cast<std::int32_t>(component_capacity);
    args.components = components.data();
    args.outcome = outcome.data();
    for (int batch = 0;; ++batch) {
      BKT_CUDA_CHECK(cudaMemsetAsync(components.data(), 0xa5, components.size_bytes(), stream));
      args.values_in = batch == 0 ? nullptr : values.data();
      args.take_first = batch == 0;
      args.taken_before = taken;
      launch_minor_cycle(args, stream);
      const minor_outcome minor = read_sync(outcome.data(), stream);
      if (trace)
        std::fprintf(stderr,
                     "bkt-clean clark: cycle %lld batch %d peak %g candidates %lld%s level %g took %d stop %d\n",
                     static_cast<long long>(result.major_cycles), batch, static_cast<double>(magnitude),
                     static_cast<long long>(list.count), list.capped ? " (capped)" : "", level, minor.count,
                     minor.stop);
      // The cycle's first launch takes at least one component (the peak passed the stop rules) and
      // a later one runs only after a batch that took some, so the loop ends.
      if (minor.count < (batch == 0 ? 1 : 0) || minor.count > component_capacity)
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
      args.cycle_error_before += minor.error_sum;
      if (static_cast<minor_stop>(minor.stop) != minor_stop::batch_error) break;
      correct_beyond_patch(list.keys, values.data(), args.count, components.data(), minor.count, buffers.psf(),
                           geometry, patch_half, stream);
    }

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
