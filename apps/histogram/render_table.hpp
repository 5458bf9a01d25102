// The default output: one line per bin (lower edge, upper edge, count or weight, fraction of the
// in-range total), then one footer line with what fell outside and the totals.
#pragma once

#include <ostream>

#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// Writes the table, columns right-aligned and separated by two spaces.
void render_table(const histogram_result& result, std::ostream& out);

/// The footer line alone ("in range: 10  outside: 2 (below 1, above 0, NaN 1)  total: 12"); the
/// terminal bar chart ends with it too.
std::string summary_line(const histogram_result& result);

}  // namespace bkt::apps::histogram
