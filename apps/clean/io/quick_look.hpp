// The --plot picture: the restored and the residual image side by side, each with a title and a
// colour bar with values, drawn on an RGB canvas.
#pragma once

#include <string>

#include "../image.hpp"
#include "rgb_canvas.hpp"

namespace bkt::clean {

/// Largest side of each image panel in the plot, in plot pixels: smaller images are magnified by
/// a whole factor, larger ones averaged down in blocks.
constexpr int quick_look_panel_pixels = 400;

/// Draws the two images (north, i.e. +y, up) with titles naming them and `unit` ("JY/BEAM").
rgb_canvas draw_quick_look(const image& restored, const image& residual, const std::string& unit);

}  // namespace bkt::clean
