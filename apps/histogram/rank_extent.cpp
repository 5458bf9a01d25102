// The ranks' extents, gathered as bytes and folded in rank order (the result is the same whatever
// the order: min, max and counts).
#include <cstring>
#include <vector>

#include "rank_sum.hpp"

namespace bkt::apps::histogram {
namespace {

struct packed_extent {
  std::int64_t finite;
  double min, max;
  double min_positive;
  std::int64_t has_min_positive;
};

}  // namespace

data_extent merge_over_ranks(const data_extent& mine, rank_context& ranks) {
  const packed_extent packed{mine.finite, mine.min, mine.max, mine.min_positive.value_or(0.0),
                             mine.min_positive.has_value() ? 1 : 0};
  const std::vector<std::string> all =
      ranks.all_gather(std::string(reinterpret_cast<const char*>(&packed), sizeof packed));
  data_extent merged;
  for (const std::string& bytes : all) {
    packed_extent part{};
    std::memcpy(&part, bytes.data(), sizeof part);
    if (part.finite > 0) {
      merged.min = merged.finite > 0 ? std::min(merged.min, part.min) : part.min;
      merged.max = merged.finite > 0 ? std::max(merged.max, part.max) : part.max;
      merged.finite += part.finite;
    }
    if (part.has_min_positive != 0)
      merged.min_positive = merged.min_positive ? std::min(*merged.min_positive, part.min_positive) : part.min_positive;
  }
  return merged;
}

}  // namespace bkt::apps::histogram
