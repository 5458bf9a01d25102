// The --plot picture: the restored and the residual image side by side, north up, each in a
// frame with sky coordinates (RA/Dec from the WCS, or pixels without one) and a colour bar in
// the image's unit; the restoring beam drawn as an ellipse in the restored panel's lower-left
// corner, as radio astronomers' viewers show it. PNG, SVG or PDF by the file's extension.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../deconvolve.hpp"
#include "../image.hpp"
#include "bkt_apps/plot/canvas.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {

/// Largest side of each image panel, in plot units (PNG pixels, SVG/PDF points): images are
/// scaled to it, and those larger than it averaged down in blocks first.
constexpr int quick_look_panel_pixels = 400;

struct quick_look_input {
  const image& restored;
  const image& residual;
  std::string unit;                     // BUNIT of both images ("JY/BEAM")
  const sky_wcs& wcs;                   // the dirty image's WCS
  const std::string& header;            // the dirty image's header (CTYPE, RADESYS)
  std::vector<std::int64_t> plane_position;  // of the plane shown, for the WCS
  std::optional<beam> restoring_beam;   // in pixels; none: no ellipse
};

/// Draws the picture and sends the file's bytes to `sink`; `name` (the output's path) prefixes
/// errors (bkt::apps::app_error).
void write_quick_look(const quick_look_input& input, bkt::apps::plot::file_format format, const std::string& name,
                      const bkt::apps::plot::byte_sink& sink);

/// "Jy/beam" for BUNIT "JY/BEAM" (any case), likewise JY/PIXEL; other units as given.
std::string display_unit(const std::string& bunit);

}  // namespace bkt::clean
