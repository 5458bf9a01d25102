#include "bkt_apps/plot/axes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "bkt_apps/plot/ticks.hpp"

namespace bkt::apps::plot {
namespace {

constexpr double label_gap = 3;  // between a tick (or the frame) and its label
constexpr double title_gap = 6;  // between the labels and the axis title

double widest_label(const canvas& page, const std::vector<edge_tick>& ticks, const text_style& style) {
  double widest = 0;
  for (const edge_tick& mark : ticks) widest = std::max(widest, measure_text(page, mark.label, style).width);
  return widest;
}

double outside_tick(const axes_style& style) { return style.ticks_inside ? 0 : style.tick_length; }

}  // namespace

axes_margins margins_for(const canvas& page, const frame_axes& axes, const axes_style& style) {
  const double label_height = measure_text(page, "0", style.labels).height;
  const double title_height = measure_text(page, "0", style.titles).height;
  axes_margins room;
  room.left = outside_tick(style) + label_gap + widest_label(page, axes.left, style.labels);
  room.bottom = outside_tick(style) + label_gap + (axes.bottom.empty() ? 0 : label_height);
  if (!axes.left_title.empty()) room.left += title_gap + title_height;
  if (!axes.bottom_title.empty()) room.bottom += title_gap + title_height;
  return room;
}

void draw_axes(canvas& page, const rectangle& area, const frame_axes& axes, const axes_style& style) {
  cairo_t* context = page.cairo();
  cairo_save(context);
  set_colour(context, style.ink);
  cairo_set_line_width(context, style.line_width);
  cairo_set_line_cap(context, CAIRO_LINE_CAP_SQUARE);
  if (style.box) {
    cairo_rectangle(context, area.left, area.top, area.width, area.height);
  } else {
    cairo_move_to(context, area.left, area.top);
    cairo_line_to(context, area.left, area.bottom());
    cairo_line_to(context, area.right(), area.bottom());
  }
  cairo_stroke(context);

  // Inside ticks point into the area from every edge of a box, as image viewers draw them.
  const double direction = style.ticks_inside ? -1 : 1;
  cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT);
  for (const edge_tick& mark : axes.bottom) {
    const double x = area.left + mark.fraction * area.width;
    cairo_move_to(context, x, area.bottom());
    cairo_rel_line_to(context, 0, direction * style.tick_length);
    if (style.box && style.ticks_inside) {
      cairo_move_to(context, x, area.top);
      cairo_rel_line_to(context, 0, style.tick_length);
    }
  }
  for (const edge_tick& mark : axes.left) {
    const double y = area.bottom() - mark.fraction * area.height;
    cairo_move_to(context, area.left, y);
    cairo_rel_line_to(context, -direction * style.tick_length, 0);
    if (style.box && style.ticks_inside) {
      cairo_move_to(context, area.right(), y);
      cairo_rel_line_to(context, -style.tick_length, 0);
    }
  }
  cairo_stroke(context);
  cairo_restore(context);

  const double label_top = area.bottom() + outside_tick(style) + label_gap;
  double last_right = -INFINITY;
  for (const edge_tick& mark : axes.bottom) {
    const double x = area.left + mark.fraction * area.width;
    const double width = measure_text(page, mark.label, style.labels).width;
    if (x - width / 2 < last_right + label_gap) continue;
    draw_text(page, mark.label, x, label_top, style.labels, align::centre, align::start);
    last_right = x + width / 2;
  }
  const double label_right = area.left - outside_tick(style) - label_gap;
  const double label_height = measure_text(page, "0", style.labels).height;
  double last_top = INFINITY;
  for (const edge_tick& mark : axes.left) {
    const double y = area.bottom() - mark.fraction * area.height;
    if (y + label_height / 2 > last_top - 1) continue;
    draw_text(page, mark.label, label_right, y, style.labels, align::end, align::centre);
    last_top = y - label_height / 2;
  }

  const axes_margins room = margins_for(page, axes, style);
  if (!axes.bottom_title.empty())
    draw_text(page, axes.bottom_title, area.left + area.width / 2, area.bottom() + room.bottom, style.titles,
              align::centre, align::end);
  if (!axes.left_title.empty())
    draw_text(page, axes.left_title, area.left - room.left, area.top + area.height / 2, style.titles, align::centre,
              align::start, -std::numbers::pi / 2);
}

std::vector<edge_tick> ticks_along(const std::vector<tick>& ticks, double lo, double hi, bool log_scale) {
  std::vector<edge_tick> marks;
  const double from = log_scale ? std::log10(lo) : lo, to = log_scale ? std::log10(hi) : hi;
  for (const tick& mark : ticks) {
    const double position = log_scale ? std::log10(mark.value) : mark.value;
    const double fraction = to > from ? (position - from) / (to - from) : 0.5;
    if (fraction >= -1e-9 && fraction <= 1 + 1e-9) marks.push_back({std::clamp(fraction, 0.0, 1.0), mark.label});
  }
  return marks;
}

}  // namespace bkt::apps::plot
