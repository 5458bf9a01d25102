// The Högbom stop rules of deconvolve.hpp as one function, evaluated identically by every block of
// a step launch (so that all of them agree without talking) and by the host between Clark's major
// cycles.
#pragma once

#include <cstdint>

#include "image.hpp"
#include "bkt/config.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {

/// What the loop does with the peak it just found.
enum class step_decision : int {
  take = -1,  // take it as the next component
  stop_niter = static_cast<int>(stop_reason::niter),
  stop_threshold = static_cast<int>(stop_reason::threshold),
  stop_diverged = static_cast<int>(stop_reason::diverged),
  stop_no_pixels = static_cast<int>(stop_reason::no_pixels),
};

/// The parameters the rules read, in the form device code can take by value.
struct stop_rules {
  double threshold = 0;
  std::int64_t niter = 0;
  float gain = 0;  // float(params.gain): the flux is float(gain) * R[p] in float
};

inline stop_rules rules_of(const clean_params& params) {
  return {params.threshold, params.niter, static_cast<float>(params.gain)};
}

/// The rules in the contract's order: no candidate, |R[p]| <= threshold, niter components taken,
/// |R[p]| > 1.1 x the first iteration's peak. Compared in double, as the CPU path does with the
/// double threshold. `first_peak` is read only when taken > 0.
BKT_HOST_DEVICE inline step_decision decide_step(std::uint64_t key, std::int64_t taken, float first_peak,
                                                 const stop_rules& rules) {
  if (key == no_peak) return step_decision::stop_no_pixels;
  const double magnitude = peak_magnitude(key);
  if (magnitude <= rules.threshold) return step_decision::stop_threshold;
  if (taken >= rules.niter) return step_decision::stop_niter;
  if (taken > 0 && magnitude > 1.1 * static_cast<double>(first_peak)) return step_decision::stop_diverged;
  return step_decision::take;
}

inline stop_reason reason_of(step_decision decision) { return static_cast<stop_reason>(static_cast<int>(decision)); }

}  // namespace bkt::clean::gpu
