#include "joint_gpu_backend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "bkt/compact.hpp"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "bkt/select.hpp"
#include "cpu/candidate_pixels.hpp"
#include "joint_kernels.hpp"
#include "peak_key.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {
namespace {

/// Components one sub-minor loop records at most; a loop that reaches it ends, and the next
/// minor loop carries on.
constexpr std::int64_t max_records = std::int64_t{1} << 20;

/// The candidates a plan reserves room for: every pixel for Högbom, an eighth of them otherwise
/// (the pixels near a scale's peak; more grow the arrays when needed).
std::int64_t planned_candidates(algorithm method, std::int64_t pixels) {
  return method == algorithm::hogbom ? pixels : pixels / 8;
}

bool has_scales(const std::vector<scale_info>& scales) {
  return std::any_of(scales.begin(), scales.end(), [](const scale_info& s) { return s.size > 0; });
}

/// The smallest float f with double(f) >= threshold: |value| >= f in float is |value| >= threshold.
float float_at_least(double threshold) {
  float level = static_cast<float>(threshold);
  if (static_cast<double>(level) < threshold) level = std::nextafter(level, std::numeric_limits<float>::infinity());
  return level;
}

std::string gib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

template <class T>
void grow(device_buffer<T>& buffer, std::int64_t count, cudaStream_t stream) {
  if (buffer.size() < count) buffer = device_buffer<T>(count, stream);
}

}  // namespace

std::int64_t joint_device_bytes(const channel_set& channels, const joint_params& params, std::size_t scale_count) {
  const plane_geometry g = geometry_of(channels.dirty.front(), channels.psf.front());
  const std::int64_t pixels = g.pixels(), count = channels.channels();
  const bool scales = params.method == algorithm::multiscale;
  const std::int64_t psf_pixels = std::int64_t{g.psf_width} * g.psf_height;
  std::int64_t bytes = 4 * (6 * count * pixels + 2 * pixels + psf_pixels);  // images, crops, integrated, a PSF upload
  bytes += pixels * (1 + (params.levels.auto_mask ? static_cast<std::int64_t>(scale_count) : 0));  // masks
  bytes += 16 * pixels;                                                        // keys
  bytes += planned_candidates(params.method, pixels) * (8 + 8 * count);       // candidates
  bytes += std::min(params.niter, max_records) * (8 + 4 * count);             // records
  bytes += fft_convolver::device_bytes(g, static_cast<int>(count), 1);
  const std::int64_t padded = padded_fft_extent(g.width, g.psf_width, g.psf_centre_x) *
                              padded_fft_extent(g.height, g.psf_height, g.psf_centre_y);
  bytes += 8 * padded;  // cuFFT's work area for the padded transforms, about one complex plane
  if (scales) bytes += scale_convolver::device_bytes(g.width, g.height) + 8 * pixels;  // + its work area
  return bytes;
}

joint_gpu_backend::joint_gpu_backend(const channel_set& channels, const joint_params& params,
                                     const std::vector<scale_info>& scales, cudaStream_t stream)
    : channels_(channels),
      scales_(scales),
      stream_(stream),
      width_(channels.width()),
      height_(channels.height()),
      pixels_(width_ * height_),
      channels_count_(static_cast<int>(channels.channels())),
      psf_width_(channels.psf.front().width),
      psf_height_(channels.psf.front().height) {
  BKT_EXPECTS(pixels_ <= max_image_pixels, "joint_clean_gpu: image larger than 2^30 pixels");
  BKT_EXPECTS(psf_width_ * psf_height_ <= std::numeric_limits<std::int32_t>::max(),
              "joint_clean_gpu: PSF larger than 2^31 - 1 pixels");
  std::size_t free_bytes = 0, total_bytes = 0;
  BKT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::int64_t planned = joint_device_bytes(channels, params, scales.size());
  // Kernel spectra cached per scale when they fit beside the plan with a quarter of the card spare.
  const std::int64_t spectra_bytes =
      has_scales(scales) ? static_cast<std::int64_t>(scales.size()) * height_ * (width_ / 2 + 1) * 8 : 0;
  if (planned > static_cast<std::int64_t>(free_bytes))
    throw error("the joint deconvolution of " + std::to_string(channels_count_) + " channels of " +
                    std::to_string(width_) + " x " + std::to_string(height_) + " pixels needs " + gib(planned) +
                    " of GPU memory; " + gib(static_cast<std::int64_t>(free_bytes)) + " are free",
                cudaErrorMemoryAllocation, __FILE__, __LINE__);
  cache_spectra_ = planned + spectra_bytes < static_cast<std::int64_t>(free_bytes) - static_cast<std::int64_t>(total_bytes) / 4;

  const std::int64_t planes = channels_count_ * pixels_;
  dirty_ = device_buffer<float>(planes, stream);
  for (int c = 0; c < channels_count_; ++c)
    BKT_CUDA_CHECK(cudaMemcpyAsync(dirty_.data() + c * pixels_, channels.dirty[static_cast<std::size_t>(c)].pixels.data(),
                                   pixels_ * sizeof(float), cudaMemcpyHostToDevice, stream));
  residual_ = device_buffer<float>(planes, stream);
  BKT_CUDA_CHECK(cudaMemcpyAsync(residual_.data(), dirty_.data(), planes * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  model_ = device_buffer<float>(planes, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(model_.data(), 0, model_.size_bytes(), stream));
  convolved_ = device_buffer<float>(planes, stream);
  crop_ = device_buffer<float>(planes, stream);
  if (has_scales(scales)) sub_psf_ = device_buffer<float>(planes, stream);
  integrated_ = device_buffer<float>(pixels_, stream);
  scratch_ = device_buffer<float>(pixels_, stream);
  keys_ = device_buffer<std::uint64_t>(pixels_, stream);
  selected_ = device_buffer<std::uint64_t>(pixels_, stream);

  // Each PSF goes up once: its spectrum for the exact residuals, its central part for the loops.
  const plane_geometry g = geometry_of(channels.dirty.front(), channels.psf.front());
  exact_.emplace(g, nullptr, channels_count_, stream, channels_count_, 1);
  {
    device_buffer<float> psf(psf_width_ * psf_height_, stream);
    for (int c = 0; c < channels_count_; ++c) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(psf.data(), channels.psf[static_cast<std::size_t>(c)].pixels.data(),
                                     psf.size_bytes(), cudaMemcpyHostToDevice, stream));
      exact_->load_psf(c, psf.data(), stream);  // waits for the stream: psf is free again after it
      crop_psf(psf.data(), g.psf_width, g.psf_height, g.psf_centre_x, g.psf_centre_y, g.width, g.height,
               crop_.data() + c * pixels_, stream);
    }
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  clean_params mask_params;
  mask_params.mask = params.mask;
  std::vector<std::uint8_t> allowed = cpu::candidate_pixels(channels.dirty.front(), mask_params);
  for (const image& dirty : channels.dirty)
    for (std::size_t i = 0; i < allowed.size(); ++i)
      if (std::isnan(dirty.pixels[i])) allowed[i] = 0;
  allowed_ = to_device<std::uint8_t>(allowed, stream);
  if (params.levels.auto_mask)
    for (std::size_t s = 0; s < scales.size(); ++s) {
      masks_.emplace_back(pixels_, stream);
      BKT_CUDA_CHECK(cudaMemsetAsync(masks_.back().data(), 0, masks_.back().size_bytes(), stream));
    }

  double total = 0;
  for (double weight : channels.weights) total += weight;
  std::vector<float> shares;
  for (double weight : channels.weights) shares.push_back(static_cast<float>(weight / total));
  shares_ = to_device<float>(shares, stream);
  const std::vector<double> abscissae = spectral_abscissae(channels);
  if (params.spectral_terms > 0 && !abscissae.empty()) {
    spectral_terms_ = params.spectral_terms;
    abscissae_ = to_device<double>(abscissae, stream);
    weights_ = to_device<double>(channels.weights, stream);
  }
  flux_ = device_buffer<float>(channels_count_, stream);
  peaks_ = device_buffer<std::uint64_t>(static_cast<std::int64_t>(scales.size()), stream);
  count_ = device_buffer<std::int64_t>(1, stream);
  statistics_ = device_buffer<float>(2, stream);
  if (has_scales(scales)) {
    scale_convolver_.emplace(width_, height_, stream);
    spectra_.resize(scales.size());
  }
  loop_.emplace(stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host vectors above were pageable sources
}

scale_region joint_gpu_backend::region_of(int scale, bool mask_on) const {
  scale_region region;
  region.width = static_cast<std::int32_t>(width_);
  region.height = static_cast<std::int32_t>(height_);
  region.border = static_cast<std::int32_t>(std::min<std::int64_t>(scales_[static_cast<std::size_t>(scale)].border,
                                                                    std::max(width_, height_)));
  region.allowed = allowed_.data();
  region.mask = mask_on && !masks_.empty() ? masks_[static_cast<std::size_t>(scale)].data() : nullptr;
  return region;
}

const cufftComplex* joint_gpu_backend::spectrum_of_scale(int scale) {
  const scale_kernel& kernel = scales_[static_cast<std::size_t>(scale)].kernel;
  if (!cache_spectra_) {
    spectrum_now_ = scale_convolver_->spectrum_of(kernel.values, kernel.width, stream_);
    return spectrum_now_.data();
  }
  std::optional<device_buffer<cufftComplex>>& spectrum = spectra_[static_cast<std::size_t>(scale)];
  if (!spectrum) spectrum = scale_convolver_->spectrum_of(kernel.values, kernel.width, stream_);
  return spectrum->data();
}

void joint_gpu_backend::update_residuals() {
  exact_->subtract_convolved(dirty_.data(), model_.data(), residual_.data(), pixels_, stream_);
}

double joint_gpu_backend::integrated_sigma() {
  integrate_channels(residual_.data(), pixels_, shares_.data(), channels_count_, pixels_, integrated_.data(), stream_);
  select_flagged<float>(integrated_.span(), allowed_.span(), scratch_.span(), count_.data(), ws_, stream_);
  const std::int64_t count = read_sync(count_.data(), stream_);
  if (count == 0) return 0;
  // The median of an even count is the mean of the two middle values, as the CPU path takes it.
  const auto median_of = [&](const float* values) {
    const std::span<const float> data(values, static_cast<std::size_t>(count));
    select_kth<float>(data, count / 2, statistics_.data(), ws_, stream_);
    if (count % 2 == 1) return static_cast<double>(read_sync(statistics_.data(), stream_));
    select_kth<float>(data, count / 2 - 1, statistics_.data() + 1, ws_, stream_);
    const std::vector<float> middle = to_host_sync<float>(statistics_.span(), stream_);
    return (static_cast<double>(middle[0]) + middle[1]) / 2;
  };
  const auto centre = static_cast<float>(median_of(scratch_.data()));
  BKT_CUDA_CHECK(cudaMemcpyAsync(statistics_.data(), &centre, sizeof centre, cudaMemcpyHostToDevice, stream_));
  absolute_deviations(scratch_.data(), statistics_.data(), count, convolved_.data(), stream_);
  return 1.4826 * median_of(convolved_.data());
}

std::vector<scale_peak> joint_gpu_backend::find_peaks(const std::vector<int>& scales, bool mask_on) {
  integrate_channels(residual_.data(), pixels_, shares_.data(), channels_count_, pixels_, integrated_.data(), stream_);
  const bool any_scale = std::any_of(scales.begin(), scales.end(), [&](int s) { return scales_[s].size > 0; });
  if (any_scale) scale_convolver_->forward(integrated_.data(), stream_);
  for (std::size_t i = 0; i < scales.size(); ++i) {
    const int scale = scales[i];
    const float* values = integrated_.data();
    if (scales_[static_cast<std::size_t>(scale)].size > 0) {
      scale_convolver_->inverse_times(spectrum_of_scale(scale), scratch_.data(), stream_);
      values = scratch_.data();
    }
    find_region_peak(values, region_of(scale, mask_on), peaks_.data() + i, stream_);
  }
  const std::vector<std::uint64_t> keys =
      to_host_sync<std::uint64_t>({peaks_.data(), scales.size()}, stream_);
  std::vector<scale_peak> peaks;
  for (const std::uint64_t key : keys) {
    scale_peak peak;
    if (key != no_peak) {
      const std::uint32_t index = peak_index(key);
      peak = {true, peak_value(key), static_cast<std::int64_t>(index) % width_, static_cast<std::int64_t>(index) / width_};
    }
    peaks.push_back(peak);
  }
  return peaks;
}

void joint_gpu_backend::prepare_sub_minor_psfs(int scale) {
  if (scales_[static_cast<std::size_t>(scale)].size == 0 || sub_psf_scale_ == scale) return;
  sub_psf_scale_ = scale;
  const cufftComplex* kernel = spectrum_of_scale(scale);
  for (int c = 0; c < channels_count_; ++c) {
    float* plane = sub_psf_.data() + c * pixels_;
    scale_convolver_->convolve(crop_.data() + c * pixels_, kernel, plane, stream_);
    scale_convolver_->convolve(plane, kernel, plane, stream_);
    taper_loop_psf(plane, static_cast<std::int32_t>(width_), static_cast<std::int32_t>(height_), stream_);
  }
}

std::int64_t joint_gpu_backend::select_candidates(int scale, double threshold, bool mask_on) {
  const float* source = residual_.data();
  if (scales_[static_cast<std::size_t>(scale)].size > 0) {
    const cufftComplex* kernel = spectrum_of_scale(scale);
    for (int c = 0; c < channels_count_; ++c)
      scale_convolver_->convolve(residual_.data() + c * pixels_, kernel, convolved_.data() + c * pixels_, stream_);
    source = convolved_.data();
  }
  pack_joint_keys(source, pixels_, shares_.data(), channels_count_, region_of(scale, mask_on),
                  float_at_least(threshold), keys_.data(), stream_);
  const compare_with<std::uint64_t> taken{compare_op::greater, no_peak};
  select_if<std::uint64_t>(keys_.span(), selected_.span(), count_.data(), taken, ws_, stream_);
  const std::int64_t count = read_sync(count_.data(), stream_);
  if (count > capacity_) {
    capacity_ = std::max<std::int64_t>(count, capacity_ + capacity_ / 2);
    candidate_x_ = device_buffer<std::int32_t>(capacity_, stream_);
    candidate_y_ = device_buffer<std::int32_t>(capacity_, stream_);
    candidate_values_ = device_buffer<float>(capacity_ * channels_count_, stream_);
    candidate_models_ = device_buffer<float>(capacity_ * channels_count_, stream_);
  }
  gather_candidates(selected_.data(), count, static_cast<std::int32_t>(width_), source, pixels_, channels_count_,
                    capacity_, candidate_x_.data(), candidate_y_.data(), candidate_values_.data(),
                    candidate_models_.data(), stream_);
  return count;
}

sub_minor_outcome joint_gpu_backend::run_sub_minor(const sub_minor_request& request, bool mask_on,
                                                   joint_result& result) {
  const scale_info& info = scales_[static_cast<std::size_t>(request.scale)];
  prepare_sub_minor_psfs(request.scale);
  const std::int64_t count = select_candidates(request.scale, request.candidate_threshold, mask_on);
  const std::int64_t records = std::clamp<std::int64_t>(request.max_components, 0, max_records);
  if (records > record_capacity_) {
    record_capacity_ = records;
    record_x_ = device_buffer<std::int32_t>(records, stream_);
    record_y_ = device_buffer<std::int32_t>(records, stream_);
    record_flux_ = device_buffer<float>(records * channels_count_, stream_);
  }
  sub_minor_params params;
  params.count = count;
  params.capacity = capacity_;
  params.channels = channels_count_;
  params.x = candidate_x_.data();
  params.y = candidate_y_.data();
  params.values = candidate_values_.data();
  params.models = candidate_models_.data();
  params.shares = shares_.data();
  params.psf = info.size > 0 ? sub_psf_.data() : crop_.data();
  params.psf_plane = pixels_;
  params.psf_width = static_cast<std::int32_t>(width_);
  params.psf_height = static_cast<std::int32_t>(height_);
  params.psf_centre_x = static_cast<std::int32_t>(width_ / 2);
  params.psf_centre_y = static_cast<std::int32_t>(height_ / 2);
  params.gain = static_cast<float>(info.gain);
  params.stop_threshold = request.stop_threshold;
  params.divergence_level = request.divergence_level;
  params.max_components = records;
  params.spectral_terms = spectral_terms_;
  params.abscissae = abscissae_.data();
  params.weights = weights_.data();
  params.flux = flux_.data();
  params.record_x = record_x_.data();
  params.record_y = record_y_.data();
  params.record_flux = record_flux_.data();
  const sub_minor_state state = count > 0 ? loop_->run(params, stream_) : sub_minor_state{};

  sub_minor_outcome outcome;
  outcome.candidates = count;
  outcome.taken = state.taken;
  outcome.flux = state.flux_sum;
  outcome.last_peak = peak_magnitude(state.peak);
  outcome.diverged = state.diverged != 0;
  if (state.taken > 0) {
    const auto taken = static_cast<std::size_t>(state.taken);
    const std::vector<std::int32_t> xs = to_host_sync<std::int32_t>({record_x_.data(), taken}, stream_);
    const std::vector<std::int32_t> ys = to_host_sync<std::int32_t>({record_y_.data(), taken}, stream_);
    const std::vector<float> fluxes =
        to_host_sync<float>({record_flux_.data(), taken * static_cast<std::size_t>(channels_count_)}, stream_);
    for (std::size_t i = 0; i < taken; ++i) result.components.push_back({xs[i], ys[i], request.scale});
    result.fluxes.insert(result.fluxes.end(), fluxes.begin(), fluxes.end());
  }
  add_to_models(request.scale, count);
  return outcome;
}

void joint_gpu_backend::add_to_models(int scale, std::int64_t count) {
  if (count == 0) return;
  const auto width = static_cast<std::int32_t>(width_);
  if (!masks_.empty())
    mark_candidates(candidate_x_.data(), candidate_y_.data(), candidate_models_.data(), count, channels_count_,
                    capacity_, width, masks_[static_cast<std::size_t>(scale)].data(), stream_);
  if (scales_[static_cast<std::size_t>(scale)].size == 0) {
    scatter_candidates(candidate_x_.data(), candidate_y_.data(), candidate_models_.data(), count, channels_count_,
                       capacity_, width, model_.data(), pixels_, stream_);
    return;
  }
  // The components as images, each convolved with the scale's kernel, join the models.
  BKT_CUDA_CHECK(cudaMemsetAsync(convolved_.data(), 0, convolved_.size_bytes(), stream_));
  scatter_candidates(candidate_x_.data(), candidate_y_.data(), candidate_models_.data(), count, channels_count_,
                     capacity_, width, convolved_.data(), pixels_, stream_);
  const cufftComplex* kernel = spectrum_of_scale(scale);
  for (int c = 0; c < channels_count_; ++c) {
    float* plane = convolved_.data() + c * pixels_;
    scale_convolver_->convolve(plane, kernel, plane, stream_);
  }
  add_planes(model_.data(), convolved_.data(), channels_count_ * pixels_, stream_);
}

void joint_gpu_backend::fetch(joint_result& result) {
  result.model.clear();
  result.residual.clear();
  for (int c = 0; c < channels_count_; ++c) {
    const std::span<const float> model(model_.data() + c * pixels_, static_cast<std::size_t>(pixels_));
    const std::span<const float> residual(residual_.data() + c * pixels_, static_cast<std::size_t>(pixels_));
    result.model.push_back(image{width_, height_, to_host_sync<float>(model, stream_)});
    result.residual.push_back(image{width_, height_, to_host_sync<float>(residual, stream_)});
  }
}

}  // namespace bkt::clean::gpu

namespace bkt::clean {

joint_result joint_clean_gpu(const channel_set& channels, const joint_params& params, cudaStream_t stream) {
  const scale_set scales = scales_for(channels, params);
  gpu::joint_gpu_backend backend(channels, params, scales.scales, stream);
  return run_joint_clean(backend, channels, params, scales);
}

}  // namespace bkt::clean
