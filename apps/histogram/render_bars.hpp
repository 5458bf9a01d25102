// --bars: a bar chart for the terminal, one line per bin, drawn with Unicode block characters in
// eighths of a column, as wide as the terminal (or 80 columns when the output is not one).
#pragma once

#include <ostream>

#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// Columns to fill: the terminal's width when stdout is a terminal, else $COLUMNS, else 80.
int output_columns();

/// Writes one "[lower, upper)  ████▍  value" line per bin, then the summary line of the table.
void render_bars(const histogram_result& result, int columns, std::ostream& out);

}  // namespace bkt::apps::histogram
