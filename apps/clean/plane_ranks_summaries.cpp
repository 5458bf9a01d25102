// The summaries' half of gather_planes_to_root: each plane's figures as bytes, then its noise
// cycles (a count and the records), through the rank layer's MPI gather.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "plane_ranks.hpp"

namespace bkt::clean {
namespace {

static_assert(std::is_trivially_copyable_v<plane_figures>, "plane figures travel as bytes");
static_assert(std::is_trivially_copyable_v<noise_cycle>, "noise cycles travel as bytes");

template <class T>
void append_bytes(std::string& out, const T* data, std::size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

template <class T>
void take_bytes(const std::string& in, std::size_t& at, T* data, std::size_t count) {
  std::memcpy(static_cast<void*>(data), in.data() + at, count * sizeof(T));
  at += count * sizeof(T);
}

}  // namespace

/// Rank 0's summaries gain the other ranks' entries, each in its place.
void gather_plane_summaries(std::vector<plane_summary>& summaries, bkt::apps::rank_context& ranks) {
  std::string mine;
  for (std::size_t i = 0; i < summaries.size(); ++i)
    if (plane_owner(i, ranks) == ranks.rank()) {
      const plane_summary& summary = summaries[i];
      append_bytes<plane_figures>(mine, &summary, 1);
      const std::uint64_t cycles = summary.noise_cycles.size();
      append_bytes(mine, &cycles, 1);
      append_bytes(mine, summary.noise_cycles.data(), summary.noise_cycles.size());
    }
  const std::vector<std::string> all = ranks.gather_to_root(mine);
  if (!ranks.is_root()) return;
  std::vector<std::size_t> read(all.size(), 0);  // bytes taken from each rank's record
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    const auto owner = static_cast<std::size_t>(plane_owner(i, ranks));
    plane_summary& summary = summaries[i];
    take_bytes<plane_figures>(all[owner], read[owner], &summary, 1);
    std::uint64_t cycles = 0;
    take_bytes(all[owner], read[owner], &cycles, 1);
    summary.noise_cycles.resize(cycles);
    take_bytes(all[owner], read[owner], summary.noise_cycles.data(), summary.noise_cycles.size());
  }
}

}  // namespace bkt::clean
