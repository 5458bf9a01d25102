#include "synthetic/psf_convolution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cpu/padded_convolver.hpp"

namespace bkt::clean::synthetic {

image convolve_direct(const image& sky, const image& psf) {
  std::vector<double> sum(sky.pixels.size(), 0.0);
  const std::int64_t centre_x = psf_centre(psf.width);
  const std::int64_t centre_y = psf_centre(psf.height);
  for (std::int64_t py = 0; py < sky.height; ++py)
    for (std::int64_t px = 0; px < sky.width; ++px) {
      const double flux = sky.at(px, py);
      if (flux == 0) continue;
      // psf pixel for q is q - p + centre; keep the q where it lies inside the PSF.
      const std::int64_t x_first = std::max<std::int64_t>(0, px - centre_x);
      const std::int64_t x_end = std::min(sky.width, px - centre_x + psf.width);
      const std::int64_t y_first = std::max<std::int64_t>(0, py - centre_y);
      const std::int64_t y_end = std::min(sky.height, py - centre_y + psf.height);
      for (std::int64_t qy = y_first; qy < y_end; ++qy)
        for (std::int64_t qx = x_first; qx < x_end; ++qx)
          sum[qy * sky.width + qx] += flux * psf.at(qx - px + centre_x, qy - py + centre_y);
    }
  image out{sky.width, sky.height, std::vector<float>(sum.size())};
  std::transform(sum.begin(), sum.end(), out.pixels.begin(), [](double value) { return static_cast<float>(value); });
  return out;
}

image convolve(const image& sky, const image& psf) {
  const auto nonzero = std::count_if(sky.pixels.begin(), sky.pixels.end(), [](float value) { return value != 0; });
  const double pixels = static_cast<double>(sky.size());
  // Direct: one multiply-add per pixel per source. FFT: three transforms of a padded image about
  // (2 width) x (2 height), some 2.5 n log2 n flops each.
  const double fft_cost = 3 * 2.5 * 4 * pixels * std::log2(std::max(4 * pixels, 2.0));
  if (static_cast<double>(nonzero) * pixels <= fft_cost) return convolve_direct(sky, psf);
  cpu::padded_convolver convolver(psf, psf_centre(psf.width), psf_centre(psf.height), sky.width, sky.height);
  image out{sky.width, sky.height, std::vector<float>(sky.pixels.size())};
  convolver.convolve(sky.pixels.data(), out.pixels.data());
  return out;
}

}  // namespace bkt::clean::synthetic
