// The run itself: read the data (twice when the range comes from it), plan the bins, bin every
// chunk on the GPU or the CPU, and gather what every output needs.
#pragma once

#include "bkt_apps/ranks.hpp"
#include "histogram_result.hpp"
#include "options.hpp"

namespace bkt::apps::histogram {

/// Reads, bins and times; throws app_error on bad input, bkt::error on GPU failure. Collective
/// under mpirun: each rank reads and bins its part of the input (bkt_apps/numeric_io.hpp's
/// input_part), the ranks agree on the range when it comes from the data, and every rank ends with
/// the histogram of the whole input.
histogram_result compute_histogram(const options& opts, rank_context& ranks);

}  // namespace bkt::apps::histogram
