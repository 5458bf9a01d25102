// --plot: an SVG bar chart, written by hand (SVG is plain XML): one <rect> per bin, axes with
// tick labels, the input's file name as the title, a log10 x axis for --log.
#pragma once

#include <cstdint>
#include <ostream>

#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// The most bins --plot draws: beyond this the file would run to many megabytes of sub-pixel bars.
inline constexpr std::int64_t svg_max_bins = 65536;

/// Writes a complete SVG document of width 800 and height 500 user units.
void render_svg(const histogram_result& result, std::ostream& out);

}  // namespace bkt::apps::histogram
