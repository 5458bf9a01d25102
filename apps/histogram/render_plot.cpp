#include "render_plot.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bkt_apps/plot/axes.hpp"
#include "bkt_apps/plot/text.hpp"
#include "bkt_apps/plot/ticks.hpp"

namespace bkt::apps::histogram {
namespace {

constexpr int page_width = 800, page_height = 500;
constexpr double title_top = 12, plot_top = 48, right_margin = 30, axis_pad = 8;
constexpr plot::colour bar_fill{0x48 / 255.0, 0x78 / 255.0, 0xa8 / 255.0};
constexpr plot::colour grid_ink{0.87, 0.87, 0.87};

std::string title_of(const histogram_result& result) {
  std::string name = result.input;
  if (name.empty() || name == "-") name = "standard input";
  else if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
  return "Histogram of " + name + " (" + std::to_string(result.elements) + " values, " + std::to_string(result.bins()) +
         " bins)";
}

/// Data values to page x, bin values to page y (growing downwards).
struct chart_scale {
  plot::rectangle area;
  bool log_x = false;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  double x(double value) const {
    const double position = log_x ? std::log10(value) : value;
    const double lo = log_x ? std::log10(x_lo) : x_lo, hi = log_x ? std::log10(x_hi) : x_hi;
    return area.left + (position - lo) / (hi - lo) * area.width;
  }
  double y(double value) const { return area.bottom() - (value - y_lo) / (y_hi - y_lo) * area.height; }
};

/// The value axis spans zero and every bin (weights may be negative), widened to its outer ticks.
std::vector<plot::tick> value_ticks(const histogram_result& result, double& lo, double& hi) {
  lo = 0;
  hi = 0;
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    lo = std::min(lo, result.value(bin));
    hi = std::max(hi, result.value(bin));
  }
  if (!(hi > lo)) hi = lo + 1;  // nothing in range: a unit axis rather than a point
  std::vector<plot::tick> ticks = plot::linear_ticks(lo, hi, 6, true);
  lo = std::min(lo, ticks.front().value);
  hi = std::max(hi, ticks.back().value);
  return ticks;
}

void draw_bars(plot::canvas& page, const histogram_result& result, const chart_scale& scale) {
  cairo_t* context = page.cairo();
  cairo_save(context);
  cairo_rectangle(context, scale.area.left, scale.area.top, scale.area.width, scale.area.height);
  cairo_clip(context);
  const double zero = scale.y(0.0);
  double narrowest = scale.area.width;
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    const double value = result.value(bin);
    if (value == 0) continue;
    const auto index = static_cast<std::size_t>(bin);
    const double x0 = scale.x(result.edges[index]), x1 = scale.x(result.edges[index + 1]);
    const double y = scale.y(value);
    cairo_rectangle(context, x0, std::min(y, zero), x1 - x0, std::fabs(zero - y));
    narrowest = std::min(narrowest, x1 - x0);
  }
  plot::set_colour(context, bar_fill);
  // Bars a few units wide or more get a thin white outline, so that neighbours stay apart.
  if (narrowest >= 4) {
    cairo_fill_preserve(context);
    cairo_set_source_rgb(context, 1, 1, 1);
    cairo_set_line_width(context, 0.75);
    cairo_stroke(context);
  } else {
    cairo_fill(context);
  }
  cairo_restore(context);
}

}  // namespace

void render_plot(const histogram_result& result, plot::file_format format, const std::string& name,
                 const plot::byte_sink& sink) {
  const std::string title = title_of(result);
  plot::canvas page(format, page_width, page_height, sink, name, title);

  chart_scale scale;
  scale.log_x = result.kind == binning_kind::log;
  scale.x_lo = result.edges.front();
  scale.x_hi = result.edges.back();
  if (!(scale.x_hi > scale.x_lo)) scale.x_hi = scale.x_lo + 1;
  const std::vector<plot::tick> y_ticks = value_ticks(result, scale.y_lo, scale.y_hi);
  const std::vector<plot::tick> x_ticks =
      scale.log_x ? plot::log_ticks(scale.x_lo, scale.x_hi, 8) : plot::linear_ticks(scale.x_lo, scale.x_hi, 8);

  plot::frame_axes axes;
  axes.bottom = plot::ticks_along(x_ticks, scale.x_lo, scale.x_hi, scale.log_x);
  axes.left = plot::ticks_along(y_ticks, scale.y_lo, scale.y_hi, false);
  axes.bottom_title = scale.log_x ? "value (log scale)" : "value";
  axes.left_title = value_name(result);
  const plot::axes_style style;
  const plot::axes_margins room = plot::margins_for(page, axes, style);
  scale.area = {room.left + axis_pad + 4, plot_top, 0, 0};
  scale.area.width = page_width - right_margin - scale.area.left;
  scale.area.height = page_height - axis_pad - room.bottom - plot_top;

  plot::draw_text(page, title, page_width / 2.0, title_top, plot::text_style{14, true}, plot::align::centre,
                  plot::align::start);
  cairo_t* context = page.cairo();
  plot::set_colour(context, grid_ink);
  cairo_set_line_width(context, 1);
  for (const plot::edge_tick& mark : axes.left) {
    const double y = scale.area.bottom() - mark.fraction * scale.area.height;
    cairo_move_to(context, scale.area.left, y);
    cairo_line_to(context, scale.area.right(), y);
  }
  cairo_stroke(context);
  draw_bars(page, result, scale);
  plot::draw_axes(page, scale.area, axes, style);
  page.finish();
}

}  // namespace bkt::apps::histogram
