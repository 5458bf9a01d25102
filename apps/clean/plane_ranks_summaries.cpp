// The summaries' half of gather_planes_to_root: plain bytes through the rank layer's MPI gather.
#include <cstring>
#include <string>
#include <type_traits>

#include "plane_ranks.hpp"

namespace bkt::clean {

static_assert(std::is_trivially_copyable_v<plane_summary>, "plane summaries travel as bytes");

/// Rank 0's summaries gain the other ranks' entries, each in its place.
void gather_plane_summaries(std::vector<plane_summary>& summaries, bkt::apps::rank_context& ranks) {
  std::string mine;
  for (std::size_t i = 0; i < summaries.size(); ++i)
    if (plane_owner(i, ranks) == ranks.rank())
      mine.append(reinterpret_cast<const char*>(&summaries[i]), sizeof(plane_summary));
  const std::vector<std::string> all = ranks.gather_to_root(mine);
  if (!ranks.is_root()) return;
  std::vector<std::size_t> taken(all.size(), 0);
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    const auto owner = static_cast<std::size_t>(plane_owner(i, ranks));
    std::memcpy(&summaries[i], all[owner].data() + taken[owner] * sizeof(plane_summary), sizeof(plane_summary));
    ++taken[owner];
  }
}

}  // namespace bkt::clean
