// run_joint_clean (joint_clean.hpp): the cycle rules, over a backend's figures.
#include "joint/joint_clean.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cpu/stop_rules.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

/// The active scale whose peak times bias is largest (ties: the smaller scale); -1 when none.
int chosen_scale(const std::vector<scale_peak>& peaks, const std::vector<bool>& active,
                 const std::vector<scale_info>& scales) {
  int best = -1;
  double best_value = -1;
  for (std::size_t s = 0; s < peaks.size(); ++s) {
    if (!active[s] || !peaks[s].found) continue;
    const double value = std::fabs(static_cast<double>(peaks[s].value)) * scales[s].bias;
    if (value > best_value) {
      best = static_cast<int>(s);
      best_value = value;
    }
  }
  return best;
}

double biased(const scale_peak& peak, const scale_info& scale) {
  return std::fabs(static_cast<double>(peak.value)) * scale.bias;
}

/// Finds the peaks of the active scales, keeping the others' last values (WSClean's rule reads them).
void refresh_peaks(joint_backend& backend, const std::vector<bool>& active, bool mask_on,
                   std::vector<scale_peak>& peaks) {
  std::vector<int> wanted;
  for (std::size_t s = 0; s < active.size(); ++s)
    if (active[s]) wanted.push_back(static_cast<int>(s));
  const std::vector<scale_peak> found = backend.find_peaks(wanted, mask_on);
  for (std::size_t i = 0; i < wanted.size(); ++i) peaks[static_cast<std::size_t>(wanted[i])] = found[i];
}

/// The sub-minor loop's thresholds for the method, P being the chosen scale's biased peak and
/// `cycle_threshold` the major cycle's.
sub_minor_request request_for(algorithm method, int scale, const scale_info& info, double peak, double cycle_threshold,
                              double sidelobe, double multiscale_gain) {
  sub_minor_request request;
  request.scale = scale;
  request.divergence_level = divergence_factor * peak / info.bias;  // the loop starts from the unbiased peak
  switch (method) {
    case algorithm::multiscale: {
      const double level = std::max(cycle_threshold, (1 - multiscale_gain) * peak) / info.bias;
      request.candidate_threshold = request.stop_threshold = level;
      break;
    }
    case algorithm::clark: {
      // Strictly below the peak, so that the peak is a candidate.
      const double cutoff = std::min(sidelobe * peak, std::nextafter(peak, 0.0));
      request.candidate_threshold = cutoff;
      request.stop_threshold = std::max(cycle_threshold, cutoff);
      break;
    }
    case algorithm::hogbom:
      request.candidate_threshold = 0;
      request.stop_threshold = cycle_threshold;
      break;
  }
  return request;
}

/// BKT_CLEAN_TRACE=1 prints each minor loop on stderr.
bool trace_enabled() {
  const char* text = std::getenv("BKT_CLEAN_TRACE");
  return text != nullptr && std::string(text) == "1";
}

}  // namespace

image integrated_psf(const channel_set& channels) {
  image sum{channels.psf.front().width, channels.psf.front().height,
            std::vector<float>(channels.psf.front().pixels.size(), 0.0f)};
  double total = 0;
  for (double weight : channels.weights) total += weight;
  std::vector<double> accumulated(sum.pixels.size(), 0.0);
  for (std::size_t c = 0; c < channels.psf.size(); ++c)
    for (std::size_t i = 0; i < accumulated.size(); ++i)
      accumulated[i] += channels.weights[c] * channels.psf[c].pixels[i];
  for (std::size_t i = 0; i < accumulated.size(); ++i) sum.pixels[i] = static_cast<float>(accumulated[i] / total);
  return sum;
}

double integrated_sidelobe(const channel_set& channels) { return max_sidelobe(integrated_psf(channels)); }

std::optional<double> reference_frequency(const channel_set& channels) {
  if (channels.frequencies.size() != channels.dirty.size()) return std::nullopt;
  double sum = 0, weights = 0;
  for (std::size_t c = 0; c < channels.frequencies.size(); ++c) {
    sum += channels.weights[c] * channels.frequencies[c];
    weights += channels.weights[c];
  }
  return sum / weights;
}

std::vector<double> spectral_abscissae(const channel_set& channels) {
  const std::optional<double> reference = reference_frequency(channels);
  if (!reference) return {};
  std::vector<double> x;
  for (double frequency : channels.frequencies) x.push_back(frequency / *reference - 1);
  return x;
}

scale_set scales_for(const channel_set& channels, const joint_params& params) {
  if (params.method != algorithm::multiscale) return {delta_scale(params.gain), {}};
  return make_scales(params.multiscale, params.beam_fwhm, params.gain, integrated_psf(channels), channels.width(),
                     channels.height());
}

joint_result run_joint_clean(joint_backend& backend, const channel_set& channels, const joint_params& params,
                             const scale_set& set) {
  const std::vector<scale_info>& scales = set.scales;
  joint_result result;
  result.dropped_scales = set.dropped;
  for (const scale_info& scale : scales) result.scales.push_back(scale.size);
  result.per_scale.resize(scales.size());
  const bool multiscale = params.method == algorithm::multiscale;
  const double sidelobe = params.method == algorithm::clark ? integrated_sidelobe(channels) : 0.0;
  const bool measure_noise = params.levels.auto_threshold || params.levels.auto_mask;
  const std::int64_t countdown_start = std::max<std::int64_t>(8, static_cast<std::int64_t>(scales.size()) * 3 / 2);
  std::vector<scale_peak> peaks(scales.size());
  bool masked = false;
  double first_peak = 0;  // Högbom and Clark: the divergence rule's reference
  // Whether `peak` has diverged from `reference` (the run's first peak, or for multiscale the
  // major cycle's).
  const auto diverged = [&](double peak, double reference) {
    return reference > 0 && peak > (multiscale ? multiscale_divergence_limit : divergence_factor) * reference;
  };
  bool finished = false;
  const bool trace = trace_enabled();
  while (!finished) {
    noise_cycle entry;
    entry.masked = masked;
    const bool before_mask = params.levels.auto_mask && !masked;
    if (measure_noise) entry.sigma = backend.integrated_sigma();
    const double factor = before_mask ? *params.levels.auto_mask : params.levels.auto_threshold.value_or(0.0);
    entry.level = std::max(params.threshold, factor * entry.sigma);

    std::vector<bool> active(scales.size(), true);
    refresh_peaks(backend, active, masked, peaks);
    int scale = chosen_scale(peaks, active, scales);
    if (scale < 0) {
      // An auto-mask without components has nothing to clean: the unmasked part reached its level.
      result.reason = masked ? stop_reason::threshold : stop_reason::no_pixels;
      result.peak_residual = 0;
      result.cycles.push_back(entry);
      break;
    }
    double peak = biased(peaks[static_cast<std::size_t>(scale)], scales[static_cast<std::size_t>(scale)]);
    result.peak_residual = peak;
    if (peak <= entry.level) {
      result.cycles.push_back(entry);
      if (!before_mask) {
        result.reason = stop_reason::threshold;
        break;
      }
      masked = true;
      continue;
    }
    if (result.iterations >= params.niter) {
      result.reason = stop_reason::niter;
      result.cycles.push_back(entry);
      break;
    }
    if (!multiscale && diverged(peak, first_peak)) {
      result.reason = stop_reason::diverged;
      result.cycles.push_back(entry);
      break;
    }
    if (first_peak == 0) first_peak = peak;
    const double cycle_peak = peak;

    const double cycle_threshold = std::max(entry.level, (1 - params.mgain) * peak);
    std::int64_t countdown = countdown_start;
    while (peak > cycle_threshold && (!multiscale || countdown > 0)) {
      if (result.iterations >= params.niter) {
        result.reason = stop_reason::niter;
        finished = true;
        break;
      }
      const scale_info& info = scales[static_cast<std::size_t>(scale)];
      sub_minor_request request =
          request_for(params.method, scale, info, peak, cycle_threshold, sidelobe, params.multiscale.gain);
      if (multiscale && cycle_threshold > (1 - params.multiscale.gain) * peak) --countdown;
      request.max_components = params.niter - result.iterations;
      const sub_minor_outcome outcome = backend.run_sub_minor(request, masked, result);
      if (trace)
        std::fprintf(stderr, "bkt-clean joint: cycle %lld loop %lld scale %g peak %g (x %lld y %lld) cycle threshold %g "
                             "loop threshold %g candidates %lld took %lld flux %g, last peak %g\n",
                     static_cast<long long>(result.major_cycles), static_cast<long long>(result.minor_loops), info.size,
                     peak, static_cast<long long>(peaks[static_cast<std::size_t>(scale)].x),
                     static_cast<long long>(peaks[static_cast<std::size_t>(scale)].y), cycle_threshold,
                     request.stop_threshold, static_cast<long long>(outcome.candidates),
                     static_cast<long long>(outcome.taken), outcome.flux, outcome.last_peak);
      backend.update_residuals();
      ++result.minor_loops;
      result.iterations += outcome.taken;
      entry.iterations += outcome.taken;
      result.per_scale[static_cast<std::size_t>(scale)].components += outcome.taken;
      result.per_scale[static_cast<std::size_t>(scale)].flux += outcome.flux;
      if (outcome.diverged) {
        result.reason = stop_reason::diverged;
        finished = true;
        break;
      }

      const double last = biased(peaks[static_cast<std::size_t>(scale)], info);
      for (std::size_t s = 0; s < scales.size(); ++s)
        active[s] = static_cast<int>(s) == scale || biased(peaks[s], scales[s]) > last * (1 - params.gain);
      // A loop that took nothing (its peak sat on the threshold) must not be chosen again at once.
      if (outcome.taken == 0) active[static_cast<std::size_t>(scale)] = false;
      refresh_peaks(backend, active, masked, peaks);
      scale = chosen_scale(peaks, active, scales);
      if (scale < 0) break;
      peak = biased(peaks[static_cast<std::size_t>(scale)], scales[static_cast<std::size_t>(scale)]);
      result.peak_residual = peak;
      if (diverged(peak, multiscale ? cycle_peak : first_peak)) {
        result.reason = stop_reason::diverged;
        finished = true;
        break;
      }
    }
    result.cycles.push_back(entry);
    ++result.major_cycles;
    if (params.progress) params.progress({result.major_cycles, result.iterations, result.peak_residual, entry});
    if (finished) break;
    const bool reached_level = cycle_threshold <= entry.level;
    if (reached_level && !before_mask) {
      // The cycle ran down to the level itself (WSClean's "final threshold"): the level counts as
      // reached even where the countdown left the peak a little above it.
      result.reason = stop_reason::threshold;
      break;
    }
    if (params.max_major_cycles > 0 && result.major_cycles >= params.max_major_cycles) {
      result.reason = stop_reason::nmiter;
      break;
    }
    if (reached_level) {
      masked = true;  // the auto-mask's level: on with it, down to the auto-threshold
    } else if (entry.iterations == 0) {
      // No scale could take a component above its threshold: the run is as deep as it goes.
      result.reason = stop_reason::threshold;
      break;
    }
  }
  backend.fetch(result);
  return result;
}

}  // namespace bkt::clean
