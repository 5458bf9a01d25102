// sort_on_ranks in a build without bkt::dist (NCCL or MPI missing): several ranks are refused.
#include "sort_on_ranks.hpp"

namespace bkt::radixsort {

sort_report sort_on_ranks(const options&, apps::output_file*, apps::rank_context& ranks) {
  throw apps::several_ranks_need_dist(ranks.size());
}

}  // namespace bkt::radixsort
