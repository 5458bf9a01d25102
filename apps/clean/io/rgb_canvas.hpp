// A plain RGB raster (8 bits per channel, row 0 at the top) that the quick-look plot is drawn on.
#pragma once

#include <cstdint>
#include <vector>

namespace bkt::clean {

struct rgb {
  std::uint8_t red = 0, green = 0, blue = 0;
};

struct rgb_canvas {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // red, green, blue per pixel, rows top to bottom

  rgb_canvas(int canvas_width, int canvas_height, rgb background);
  /// Sets one pixel; outside the canvas: ignored.
  void set(int x, int y, rgb colour);
  void fill_rect(int x, int y, int rect_width, int rect_height, rgb colour);
};

}  // namespace bkt::clean
