#include "beam_psf.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "cpu/beam_kernel.hpp"
#include "fits_header.hpp"

namespace bkt::clean {
namespace {

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

fits_image psf_from_header_beam(const fits_image& dirty, const std::optional<pixel_scale>& scale) {
  const auto major = header_number(dirty.header, "BMAJ");
  const auto minor = header_number(dirty.header, "BMIN");
  const auto angle = header_number(dirty.header, "BPA");
  if (!major || !minor)
    throw bkt::apps::app_error(dirty.name + ": --psf-beam needs the restoring beam (BMAJ, BMIN) in the header");
  if (!scale) throw bkt::apps::app_error(dirty.name + ": --psf-beam needs a celestial WCS to put BMAJ/BMIN on pixels");
  if (!(*major > 0 && *minor > 0 && std::isfinite(*major) && std::isfinite(*minor)))
    throw bkt::apps::app_error(dirty.name + ": --psf-beam needs BMAJ and BMIN > 0 and finite (the header has BMAJ = " +
                               number_text(*major) + ", BMIN = " + number_text(*minor) + ")");
  beam pixel_beam;
  try {
    pixel_beam = beam_in_pixels(sky_beam{*major, *minor, angle.value_or(0.0)}, *scale);
    cpu::check_beam(pixel_beam);
  } catch (const bkt::apps::app_error& e) {
    throw bkt::apps::app_error(dirty.name + ": --psf-beam: " + e.what());
  }

  fits_image psf;
  psf.name = dirty.name + " (its BMAJ/BMIN/BPA beam)";
  psf.axis_lengths = {dirty.width(), dirty.height()};
  image plane{dirty.width(), dirty.height(), std::vector<float>(static_cast<std::size_t>(dirty.width() * dirty.height()))};
  const std::int64_t centre_x = dirty.width() / 2, centre_y = dirty.height() / 2;
  for (std::int64_t y = 0; y < plane.height; ++y)
    for (std::int64_t x = 0; x < plane.width; ++x)
      plane.at(x, y) = static_cast<float>(cpu::beam_value(pixel_beam, static_cast<double>(x - centre_x),
                                                           static_cast<double>(y - centre_y)));
  psf.planes.push_back(std::move(plane));
  return psf;
}

}  // namespace bkt::clean
