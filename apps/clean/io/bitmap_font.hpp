// A 5 x 7 pixel font, drawn here for the plot's titles and colour-bar labels: digits, capital
// letters (lower case is drawn as capitals) and the punctuation numbers and units need.
#pragma once

#include <string_view>

#include "rgb_canvas.hpp"

namespace bkt::clean {

constexpr int glyph_width = 5, glyph_height = 7;
constexpr int glyph_advance = glyph_width + 1;  // one column of space between characters

/// Width in pixels of `text` drawn at `scale` (each font pixel a scale x scale square).
int text_width(std::string_view text, int scale);

/// Draws `text` with its top-left corner at (x, y); characters without a glyph show as '?'.
void draw_text(rgb_canvas& canvas, int x, int y, std::string_view text, int scale, rgb colour);

}  // namespace bkt::clean
