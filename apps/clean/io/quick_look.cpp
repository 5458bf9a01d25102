#include "quick_look.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bitmap_font.hpp"
#include "colour_scale.hpp"

namespace bkt::clean {
namespace {

constexpr rgb background{255, 255, 255}, ink{20, 20, 20};
constexpr int margin = 24;
constexpr int title_scale = 2, label_scale = 1;
constexpr int title_height = glyph_height * title_scale, label_height = glyph_height * label_scale;
constexpr int bar_gap = 12, bar_height = 14, tick_length = 4;
constexpr int min_slot_width = 260;  // room for the title and five colour-bar labels

/// An image resampled for display: rows top to bottom (image y descending).
struct display_image {
  int width = 0, height = 0;
  std::vector<double> values;
};

display_image resample(const image& picture) {
  const std::int64_t longest = std::max<std::int64_t>({picture.width, picture.height, 1});
  display_image shown;
  if (longest <= quick_look_panel_pixels) {
    const auto magnify = static_cast<int>(quick_look_panel_pixels / longest);
    shown.width = static_cast<int>(picture.width) * magnify;
    shown.height = static_cast<int>(picture.height) * magnify;
    for (int row = 0; row < shown.height; ++row)
      for (int column = 0; column < shown.width; ++column)
        shown.values.push_back(picture.at(column / magnify, picture.height - 1 - row / magnify));
    return shown;
  }
  // Averaging keeps the noise statistics honest; NaN pixels are left out of each block's mean.
  const std::int64_t block = (longest + quick_look_panel_pixels - 1) / quick_look_panel_pixels;
  shown.width = static_cast<int>((picture.width + block - 1) / block);
  shown.height = static_cast<int>((picture.height + block - 1) / block);
  for (int row = 0; row < shown.height; ++row)
    for (int column = 0; column < shown.width; ++column) {
      double sum = 0;
      int count = 0;
      const std::int64_t top = picture.height - 1 - row * block;
      for (std::int64_t y = top; y > top - block && y >= 0; --y)
        for (std::int64_t x = column * block; x < (column + 1) * block && x < picture.width; ++x)
          if (const float value = picture.at(x, y); !std::isnan(value)) {
            sum += value;
            ++count;
          }
      shown.values.push_back(count > 0 ? sum / count : std::nan(""));
    }
  return shown;
}

std::string tick_label(double value, double span) {
  if (std::fabs(value) < 1e-9 * span) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

/// One panel: title, image, colour bar and its labels, in the slot starting at (left, top).
void draw_panel(rgb_canvas& canvas, int left, int top, int slot_width, const display_image& shown,
                const std::string& title, const display_stretch& stretch, colour_map map) {
  draw_text(canvas, left, top, title, title_scale, ink);
  const int image_top = top + title_height + 10;
  for (int row = 0; row < shown.height; ++row)
    for (int column = 0; column < shown.width; ++column)
      canvas.set(left + column, image_top + row, colour_at(map, stretch.apply(shown.values[row * shown.width + column])));

  const int bar_top = image_top + shown.height + bar_gap;
  const int bar_width = slot_width;
  for (int column = 0; column < bar_width; ++column)
    canvas.fill_rect(left + column, bar_top, 1, bar_height, colour_at(map, column / double(bar_width - 1)));
  constexpr int num_ticks = 5;
  for (int tick = 0; tick < num_ticks; ++tick) {
    const double t = tick / double(num_ticks - 1);
    const int x = left + static_cast<int>(std::lround(t * (bar_width - 1)));
    canvas.fill_rect(x, bar_top + bar_height, 1, tick_length, ink);
    const std::string label = tick_label(stretch.value_at(t), stretch.high - stretch.low);
    const int width = text_width(label, label_scale);
    const int label_left = std::clamp(x - width / 2, left, left + bar_width - width);
    draw_text(canvas, label_left, bar_top + bar_height + tick_length + 2, label, label_scale, ink);
  }
}

}  // namespace

rgb_canvas draw_quick_look(const image& restored, const image& residual, const std::string& unit) {
  const display_image restored_shown = resample(restored), residual_shown = resample(residual);
  const display_stretch restored_scale = restored_stretch(restored), residual_scale = residual_stretch(residual);
  const std::string restored_title = "restored (" + unit + ", " + restored_scale.name() + ")";
  const std::string residual_title = "residual (" + unit + ", " + residual_scale.name() + ")";
  const auto slot_width = [](const display_image& shown, const std::string& title) {
    return std::max({shown.width, min_slot_width, text_width(title, title_scale)});
  };
  const int left_slot = slot_width(restored_shown, restored_title);
  const int right_slot = slot_width(residual_shown, residual_title);
  const int image_height = std::max(restored_shown.height, residual_shown.height);
  const int width = margin + left_slot + 2 * margin + right_slot + margin;
  const int height = margin + title_height + 10 + image_height + bar_gap + bar_height + tick_length + 2 +
                     label_height + margin;
  rgb_canvas canvas(width, height, background);
  draw_panel(canvas, margin, margin, left_slot, restored_shown, restored_title, restored_scale, colour_map::sequential);
  draw_panel(canvas, margin + left_slot + 2 * margin, margin, right_slot, residual_shown, residual_title,
             residual_scale, colour_map::diverging);
  return canvas;
}

}  // namespace bkt::clean
