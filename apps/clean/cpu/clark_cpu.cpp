// Clark's CLEAN (Clark 1980) on the CPU. Each major cycle computes the residual exactly,
// R = dirty - model (*) PSF, by zero-padded float FFTs (the PSF's transform is made once per run);
// its minor cycle then runs Högbom's loop over the pixels brighter than max_sidelobe times the
// peak (at most max_minor_cycle_pixels of them) with a PSF patch (clark_minor_cycle.hpp), until
// their peak falls to max(threshold, (1 - mgain) * the cycle's starting peak). The stop tests are
// Högbom's, made on each major cycle's exact residual; iterations count components over all minor
// cycles, and peak_residual comes from the last major cycle's residual.
#include <algorithm>
#include <optional>

#include "cpu/candidate_pixels.hpp"
#include "cpu/clark_minor_cycle.hpp"
#include "cpu/clean_cpu_steps.hpp"
#include "cpu/padded_convolver.hpp"
#include "deconvolve.hpp"

namespace bkt::clean::cpu {

clean_result clark_cpu(const image& dirty, const image& psf, const clean_params& params) {
  clean_result result;
  result.residual = dirty;
  result.model = image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)};
  const std::vector<std::uint8_t> candidates = candidate_pixels(dirty, params);
  const double sidelobe = max_sidelobe(psf);
  // Made when the first major cycle ends: a run that stops at once never pays for the transform.
  std::optional<padded_convolver> psf_convolver;
  const float gain = static_cast<float>(params.gain);
  float first_peak = 0;
  for (;;) {
    if (result.major_cycles > 0) {
      if (!psf_convolver)
        psf_convolver.emplace(psf, psf_centre(psf.width), psf_centre(psf.height), dirty.width, dirty.height);
      std::vector<float>& residual = result.residual.pixels;
      psf_convolver->convolve(result.model.pixels.data(), residual.data());
      for (std::size_t i = 0; i < residual.size(); ++i) residual[i] = dirty.pixels[i] - residual[i];  // NaN stays
    }

    const peak_pixel peak = find_peak(result.residual.pixels, candidates);
    if (peak.index < 0) {
      result.reason = stop_reason::no_pixels;
      result.peak_residual = 0;
      break;
    }
    result.peak_residual = peak.magnitude;
    if (peak.magnitude <= params.threshold) {
      result.reason = stop_reason::threshold;
      break;
    }
    if (result.iterations == params.niter) {
      result.reason = stop_reason::niter;
      break;
    }
    if (result.major_cycles == 0) {
      first_peak = peak.magnitude;
    } else if (static_cast<double>(peak.magnitude) > 1.1 * static_cast<double>(first_peak)) {
      result.reason = stop_reason::diverged;
      break;
    }

    ++result.major_cycles;
    minor_cycle_pixels pixels = select_minor_cycle_pixels(result.residual, candidates, sidelobe * peak.magnitude,
                                                          peak.index, max_minor_cycle_pixels);
    // The peak itself is above stop_at (peak > threshold >= 0 and mgain > 0): every cycle takes
    // at least one component, so the loop ends.
    const double stop_at = std::max(params.threshold, (1 - params.mgain) * peak.magnitude);
    result.iterations += run_minor_cycle(pixels, psf, gain, stop_at, params.niter - result.iterations,
                                         result.model, result.components);
  }
  return result;
}

}  // namespace bkt::clean::cpu
