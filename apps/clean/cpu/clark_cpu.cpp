// Clark's CLEAN (Clark 1980) on the CPU, with the cycle rules of the GPU path (gpu/clark_gpu.cu).
// Each major cycle computes the residual exactly, R = dirty - model (*) PSF, by zero-padded float
// FFTs (the PSF's transform is made once per run); the stop tests are Högbom's, made on that
// residual. Its minor cycle (clark_minor_cycle.hpp) then runs Högbom's loop with a PSF patch over
// the pixels brighter than max_sidelobe x the peak P (the max_minor_cycle_pixels largest when
// more), always taking one component, until their peak is at or below
//   max(threshold, (1 - mgain) x P, the largest |R| outside the list),
// the last being the largest left out when capped, else the sidelobe cutoff: below it a pixel
// outside the list may be the true peak. The patch leaves out the PSF beyond it, whose largest
// value (exterior_sidelobe) moves every pixel by about flux x that per component: the minor cycle
// runs in batches, each ending once exterior_sidelobe x sqrt(E) >= batch_error_fraction x peak
// (E: the sum over the pixels of (flux taken there in the batch)^2), after which the pixels are
// corrected with the whole PSF; pixels outside the list drift likewise and only the FFT sees
// them, so the major cycle ends once exterior_sidelobe x sqrt(sum of its batches' E) >=
// cycle_error_fraction x peak. Iterations count components over all minor cycles, and
// peak_residual comes from the last major cycle's residual.
#include <algorithm>
#include <cmath>
#include <optional>

#include "cpu/candidate_pixels.hpp"
#include "cpu/clark_minor_cycle.hpp"
#include "cpu/clean_cpu_steps.hpp"
#include "cpu/padded_convolver.hpp"
#include "cpu/stop_rules.hpp"
#include "deconvolve.hpp"

namespace bkt::clean::cpu {
namespace {

/// The error budgets of a batch and of a major cycle, as fractions of the current peak: the GPU
/// path's (gpu/clark_gpu.cu says how they were chosen), so that both follow the same rules.
constexpr double batch_error_fraction = 0.3;
constexpr double cycle_error_fraction = 0.5;

}  // namespace

clean_result clark_cpu(const image& dirty, const image& psf, const clean_params& params) {
  clean_result result;
  result.residual = dirty;
  result.model = image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)};
  const std::vector<std::uint8_t> candidates = candidate_pixels(dirty, params);
  const double sidelobe = max_sidelobe(psf);
  const double exterior = exterior_sidelobe(psf, dirty.width, dirty.height);
  minor_cycle_rules rules;
  rules.gain = static_cast<float>(params.gain);
  rules.batch_error_scale = std::pow(exterior / batch_error_fraction, 2);
  rules.cycle_error_scale = std::pow(exterior / cycle_error_fraction, 2);
  // Made when the first major cycle ends: a run that stops at once never pays for the transform.
  std::optional<padded_convolver> psf_convolver;
  const stop_rules run_stop_rules = rules_of(params);
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
    result.peak_residual = peak.index < 0 ? 0 : peak.magnitude;
    const step_decision decision =
        decide_step(peak.index >= 0, peak.magnitude, result.iterations, first_peak, run_stop_rules);
    if (decision != step_decision::take) {
      result.reason = reason_of(decision);
      break;
    }
    // Every major cycle takes a component, so no component taken yet means this is the first.
    if (result.iterations == 0) first_peak = peak.magnitude;

    ++result.major_cycles;
    const double cutoff = sidelobe * peak.magnitude;
    minor_cycle_pixels pixels =
        select_minor_cycle_pixels(result.residual, candidates, cutoff, peak.index, max_minor_cycle_pixels);
    const double outside = pixels.capped ? pixels.largest_left_out : cutoff;
    rules.level = std::max({params.threshold, (1 - params.mgain) * peak.magnitude, outside});
    rules.max_components = params.niter - result.iterations;
    // The peak passed the stop rules and the minor cycle takes it whatever the level: every cycle
    // takes at least one component, so the loop ends.
    result.iterations += run_minor_cycle(pixels, psf, rules, result.model, result.components).taken;
  }
  return result;
}

}  // namespace bkt::clean::cpu
