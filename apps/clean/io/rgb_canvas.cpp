#include "rgb_canvas.hpp"

namespace bkt::clean {

rgb_canvas::rgb_canvas(int canvas_width, int canvas_height, rgb background)
    : width(canvas_width), height(canvas_height) {
  pixels.resize(static_cast<std::size_t>(width) * height * 3);
  fill_rect(0, 0, width, height, background);
}

void rgb_canvas::set(int x, int y, rgb colour) {
  if (x < 0 || y < 0 || x >= width || y >= height) return;
  std::uint8_t* pixel = &pixels[(static_cast<std::size_t>(y) * width + x) * 3];
  pixel[0] = colour.red;
  pixel[1] = colour.green;
  pixel[2] = colour.blue;
}

void rgb_canvas::fill_rect(int x, int y, int rect_width, int rect_height, rgb colour) {
  for (int row = y; row < y + rect_height; ++row)
    for (int column = x; column < x + rect_width; ++column) set(column, row, colour);
}

}  // namespace bkt::clean
