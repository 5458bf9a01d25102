// prepare_psf (deconvolve.hpp): the checks a PSF must pass before CLEAN may use it. Pixel
// coordinates in messages are 0-based (x, y), x along NAXIS1, as in image.hpp.
#include <cmath>
#include <cstdio>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

std::string pixel_name(std::int64_t x, std::int64_t y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

std::string size_name(std::int64_t width, std::int64_t height) {
  return std::to_string(width) + " x " + std::to_string(height);
}

std::string number_name(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

image prepare_psf(image psf, const image& dirty, const std::string& name) {
  const auto fail = [&](const std::string& problem) { return apps::app_error(name + ": " + problem); };
  const bool same_size = psf.width == dirty.width && psf.height == dirty.height;
  const bool twice_size = psf.width == 2 * dirty.width && psf.height == 2 * dirty.height;
  if (psf.width < 1 || psf.height < 1 || (!same_size && !twice_size))
    throw fail("PSF is " + size_name(psf.width, psf.height) + " pixels; it must be the dirty image's size (" +
               size_name(dirty.width, dirty.height) + ") or twice it (" +
               size_name(2 * dirty.width, 2 * dirty.height) + ")");

  // One pass: the first non-finite pixel, and the first pixel of largest |value|.
  float largest = -1;
  std::int64_t largest_index = 0;
  for (std::int64_t i = 0; i < psf.size(); ++i) {
    const float value = psf.pixels[i];
    if (!std::isfinite(value))
      throw fail(std::string(std::isnan(value) ? "NaN" : "infinite value") + " at pixel " +
                 pixel_name(i % psf.width, i / psf.width));
    if (std::fabs(value) > largest) {
      largest = std::fabs(value);
      largest_index = i;
    }
  }

  const std::int64_t centre_x = psf_centre(psf.width);
  const std::int64_t centre_y = psf_centre(psf.height);
  const float peak = psf.at(centre_x, centre_y);
  // The centre may tie with another pixel of the same |value|; it must not be smaller.
  if (std::fabs(peak) < largest)
    throw fail("PSF peak is at pixel " + pixel_name(largest_index % psf.width, largest_index / psf.width) +
               ", not at the centre " + pixel_name(centre_x, centre_y));
  if (!(peak > 0))
    throw fail("PSF peak at the centre " + pixel_name(centre_x, centre_y) + " is " + number_name(peak) +
               "; it must be positive");

  for (float& value : psf.pixels) value /= peak;
  return psf;
}

}  // namespace bkt::clean
