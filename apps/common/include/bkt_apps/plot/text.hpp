// Text on a plot canvas: labels in the canvas's sans-serif font (fontconfig picks the face),
// anti-aliased, UTF-8 (so degree signs and primes work), placed by an anchor point.
#pragma once

#include <string_view>

#include "bkt_apps/plot/canvas.hpp"

namespace bkt::apps::plot {

/// Where the anchor point sits on the text's box, along one direction: start (left or top),
/// centre, end (right or bottom). Vertically the box runs from the font's ascent to its descent,
/// so that labels of one size line up whatever letters they hold.
enum class align { start, centre, end };

struct text_style {
  double size = 11;  // the font size in canvas units
  bool bold = false;
  colour ink{0.1, 0.1, 0.1};
};

struct text_size {
  double width = 0;   // the advance: where the next text would start
  double height = 0;  // the font's ascent plus descent
};

/// The size of `text` drawn in `style`.
text_size measure_text(const canvas& page, std::string_view text, const text_style& style);

/// Draws `text` with the anchor point at (x, y), the box turned by `angle` radians about it
/// (positive: clockwise on the page, so -pi/2 reads upwards). Returns the unturned box.
rectangle draw_text(canvas& page, std::string_view text, double x, double y, const text_style& style,
                    align horizontal, align vertical, double angle = 0);

}  // namespace bkt::apps::plot
