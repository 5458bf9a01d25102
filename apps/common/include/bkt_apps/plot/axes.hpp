// Axes around a plot area: the frame (a box, or the left and bottom lines of a chart), tick
// marks, tick labels and axis titles. Ticks come as positions along an edge, so that a caller
// with a curved coordinate system (a sky projection) places them as easily as one with a
// linear scale.
#pragma once

#include <string>
#include <vector>

#include "bkt_apps/plot/canvas.hpp"
#include "bkt_apps/plot/text.hpp"
#include "bkt_apps/plot/ticks.hpp"

namespace bkt::apps::plot {

/// A tick on an edge: `fraction` of the way along it, from the left end of the bottom edge or
/// the bottom end of the left edge (so larger values lie right and up), and its label.
struct edge_tick {
  double fraction = 0;
  std::string label;
};

struct axes_style {
  text_style labels{10};
  text_style titles{11};
  colour ink{0.13, 0.13, 0.13};
  double line_width = 1;
  double tick_length = 5;
  bool ticks_inside = false;  // astronomers' images: inside the frame; charts: outside
  bool box = false;           // all four sides (images) or only the left and bottom (charts)
};

struct frame_axes {
  std::vector<edge_tick> bottom, left;
  std::string bottom_title, left_title;
};

/// The room outside the plot area that the labels and titles take.
struct axes_margins {
  double left = 0;
  double bottom = 0;
};

/// What draw_axes() needs outside the area, measured with the canvas's font.
axes_margins margins_for(const canvas& page, const frame_axes& axes, const axes_style& style);

/// Draws the frame, ticks, labels and titles around `area`. A label that would overlap the one
/// before it on its edge is left out (its tick stays).
void draw_axes(canvas& page, const rectangle& area, const frame_axes& axes, const axes_style& style);

/// For a linear or log axis from lo to hi: each tick's fraction along it; ticks outside
/// [lo, hi] are dropped.
std::vector<edge_tick> ticks_along(const std::vector<tick>& ticks, double lo, double hi, bool log_scale);

}  // namespace bkt::apps::plot
