#include "quick_look.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "bkt_apps/plot/axes.hpp"
#include "bkt_apps/plot/colour_bar.hpp"
#include "bkt_apps/plot/text.hpp"
#include "bkt_apps/plot/ticks.hpp"
#include "colour_scale.hpp"
#include "sky_axes.hpp"

namespace bkt::clean {
namespace plot = bkt::apps::plot;
namespace {

constexpr double margin = 16, title_height = 26, panel_gap = 36, bar_gap = 10, bar_width = 14;
constexpr double min_bar_height = 160;  // room for the colour bar's labels beside a flat image

/// An image averaged down for display: `block` x `block` image pixels per display pixel, rows
/// from the top (image y descending).
struct display_image {
  int width = 0, height = 0;
  std::int64_t block = 1;
  std::vector<double> values;
};

display_image resample(const image& picture) {
  const std::int64_t longest = std::max<std::int64_t>({picture.width, picture.height, 1});
  display_image shown;
  // Averaging keeps the noise statistics honest; NaN pixels are left out of each block's mean.
  shown.block = (longest + quick_look_panel_pixels - 1) / quick_look_panel_pixels;
  const std::int64_t block = shown.block;
  shown.width = static_cast<int>((picture.width + block - 1) / block);
  shown.height = static_cast<int>((picture.height + block - 1) / block);
  shown.values.reserve(static_cast<std::size_t>(shown.width) * static_cast<std::size_t>(shown.height));
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

/// One panel's contents and where they go.
struct panel {
  std::string title;
  const image* picture = nullptr;
  display_image shown;
  display_stretch stretch;
  plot::colour_map map = plot::colour_map::sequential;
  plot::frame_axes axes;
  plot::colour_bar bar;
  plot::rectangle area;  // the image itself
  double scale = 1;      // plot units per image pixel
};

std::string value_label(double value, double span) {
  if (std::fabs(value) < 1e-9 * span) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

/// Colour-bar ticks: nice values for a linear stretch; five evenly spaced colours for asinh,
/// whose nice values would crowd at the top.
std::vector<plot::edge_tick> bar_ticks(const display_stretch& stretch) {
  std::vector<plot::edge_tick> ticks;
  if (!stretch.asinh) {
    for (const plot::tick& mark : plot::linear_ticks(stretch.low, stretch.high, 5))
      ticks.push_back({stretch.apply(mark.value), mark.label});
    if (ticks.size() >= 2) return ticks;
    ticks.clear();
  }
  for (int step = 0; step <= 4; ++step)
    ticks.push_back({step / 4.0, value_label(stretch.value_at(step / 4.0), stretch.high - stretch.low)});
  return ticks;
}

void draw_image(plot::canvas& page, const panel& shown) {
  const display_image& pixels = shown.shown;
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixels.width, pixels.height);
  cairo_surface_flush(surface);
  unsigned char* data = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  if (data == nullptr) {  // out of memory: the surface is in error, and finish() will say so
    cairo_surface_destroy(surface);
    return;
  }
  for (int row = 0; row < pixels.height; ++row) {
    auto* line = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(row) * stride);
    for (int column = 0; column < pixels.width; ++column) {
      const double value = pixels.values[static_cast<std::size_t>(row) * pixels.width + column];
      const plot::colour shade = plot::colour_at(shown.map, shown.stretch.apply(value));
      const auto channel = [](double c) { return static_cast<std::uint32_t>(std::lround(std::clamp(c, 0.0, 1.0) * 255)); };
      line[column] = channel(shade.red) << 16 | channel(shade.green) << 8 | channel(shade.blue);
    }
  }
  cairo_surface_mark_dirty(surface);

  cairo_t* context = page.cairo();
  cairo_save(context);
  cairo_rectangle(context, shown.area.left, shown.area.top, shown.area.width, shown.area.height);
  cairo_clip(context);
  // Display pixel (c, r) covers image pixels from (c, r) * block: the last block may hang over
  // the image's edge, and the clip cuts it there.
  cairo_translate(context, shown.area.left, shown.area.top);
  const double magnify = static_cast<double>(pixels.block) * shown.scale;
  cairo_scale(context, magnify, magnify);
  cairo_set_source_surface(context, surface, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_NEAREST);  // pixels stay square
  cairo_paint(context);
  cairo_restore(context);
  cairo_surface_destroy(surface);
}

/// The restoring beam: an ellipse of its FWHMs in the panel's lower-left corner.
void draw_beam(plot::canvas& page, const panel& shown, const beam& restoring) {
  const double major = restoring.major_fwhm * shown.scale, minor = restoring.minor_fwhm * shown.scale;
  if (!(major > 0) || !(minor > 0) || !std::isfinite(major)) return;
  // The corner keeps the whole ellipse inside whatever its angle.
  const double reach = major / 2 + 6;
  cairo_t* context = page.cairo();
  cairo_save(context);
  cairo_rectangle(context, shown.area.left, shown.area.top, shown.area.width, shown.area.height);
  cairo_clip(context);
  cairo_translate(context, shown.area.left + reach, shown.area.bottom() - reach);
  // The beam's angle runs counter-clockwise from +x with y up; the page's y runs down.
  cairo_rotate(context, -restoring.angle);
  cairo_save(context);
  cairo_scale(context, major / 2, minor / 2);
  cairo_arc(context, 0, 0, 1, 0, 2 * std::numbers::pi);
  cairo_restore(context);  // a round pen, not one squashed with the ellipse
  cairo_set_source_rgba(context, 1, 1, 1, 0.85);
  cairo_fill_preserve(context);
  cairo_set_source_rgb(context, 0, 0, 0);
  cairo_set_line_width(context, 1);
  cairo_stroke(context);
  cairo_restore(context);
}

}  // namespace

std::string display_unit(const std::string& bunit) {
  std::string upper = bunit;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "JY/BEAM") return "Jy/beam";
  if (upper == "JY/PIXEL") return "Jy/pixel";
  return bunit;
}

void write_quick_look(const quick_look_input& input, plot::file_format format, const std::string& name,
                      const plot::byte_sink& sink) {
  const std::string unit = display_unit(input.unit);
  panel panels[2];
  panels[0].title = "Restored";
  panels[0].picture = &input.restored;
  panels[0].stretch = restored_stretch(input.restored);
  panels[0].map = plot::colour_map::sequential;
  panels[1].title = "Residual";
  panels[1].picture = &input.residual;
  panels[1].stretch = residual_stretch(input.residual);
  panels[1].map = plot::colour_map::diverging;
  const plot::frame_axes axes =
      sky_axes(input.wcs, input.header, input.restored.width, input.restored.height, input.plane_position);

  // Measure on a scratch canvas of the same kind of font metrics (no hinting, so every format
  // measures alike), then lay out and draw on the real one.
  plot::canvas measure(plot::file_format::png, 1, 1, nullptr, name);
  const plot::axes_style style{{10}, {11}, {0.13, 0.13, 0.13}, 1, 5, true, true};
  double page_width = margin, page_height = 0;
  for (panel& shown : panels) {
    shown.shown = resample(*shown.picture);
    const double longest = static_cast<double>(std::max<std::int64_t>({shown.picture->width, shown.picture->height, 1}));
    shown.scale = quick_look_panel_pixels / longest;
    shown.axes = axes;
    shown.bar = {shown.map, bar_ticks(shown.stretch), unit + (shown.stretch.asinh ? " (asinh)" : "")};
    const plot::axes_margins room = plot::margins_for(measure, shown.axes, style);
    shown.area.left = page_width + room.left;
    shown.area.top = margin + title_height;
    shown.area.width = static_cast<double>(shown.picture->width) * shown.scale;
    shown.area.height = static_cast<double>(shown.picture->height) * shown.scale;
    page_width = shown.area.right() + bar_gap + bar_width + plot::colour_bar_label_width(measure, shown.bar, style) + panel_gap;
    page_height = std::max(page_height, shown.area.top + std::max(shown.area.height, min_bar_height) + room.bottom + margin);
  }
  page_width += margin - panel_gap;

  plot::canvas page(format, static_cast<int>(std::ceil(page_width)), static_cast<int>(std::ceil(page_height)), sink, name,
                    "bkt-clean: restored and residual images");
  for (const panel& shown : panels) {
    plot::draw_text(page, shown.title, shown.area.left, margin, plot::text_style{13, true}, plot::align::start,
                    plot::align::start);
    draw_image(page, shown);
    if (&shown == &panels[0] && input.restoring_beam) draw_beam(page, shown, *input.restoring_beam);
    plot::draw_axes(page, shown.area, shown.axes, style);
    const plot::rectangle bar{shown.area.right() + bar_gap, shown.area.top, bar_width,
                              std::max(shown.area.height, min_bar_height)};
    plot::draw_colour_bar(page, bar, shown.bar, style);
  }
  page.finish();
}

}  // namespace bkt::clean
