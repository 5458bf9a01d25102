// restore (deconvolve.hpp): the model convolved with the restoring beam (peak 1, so flux per pixel
// becomes flux per beam) plus the residual. A model of few components is convolved directly (each
// component adds the sampled beam); a dense one through zero-padded FFTs, whichever costs less.
// Both use the beam sampled out to 5 sigma.
#include <algorithm>
#include <cmath>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "cpu/beam_kernel.hpp"
#include "cpu/padded_convolver.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

void add_components_directly(const image& model, const cpu::sampled_beam& kernel, image& restored) {
  for (std::int64_t y = 0; y < model.height; ++y)
    for (std::int64_t x = 0; x < model.width; ++x) {
      const float flux = model.at(x, y);
      if (flux == 0) continue;
      const std::int64_t y_first = std::max<std::int64_t>(0, y - kernel.half_width_y);
      const std::int64_t y_last = std::min(restored.height - 1, y + kernel.half_width_y);
      const std::int64_t x_first = std::max<std::int64_t>(0, x - kernel.half_width_x);
      const std::int64_t x_last = std::min(restored.width - 1, x + kernel.half_width_x);
      for (std::int64_t qy = y_first; qy <= y_last; ++qy) {
        float* const out = &restored.at(0, qy);
        const float* const beam_row =
            kernel.values.pixels.data() + (qy - y + kernel.half_width_y) * kernel.values.width + kernel.half_width_x;
        for (std::int64_t qx = x_first; qx <= x_last; ++qx) out[qx] += flux * beam_row[qx - x];
      }
    }
}

}  // namespace

image restore(const image& model, const image& residual, const beam& restoring_beam) {
  if (model.width != residual.width || model.height != residual.height)
    throw apps::app_error("restore: the model is " + std::to_string(model.width) + " x " +
                          std::to_string(model.height) + " pixels but the residual " + std::to_string(residual.width) +
                          " x " + std::to_string(residual.height));
  cpu::check_beam(restoring_beam);
  image restored = residual;
  if (model.size() == 0) return restored;
  // Offsets beyond the image's extent never matter.
  const cpu::sampled_beam kernel = cpu::sample_beam(restoring_beam, model.width - 1, model.height - 1);

  std::int64_t components = 0;
  for (const float flux : model.pixels) components += flux != 0 ? 1 : 0;
  const double direct_cost = static_cast<double>(components) * static_cast<double>(kernel.values.size());
  const double padded_pixels =
      static_cast<double>(cpu::padded_extent(model.width, kernel.values.width, kernel.half_width_x)) *
      static_cast<double>(cpu::padded_extent(model.height, kernel.values.height, kernel.half_width_y));
  // Three transforms (beam, model, back) of about 2.5 n log2 n flops each, against 2 flops per
  // beam pixel per component.
  const double fft_cost = 3 * 2.5 * padded_pixels * std::log2(padded_pixels) / 2;
  if (direct_cost <= fft_cost) {
    add_components_directly(model, kernel, restored);
    return restored;
  }
  cpu::padded_convolver convolver(kernel.values, kernel.half_width_x, kernel.half_width_y, model.width, model.height);
  std::vector<float> smoothed(model.pixels.size());
  convolver.convolve(model.pixels.data(), smoothed.data());
  for (std::size_t i = 0; i < smoothed.size(); ++i) restored.pixels[i] = smoothed[i] + residual.pixels[i];
  return restored;
}

}  // namespace bkt::clean
