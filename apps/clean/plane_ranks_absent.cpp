// gather_planes_to_root in a build without bkt::dist (NCCL or MPI missing): several ranks are refused.
#include "plane_ranks.hpp"

namespace bkt::clean {

void gather_planes_to_root(std::vector<plane_images>&, std::vector<plane_summary>&, std::int64_t, std::int64_t,
                           bkt::apps::rank_context& ranks) {
  throw bkt::apps::several_ranks_need_dist(ranks.size());
}

}  // namespace bkt::clean
