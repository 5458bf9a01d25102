// sum_over_ranks in a build without bkt::dist (NCCL or MPI missing): several ranks are refused.
#include "rank_sum.hpp"

namespace bkt::apps::histogram {

bool can_sum_over_ranks() noexcept { return false; }

void sum_over_ranks(histogram_result&, rank_context& ranks) {
  throw several_ranks_need_dist(ranks.size());
}

}  // namespace bkt::apps::histogram
