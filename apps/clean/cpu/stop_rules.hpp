// Högbom's stop rules (deconvolve.hpp) written once, for the CPU loops (Högbom and Clark's major
// cycles) and the GPU path alike (gpu/stop_rules.hpp applies them to a packed peak key), so that
// both paths stop on the same iteration for the same reason.
#pragma once

#include <cstdint>

#include "bkt/config.hpp"
#include "image.hpp"

namespace bkt::clean {

/// A run stops as diverged once the peak |R| exceeds this multiple of the first iteration's peak.
/// With a PSF that fits the image and a gain below 1, a component lowers the peak; it raises
/// another pixel only where a negative PSF sidelobe lies over it, by gain x |sidelobe| x the peak
/// (about 2% for gain 0.1 and a 20% sidelobe). A peak 10% above the first is beyond that: the PSF
/// does not fit the image or the gain is too large, and further components only add to the error.
inline constexpr double divergence_factor = 1.1;

/// What a loop does with the peak it just found.
enum class step_decision : int {
  take = -1,  // take it as the next component
  stop_niter = static_cast<int>(stop_reason::niter),
  stop_threshold = static_cast<int>(stop_reason::threshold),
  stop_diverged = static_cast<int>(stop_reason::diverged),
  stop_no_pixels = static_cast<int>(stop_reason::no_pixels),
};

/// The parameters the rules read, in a form device code can take by value.
struct stop_rules {
  double threshold = 0;
  std::int64_t niter = 0;
  float gain = 0;  // float(params.gain): the flux is float(gain) * R[p] in float
};

inline stop_rules rules_of(const clean_params& params) {
  return {params.threshold, params.niter, static_cast<float>(params.gain)};
}

/// The rules in the contract's order: no candidate (`found` false), |R[p]| <= threshold, niter
/// components taken, |R[p]| > divergence_factor x the first iteration's peak. `magnitude` is
/// |R[p]|; compared in double, against the double threshold. `first_peak` is read only when
/// taken > 0 (the caller records it when it takes the first component).
BKT_HOST_DEVICE inline step_decision decide_step(bool found, float magnitude, std::int64_t taken, float first_peak,
                                                 const stop_rules& rules) {
  if (!found) return step_decision::stop_no_pixels;
  const double peak = magnitude;
  if (peak <= rules.threshold) return step_decision::stop_threshold;
  if (taken >= rules.niter) return step_decision::stop_niter;
  if (taken > 0 && peak > divergence_factor * static_cast<double>(first_peak)) return step_decision::stop_diverged;
  return step_decision::take;
}

/// The stop_reason of a decision other than take.
BKT_HOST_DEVICE inline stop_reason reason_of(step_decision decision) {
  return static_cast<stop_reason>(static_cast<int>(decision));
}

}  // namespace bkt::clean
