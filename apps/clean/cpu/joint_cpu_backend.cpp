#include "cpu/joint_cpu_backend.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "cpu/candidate_pixels.hpp"
#include "cpu/row_chunks.hpp"
#include "deconvolve.hpp"
#include "joint/loop_taper.hpp"

namespace bkt::clean::cpu {

/// The sub-minor loop's pixels: positions, each channel's convolved residual, the integrated value.
struct joint_cpu_backend::candidates {
  std::vector<std::int64_t> x, y;
  std::vector<std::vector<float>> values;  // [channel][candidate]
  std::vector<float> integrated;
  std::size_t size() const { return x.size(); }
};

namespace {

/// Candidates * channels above which one iteration's update is worth spreading over threads.
constexpr std::int64_t threaded_update_work = std::int64_t{1} << 17;

/// sum_c share_c * v_c in channel order, in float: the order the GPU path uses too.
float integrate(const std::vector<float>& shares, const std::vector<std::vector<float>>& values, std::size_t i) {
  float sum = 0;
  for (std::size_t c = 0; c < shares.size(); ++c) sum = std::fmaf(shares[c], values[c][i], sum);
  return sum;
}

}  // namespace

joint_cpu_backend::joint_cpu_backend(const channel_set& channels, const joint_params& params,
                                     const std::vector<scale_info>& scales)
    : channels_(channels),
      scales_(scales),
      width_(channels.width()),
      height_(channels.height()),
      channels_count_(channels.channels()),
      workers_(row_worker_count()) {
  double total = 0;
  for (double weight : channels.weights) total += weight;
  for (double weight : channels.weights) shares_.push_back(static_cast<float>(weight / total));
  abscissae_ = spectral_abscissae(channels);
  if (params.spectral_terms > 0 && !abscissae_.empty())
    fit_ = {params.spectral_terms, static_cast<int>(channels_count_), abscissae_.data(), channels.weights.data()};

  clean_params mask_params;
  mask_params.mask = params.mask;
  allowed_ = candidate_pixels(channels.dirty.front(), mask_params);
  for (const image& dirty : channels.dirty)
    for (std::size_t i = 0; i < allowed_.size(); ++i)
      if (std::isnan(dirty.pixels[i])) allowed_[i] = 0;
  if (params.levels.auto_mask) scale_masks_.assign(scales.size(), std::vector<std::uint8_t>(allowed_.size(), 0));
  residuals_ = channels.dirty;
  for (const image& dirty : channels.dirty)
    models_.push_back(image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)});
  for (const image& psf : channels.psf) {
    // The PSF's central width x height pixels, centred at (width / 2, height / 2).
    std::vector<float> crop(static_cast<std::size_t>(width_ * height_), 0.0f);
    const std::int64_t dx = psf_centre(psf.width) - width_ / 2, dy = psf_centre(psf.height) - height_ / 2;
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x)
        if (x + dx >= 0 && x + dx < psf.width && y + dy >= 0 && y + dy < psf.height)
          crop[static_cast<std::size_t>(y * width_ + x)] = psf.at(x + dx, y + dy);
    crops_.push_back(std::move(crop));
  }
  scale_spectra_.resize(scales.size());
  convolved_.resize(static_cast<std::size_t>(channels_count_));
  if (std::any_of(scales.begin(), scales.end(), [](const scale_info& s) { return s.size > 0; })) {
    circular_.emplace(width_, height_);
    for (std::int64_t c = 0; c < channels_count_; ++c) works_.push_back(circular_->make_work());
  }
}

void joint_cpu_backend::update_residuals() {
  if (exact_.empty()) {
    // The channels' transforms run side by side; each uses the cores the others leave.
    const int threads = std::max<int>(1, static_cast<int>(std::thread::hardware_concurrency()) /
                                             static_cast<int>(std::min<std::int64_t>(channels_count_, workers_)));
    for (const image& psf : channels_.psf)
      exact_.emplace_back(psf, psf_centre(psf.width), psf_centre(psf.height), width_, height_, threads);
  }
  for_each_index(channels_count_, workers_, [&](std::int64_t c) {
    const auto channel = static_cast<std::size_t>(c);
    std::vector<float>& residual = residuals_[channel].pixels;
    exact_[channel].convolve(models_[channel].pixels.data(), residual.data());
    const std::vector<float>& dirty = channels_.dirty[channel].pixels;
    for (std::size_t i = 0; i < residual.size(); ++i) residual[i] = dirty[i] - residual[i];  // NaN stays
  });
}

std::vector<float> joint_cpu_backend::integrated_residual() const {
  std::vector<float> sum(allowed_.size(), 0.0f);
  for (std::size_t c = 0; c < shares_.size(); ++c)
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = std::fmaf(shares_[c], residuals_[c].pixels[i], sum[i]);
  return sum;
}

double joint_cpu_backend::integrated_sigma() {
  image integrated{width_, height_, integrated_residual()};
  clean_params allowed_only;
  allowed_only.mask = allowed_;
  return mad_sigma(integrated, allowed_only);
}

bool joint_cpu_backend::allowed(std::int64_t x, std::int64_t y, int scale, bool mask_on) const {
  const scale_info& info = scales_[static_cast<std::size_t>(scale)];
  if (x < info.border || y < info.border || x >= width_ - info.border || y >= height_ - info.border) return false;
  const auto i = static_cast<std::size_t>(y * width_ + x);
  return allowed_[i] == 1 && (!mask_on || scale_masks_.empty() || scale_masks_[static_cast<std::size_t>(scale)][i] == 1);
}

const kernel_spectrum& joint_cpu_backend::spectrum_of_scale(int scale) {
  std::optional<kernel_spectrum>& spectrum = scale_spectra_[static_cast<std::size_t>(scale)];
  if (!spectrum) {
    const scale_kernel& kernel = scales_[static_cast<std::size_t>(scale)].kernel;
    spectrum = circular_->spectrum_of(kernel.values, kernel.width);
  }
  return *spectrum;
}

std::vector<scale_peak> joint_cpu_backend::find_peaks(const std::vector<int>& scales, bool mask_on) {
  const std::vector<float> integrated = integrated_residual();
  const bool any_scale = std::any_of(scales.begin(), scales.end(), [&](int s) { return scales_[s].size > 0; });
  if (any_scale) {
    circular_->forward(integrated.data(), works_.front());
    for (int scale : scales) spectrum_of_scale(scale);  // made here, not by the threads below
    while (scale_works_.size() < scales.size()) scale_works_.push_back(circular_->make_work());
  }
  // One transform in, one out per scale, the scales side by side.
  std::vector<scale_peak> peaks(scales.size());
  for_each_index(static_cast<std::int64_t>(scales.size()), workers_, [&](std::int64_t index) {
    const int scale = scales[static_cast<std::size_t>(index)];
    const float* values = integrated.data();
    if (scales_[static_cast<std::size_t>(scale)].size > 0) {
      circular_convolver::work& work = scale_works_[static_cast<std::size_t>(index)];
      circular_->inverse_times(works_.front().spectrum.get(), *scale_spectra_[static_cast<std::size_t>(scale)], work,
                               work.real.get());
      values = work.real.get();
    }
    scale_peak peak;
    float best = -1;
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x) {
        if (!allowed(x, y, scale, mask_on)) continue;
        const float value = values[y * width_ + x];
        if (std::fabs(value) > best) {
          best = std::fabs(value);
          peak = {true, value, x, y};
        }
      }
    peaks[static_cast<std::size_t>(index)] = peak;
  });
  return peaks;
}

void joint_cpu_backend::prepare_sub_minor_psfs(int scale) {
  if (scales_[static_cast<std::size_t>(scale)].size == 0 || sub_minor_scale_ == scale) return;
  sub_minor_scale_ = scale;
  sub_minor_psfs_.assign(static_cast<std::size_t>(channels_count_), {});
  const kernel_spectrum& kernel = spectrum_of_scale(scale);
  for_each_index(channels_count_, workers_, [&](std::int64_t c) {
    const auto channel = static_cast<std::size_t>(c);
    std::vector<float> twice = crops_[channel];
    circular_convolver::work& work = works_[channel];
    circular_->convolve(twice.data(), kernel, work, twice.data());
    circular_->convolve(twice.data(), kernel, work, twice.data());
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x)
        twice[static_cast<std::size_t>(y * width_ + x)] *= loop_taper(x, y, width_, height_);
    sub_minor_psfs_[channel] = std::move(twice);
  });
}

joint_cpu_backend::candidates joint_cpu_backend::select_candidates(int scale, double threshold, bool mask_on) {
  const bool delta = scales_[static_cast<std::size_t>(scale)].size == 0;
  if (!delta) {
    const kernel_spectrum& kernel = spectrum_of_scale(scale);
    for_each_index(channels_count_, workers_, [&](std::int64_t c) {
      const auto channel = static_cast<std::size_t>(c);
      convolved_[channel].resize(residuals_[channel].pixels.size());
      circular_->convolve(residuals_[channel].pixels.data(), kernel, works_[channel], convolved_[channel].data());
    });
  }
  candidates list;
  list.values.resize(static_cast<std::size_t>(channels_count_));
  std::vector<float> at(static_cast<std::size_t>(channels_count_));
  for (std::int64_t y = 0; y < height_; ++y)
    for (std::int64_t x = 0; x < width_; ++x) {
      if (!allowed(x, y, scale, mask_on)) continue;
      const auto i = static_cast<std::size_t>(y * width_ + x);
      float sum = 0;
      for (std::size_t c = 0; c < at.size(); ++c) {
        at[c] = delta ? residuals_[c].pixels[i] : convolved_[c][i];
        sum = std::fmaf(shares_[c], at[c], sum);
      }
      if (!(static_cast<double>(std::fabs(sum)) >= threshold)) continue;
      list.x.push_back(x);
      list.y.push_back(y);
      for (std::size_t c = 0; c < at.size(); ++c) list.values[c].push_back(at[c]);
      list.integrated.push_back(sum);
    }
  return list;
}

sub_minor_outcome joint_cpu_backend::run_sub_minor(const sub_minor_request& request, bool mask_on,
                                                   joint_result& result) {
  const scale_info& info = scales_[static_cast<std::size_t>(request.scale)];
  prepare_sub_minor_psfs(request.scale);
  candidates list = select_candidates(request.scale, request.candidate_threshold, mask_on);
  const std::size_t count = list.size();
  const auto channels = static_cast<std::size_t>(channels_count_);
  std::vector<psf_view> psfs(channels);
  for (std::size_t c = 0; c < channels; ++c)
    psfs[c] = {info.size == 0 ? crops_[c].data() : sub_minor_psfs_[c].data(), width_, height_, width_ / 2, height_ / 2};
  std::vector<std::vector<float>> taken(channels, std::vector<float>(count, 0.0f));
  std::vector<float> flux(channels);
  const auto gain = static_cast<float>(info.gain);
  sub_minor_outcome outcome;
  outcome.candidates = static_cast<std::int64_t>(count);
  while (count > 0 && outcome.taken < request.max_components) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < count; ++i)
      if (std::fabs(list.integrated[i]) > std::fabs(list.integrated[best])) best = i;
    const double peak = std::fabs(list.integrated[best]);
    if (!(peak > request.stop_threshold)) break;
    if (request.divergence_level > 0 && peak > request.divergence_level) {
      outcome.diverged = true;
      break;
    }
    for (std::size_t c = 0; c < channels; ++c) flux[c] = gain * list.values[c][best];
    fit_and_evaluate(fit_, flux.data());
    float integrated_flux = 0;
    for (std::size_t c = 0; c < channels; ++c) {
      taken[c][best] += flux[c];
      integrated_flux = std::fmaf(shares_[c], flux[c], integrated_flux);
    }
    result.components.push_back({list.x[best], list.y[best], request.scale});
    result.fluxes.insert(result.fluxes.end(), flux.begin(), flux.end());
    outcome.flux += integrated_flux;
    ++outcome.taken;

    const std::int64_t bx = list.x[best], by = list.y[best];
    const auto update = [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t i = first; i < last; ++i) {
        const auto k = static_cast<std::size_t>(i);
        for (std::size_t c = 0; c < channels; ++c) {
          const psf_view& psf = psfs[c];
          const std::int64_t px = list.x[k] - bx + psf.centre_x, py = list.y[k] - by + psf.centre_y;
          if (px >= 0 && px < psf.width && py >= 0 && py < psf.height)
            list.values[c][k] = std::fmaf(-flux[c], psf.pixels[py * psf.width + px], list.values[c][k]);
        }
        list.integrated[k] = integrate(shares_, list.values, k);
      }
    };
    const auto items = static_cast<std::int64_t>(count);
    if (items * channels_count_ >= threaded_update_work) for_row_chunks(0, items, channels_count_ * 64, workers_, update);
    else update(0, items);
  }
  for (const float value : list.integrated)
    outcome.last_peak = std::max(outcome.last_peak, static_cast<double>(std::fabs(value)));
  add_to_models(request.scale, list, taken);
  return outcome;
}

void joint_cpu_backend::add_to_models(int scale, const candidates& list,
                                      const std::vector<std::vector<float>>& taken) {
  const bool delta = scales_[static_cast<std::size_t>(scale)].size == 0;
  if (!scale_masks_.empty()) {
    std::vector<std::uint8_t>& mask = scale_masks_[static_cast<std::size_t>(scale)];
    for (std::size_t k = 0; k < list.size(); ++k)
      for (std::size_t c = 0; c < taken.size(); ++c)
        if (taken[c][k] != 0) mask[static_cast<std::size_t>(list.y[k] * width_ + list.x[k])] = 1;
  }
  for_each_index(channels_count_, workers_, [&](std::int64_t c) {
    const auto channel = static_cast<std::size_t>(c);
    std::vector<float>& model = models_[channel].pixels;
    if (delta) {
      for (std::size_t k = 0; k < list.size(); ++k) model[static_cast<std::size_t>(list.y[k] * width_ + list.x[k])] += taken[channel][k];
      return;
    }
    std::vector<float> components(model.size(), 0.0f);
    for (std::size_t k = 0; k < list.size(); ++k) components[static_cast<std::size_t>(list.y[k] * width_ + list.x[k])] = taken[channel][k];
    circular_->convolve(components.data(), *scale_spectra_[static_cast<std::size_t>(scale)], works_[channel],
                        components.data());
    for (std::size_t i = 0; i < model.size(); ++i) model[i] += components[i];
  });
}

void joint_cpu_backend::fetch(joint_result& result) {
  result.model = models_;
  result.residual = residuals_;
}

}  // namespace bkt::clean::cpu

namespace bkt::clean {

joint_result joint_clean_cpu(const channel_set& channels, const joint_params& params) {
  const scale_set scales = scales_for(channels, params);
  cpu::joint_cpu_backend backend(channels, params, scales.scales);
  return run_joint_clean(backend, channels, params, scales);
}

}  // namespace bkt::clean
