// --plot: a bar chart drawn through cairo, as PNG, SVG or PDF by the file's extension: one bar
// per bin, axes with tick labels, the input's file name as the title, a log10 x axis for --log.
#pragma once

#include <cstdint>
#include <string>

#include "bkt_apps/plot/canvas.hpp"
#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// The most bins --plot draws: beyond this the bars are far below a pixel wide and an SVG or PDF
/// runs to many megabytes.
inline constexpr std::int64_t plot_max_bins = 65536;

/// Draws the chart on an 800 x 500 page (pixels for PNG, points for SVG and PDF) and sends the
/// file's bytes to `sink`. `name` (the output's path) prefixes errors (app_error).
void render_plot(const histogram_result& result, plot::file_format format, const std::string& name,
                 const plot::byte_sink& sink);

}  // namespace bkt::apps::histogram
