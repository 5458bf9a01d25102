// The run itself: read the data (twice when the range comes from it), plan the bins, bin every
// chunk on the GPU or the CPU, and gather what every output needs.
#pragma once

#include "histogram_result.hpp"
#include "options.hpp"

namespace bkt::apps::histogram {

/// Reads, bins and times; throws app_error on bad input, bkt::error on GPU failure.
histogram_result compute_histogram(const options& opts);

}  // namespace bkt::apps::histogram
