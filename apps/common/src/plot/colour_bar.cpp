#include "bkt_apps/plot/colour_bar.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace bkt::apps::plot {
namespace {

struct control_point {
  double t;
  double red, green, blue;  // 0-255
};

// Control points picked for these tools; lightness grows roughly evenly along the sequential
// map, and the diverging one is symmetric in lightness about its white middle.
constexpr std::array<control_point, 6> sequential_points = {{
    {0.00, 8, 6, 30},
    {0.20, 62, 18, 100},
    {0.45, 150, 40, 110},
    {0.65, 215, 80, 70},
    {0.85, 248, 165, 40},
    {1.00, 252, 250, 185},
}};
constexpr std::array<control_point, 5> diverging_points = {{
    {0.00, 30, 60, 150},
    {0.25, 110, 160, 215},
    {0.50, 245, 245, 245},
    {0.75, 225, 130, 100},
    {1.00, 150, 25, 35},
}};

template <std::size_t N>
colour interpolate(const std::array<control_point, N>& points, double t) {
  t = std::clamp(t, 0.0, 1.0);
  std::size_t upper = 1;
  while (upper + 1 < N && points[upper].t < t) ++upper;
  const control_point& a = points[upper - 1];
  const control_point& b = points[upper];
  const double f = (t - a.t) / (b.t - a.t);
  const auto mix = [f](double x, double y) { return (x + (y - x) * f) / 255; };
  return {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
}

constexpr double label_gap = 3, title_gap = 6;

}  // namespace

colour colour_at(colour_map map, double t) {
  if (std::isnan(t)) return {0.5, 0.5, 0.5};
  return map == colour_map::sequential ? interpolate(sequential_points, t) : interpolate(diverging_points, t);
}

double colour_bar_label_width(const canvas& page, const colour_bar& bar, const axes_style& style) {
  double widest = 0;
  for (const edge_tick& mark : bar.ticks) widest = std::max(widest, measure_text(page, mark.label, style.labels).width);
  double width = style.tick_length + label_gap + widest;
  if (!bar.title.empty()) width += title_gap + measure_text(page, bar.title, style.titles).height;
  return width;
}

void draw_colour_bar(canvas& page, const rectangle& area, const colour_bar& bar, const axes_style& style) {
  cairo_t* context = page.cairo();
  cairo_save(context);
  // A gradient with a stop every 1/64: smooth in a PNG and a vector in SVG and PDF.
  cairo_pattern_t* gradient = cairo_pattern_create_linear(0, area.bottom(), 0, area.top);
  constexpr int stops = 64;
  for (int stop = 0; stop <= stops; ++stop) {
    const double t = stop / double(stops);
    const colour shade = colour_at(bar.map, t);
    cairo_pattern_add_color_stop_rgb(gradient, t, shade.red, shade.green, shade.blue);
  }
  cairo_rectangle(context, area.left, area.top, area.width, area.height);
  cairo_set_source(context, gradient);
  cairo_fill(context);
  cairo_pattern_destroy(gradient);

  set_colour(context, style.ink);
  cairo_set_line_width(context, style.line_width);
  cairo_rectangle(context, area.left, area.top, area.width, area.height);
  for (const edge_tick& mark : bar.ticks) {
    const double y = area.bottom() - mark.fraction * area.height;
    cairo_move_to(context, area.right(), y);
    cairo_rel_line_to(context, style.tick_length, 0);
  }
  cairo_stroke(context);
  cairo_restore(context);

  const double label_left = area.right() + style.tick_length + label_gap;
  double widest = 0;
  for (const edge_tick& mark : bar.ticks) {
    const double y = area.bottom() - mark.fraction * area.height;
    widest = std::max(widest, draw_text(page, mark.label, label_left, y, style.labels, align::start, align::centre).width);
  }
  if (!bar.title.empty())
    draw_text(page, bar.title, label_left + widest + title_gap, area.top + area.height / 2, style.titles, align::centre,
              align::start, -std::numbers::pi / 2);
}

}  // namespace bkt::apps::plot
