// Colour maps for images and the vertical colour bar beside an image that shows which value
// each colour stands for.
#pragma once

#include <string>
#include <vector>

#include "bkt_apps/plot/axes.hpp"
#include "bkt_apps/plot/canvas.hpp"

namespace bkt::apps::plot {

/// sequential: dark violet through red and orange to pale yellow, lightness rising evenly, for
/// images of mostly positive values; diverging: blue, white at the middle, red, for values
/// about zero (residuals).
enum class colour_map { sequential, diverging };

/// The colour at t in [0, 1] (clamped; NaN gives mid grey).
colour colour_at(colour_map map, double t);

struct colour_bar {
  colour_map map = colour_map::sequential;
  std::vector<edge_tick> ticks;  // fraction 0 at the bottom (t = 0) to 1 at the top (t = 1)
  std::string title;             // the unit, written upwards beside the labels
};

/// The width the bar's labels and title take to the right of the bar itself.
double colour_bar_label_width(const canvas& page, const colour_bar& bar, const axes_style& style);

/// Draws the bar filling `area` (t = 0 at the bottom), its frame, ticks on the right with
/// labels, and the title to their right.
void draw_colour_bar(canvas& page, const rectangle& area, const colour_bar& bar, const axes_style& style);

}  // namespace bkt::apps::plot
