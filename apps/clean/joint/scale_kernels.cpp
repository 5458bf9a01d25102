#include "joint/scale_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {
namespace {

/// Hann window of a kernel n wide, at distance r from its centre (zero past (n + 1) / 2).
double hann(double r, std::int64_t n) {
  return 2 * r <= static_cast<double>(n + 1) ? 0.5 * (1 + std::cos(2 * std::numbers::pi * r / static_cast<double>(n + 1))) : 0.0;
}

void normalise(std::vector<double>& values, scale_kernel& kernel) {
  double sum = 0;
  for (double value : values) sum += value;
  kernel.values.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) kernel.values[i] = static_cast<float>(values[i] / sum);
}

scale_kernel tapered_quadratic(double size) {
  scale_kernel kernel;
  kernel.width = 2 * static_cast<std::int64_t>(std::ceil(size / 2)) + 1;
  const std::int64_t n = kernel.width;
  const double centre = 0.5 * static_cast<double>(n - 1);
  std::vector<double> values(static_cast<std::size_t>(n * n));
  for (std::int64_t y = 0; y < n; ++y)
    for (std::int64_t x = 0; x < n; ++x) {
      const double r = std::hypot(static_cast<double>(x) - centre, static_cast<double>(y) - centre);
      const double q = r / size;
      values[static_cast<std::size_t>(y * n + x)] = q < 1 ? hann(r, n) * (1 - q * q) : 0.0;
    }
  normalise(values, kernel);
  return kernel;
}

scale_kernel gaussian(double size, std::int64_t max_width) {
  const double sigma = 3 * size / 16;
  scale_kernel kernel;
  kernel.width = 2 * static_cast<std::int64_t>(std::ceil(6 * sigma)) + 1;
  if (kernel.width > max_width) kernel.width = std::max<std::int64_t>(1, max_width % 2 == 1 ? max_width : max_width - 1);
  const std::int64_t n = kernel.width;
  std::vector<double> profile(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(i - n / 2);
    profile[static_cast<std::size_t>(i)] = std::exp(-d * d / (2 * sigma * sigma));
  }
  std::vector<double> values(static_cast<std::size_t>(n * n));
  for (std::int64_t y = 0; y < n; ++y)
    for (std::int64_t x = 0; x < n; ++x)
      values[static_cast<std::size_t>(y * n + x)] = profile[static_cast<std::size_t>(x)] * profile[static_cast<std::size_t>(y)];
  normalise(values, kernel);
  return kernel;
}

/// (psf (*) kernel) at the PSF's centre: sum over d of kernel(d) psf(centre - d).
double psf_peak_at(const image& psf, const scale_kernel& kernel) {
  const std::int64_t cx = psf_centre(psf.width), cy = psf_centre(psf.height), half = kernel.width / 2;
  double sum = 0;
  for (std::int64_t dy = -half; dy <= half; ++dy)
    for (std::int64_t dx = -half; dx <= half; ++dx) {
      const std::int64_t x = cx - dx, y = cy - dy;
      if (x >= 0 && x < psf.width && y >= 0 && y < psf.height) sum += static_cast<double>(kernel.at(dx, dy)) * psf.at(x, y);
    }
  return sum;
}

/// (kernel (*) Gaussian beam of FWHM `beam_fwhm` and peak 1) at the centre: psf_peak_at for a PSF
/// that samples every spacing.
double beam_peak_at(double beam_fwhm, const scale_kernel& kernel) {
  const std::int64_t half = kernel.width / 2;
  const double sigma = beam_fwhm / (2 * std::sqrt(2 * std::numbers::ln2));
  double sum = 0;
  for (std::int64_t dy = -half; dy <= half; ++dy)
    for (std::int64_t dx = -half; dx <= half; ++dx)
      sum += static_cast<double>(kernel.at(dx, dy)) *
             std::exp(-static_cast<double>(dx * dx + dy * dy) / (2 * sigma * sigma));
  return sum;
}

}  // namespace

std::string scale_shape_name(scale_shape shape) {
  return shape == scale_shape::gaussian ? "gaussian" : "tapered-quadratic";
}

scale_kernel make_scale_kernel(double size, scale_shape shape, std::int64_t max_width) {
  if (size <= 0) return {};
  return shape == scale_shape::gaussian ? gaussian(size, max_width) : tapered_quadratic(size);
}

scale_set make_scales(const multiscale_settings& settings, double beam_fwhm, double gain, const image& psf,
                      std::int64_t width, std::int64_t height) {
  const double fits_below = 0.5 * static_cast<double>(std::min(width, height));
  const double beam = std::max(beam_fwhm, 0.5);
  // WSClean's bias reference is twice the beam, and its automatic scales start at twice that.
  const double bias_reference = 2 * beam;
  const bool automatic = settings.scales.empty();
  std::vector<double> sizes;
  if (automatic) {
    sizes.push_back(0);
    for (double size = 2 * bias_reference; size < fits_below; size *= 2) {
      if (settings.max_scales > 0 && static_cast<std::int64_t>(sizes.size()) >= settings.max_scales) break;
      sizes.push_back(size);
    }
  } else {
    for (double size : settings.scales)
      if (size < fits_below) sizes.push_back(size);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.empty())
      throw bkt::apps::usage_error("--multiscale-scales: every scale is at least half the image's smaller side (" +
                                   std::to_string(static_cast<long long>(fits_below)) + " pixels)");
  }
  scale_set set;
  for (double size : sizes) {
    scale_info info;
    info.size = size;
    info.kernel = make_scale_kernel(size, settings.shape, std::min(width, height));
    info.psf_peak = size == 0 ? 1.0 : psf_peak_at(psf, info.kernel);
    const double sampled = size == 0 ? 1.0 : info.psf_peak / beam_peak_at(beam, info.kernel);
    if (!(sampled >= min_sampled_fraction)) {
      set.dropped.push_back({size, sampled});
      if (automatic) break;  // larger scales reach further past what the array sees
      continue;
    }
    info.bias = size == 0 ? 1.0 : std::pow(settings.scale_bias, -std::log2(size / bias_reference));
    info.gain = gain / info.psf_peak;
    info.border = static_cast<std::int64_t>(std::ceil(size / 2));
    set.scales.push_back(std::move(info));
  }
  if (set.scales.empty())
    throw bkt::apps::usage_error("--multiscale-scales: the PSF samples none of the scales given (the smallest keeps " +
                                 std::to_string(static_cast<int>(std::lround(100 * set.dropped.front().sampled_fraction))) +
                                 " % of its peak; at least " +
                                 std::to_string(static_cast<int>(std::lround(100 * min_sampled_fraction))) + " % is needed)");
  if (set.scales.size() == 1) set.scales.front().bias = 1;  // a single scale: nothing to weigh it against
  return set;
}

std::vector<scale_info> delta_scale(double gain) {
  scale_info info;
  info.gain = gain;
  return {info};
}

double scale_fwhm_pixels(double size) { return 2 * std::sqrt(2 * std::numbers::ln2) * 3 * size / 16; }

}  // namespace bkt::clean
