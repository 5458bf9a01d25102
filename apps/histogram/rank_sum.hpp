// Under mpirun each rank bins its own part of the input; these put the parts' results together.
#pragma once

#include <string>

#include "binning.hpp"
#include "bkt_apps/ranks.hpp"
#include "histogram_result.hpp"

namespace bkt::apps::histogram {

/// Whether this build can add the ranks' bins (bkt::dist was built: NCCL and MPI were found).
bool can_sum_over_ranks() noexcept;

/// Collective: every rank's counts, weight sums, outside tallies and element count become their
/// sums over the ranks, on every rank (ncclAllReduce on the rank's GPU). Counts are exact; weight
/// sums are added in double, per rank and then across ranks. Throws usage_error in a build without
/// bkt::dist.
void sum_over_ranks(histogram_result& result, rank_context& ranks);

/// Collective (MPI: a few bytes per rank): the extent of all the ranks' data.
data_extent merge_over_ranks(const data_extent& mine, rank_context& ranks);

}  // namespace bkt::apps::histogram
