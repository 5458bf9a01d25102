// --json: the table's content as one JSON object, plus a timing summary.
#pragma once

#include <ostream>

#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// Writes {"input", "weights", "dtype", "binned_as", "binning", "bins", "edges", "counts" (or
/// "sums" when weighted), "outside": {below, above, nan, total}, "totals": {in_range, outside, all,
/// elements}, "timing": {elements, seconds, elements_per_second, device}}, indented, and a newline.
void render_json(const histogram_result& result, std::ostream& out);

}  // namespace bkt::apps::histogram
