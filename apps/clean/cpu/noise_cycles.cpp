// clean_by_noise_cycles (noise_cycles.hpp): the cycle loop around either path's deconvolution.
#include "noise_cycles.hpp"

#include <algorithm>
#include <cstddef>

#include "cpu/candidate_pixels.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

/// The pixels that hold components, among `allowed`: the auto-mask.
std::vector<std::uint8_t> component_mask(const image& model, const std::vector<std::uint8_t>& allowed) {
  std::vector<std::uint8_t> mask(allowed.size(), 0);
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = allowed[i] == 1 && model.pixels[i] != 0.0f ? 1 : 0;
  return mask;
}

/// Adds one cycle's outcome to the run's.
void add_cycle(clean_result& total, clean_result&& part) {
  for (std::size_t i = 0; i < total.model.pixels.size(); ++i) total.model.pixels[i] += part.model.pixels[i];
  total.components.insert(total.components.end(), part.components.begin(), part.components.end());
  total.iterations += part.iterations;
  total.major_cycles += part.major_cycles;
  total.residual = std::move(part.residual);
  total.peak_residual = part.peak_residual;
  total.reason = part.reason;
}

}  // namespace

clean_result clean_by_noise_cycles(const image& dirty, const clean_params& params, const noise_levels& levels,
                                   const deconvolver& deconvolve, std::vector<noise_cycle>& cycles) {
  clean_result total;
  total.residual = dirty;
  total.model = image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)};
  total.reason = stop_reason::threshold;
  const std::vector<std::uint8_t> allowed = cpu::candidate_pixels(dirty, params);  // the user's mask, no NaN
  std::vector<std::uint8_t> candidates = allowed;
  clean_params cycle = params;
  bool masked = false;
  for (;;) {
    noise_cycle entry;
    entry.sigma = mad_sigma(total.residual, params);
    entry.masked = masked;
    const bool before_mask = levels.auto_mask && !masked;
    const double factor = before_mask ? *levels.auto_mask : levels.auto_threshold.value_or(0.0);
    entry.level = std::max(params.threshold, factor * entry.sigma);
    const cpu::peak_pixel peak = cpu::find_peak(total.residual.pixels, candidates);
    total.peak_residual = peak.index < 0 ? 0 : peak.magnitude;
    if (peak.index < 0) {
      // An auto-mask without components has nothing to clean: the unmasked part reached its level.
      total.reason = masked ? stop_reason::threshold : stop_reason::no_pixels;
      cycles.push_back(entry);
      break;
    }
    if (static_cast<double>(peak.magnitude) <= entry.level) {
      cycles.push_back(entry);
      if (!before_mask) {
        total.reason = stop_reason::threshold;
        break;
      }
      masked = true;
      candidates = component_mask(total.model, allowed);
      cycle.mask = candidates;
      continue;
    }
    if (total.iterations >= params.niter) {
      total.reason = stop_reason::niter;
      cycles.push_back(entry);
      break;
    }
    cycle.threshold = std::max(entry.level, (1.0 - params.mgain) * static_cast<double>(peak.magnitude));
    cycle.niter = params.niter - total.iterations;
    clean_result part = deconvolve(total.residual, cycle);
    entry.iterations = part.iterations;
    cycles.push_back(entry);
    add_cycle(total, std::move(part));
    if (total.reason != stop_reason::threshold) break;
  }
  return total;
}

}  // namespace bkt::clean
