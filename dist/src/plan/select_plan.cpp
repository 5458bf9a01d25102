#include "bkt/dist/detail/select_plan.hpp"

#include <algorithm>
#include <string>

#include "bkt/error.hpp"

namespace bkt::dist::detail {

radix_select_plan::radix_select_plan(std::span<const std::int64_t> ranks, int key_bits)
    : shift_(key_bits - 8), prefix_(ranks.size(), 0), remaining_(ranks.begin(), ranks.end()) {
  BKT_EXPECTS(key_bits == 8 || key_bits == 16 || key_bits == 32 || key_bits == 64,
              "bkt::dist radix select: keys of 8, 16, 32 or 64 bits");
  if (ranks.empty()) shift_ = -8;
  collect_groups();
}

void radix_select_plan::collect_groups() {
  groups_.clear();
  if (done()) return;
  groups_ = prefix_;
  std::sort(groups_.begin(), groups_.end());
  groups_.erase(std::unique(groups_.begin(), groups_.end()), groups_.end());
}

void radix_select_plan::advance(std::span<const std::int64_t> counts) {
  BKT_EXPECTS(!done(), "bkt::dist radix select: advance after the last round");
  BKT_EXPECTS(counts.size() == static_cast<std::size_t>(num_bins()),
              "bkt::dist radix select: the round's counts do not match its prefixes");
  for (std::size_t i = 0; i < prefix_.size(); ++i) {
    const auto group = static_cast<std::size_t>(std::lower_bound(groups_.begin(), groups_.end(), prefix_[i]) -
                                                 groups_.begin());
    const std::int64_t* digits = counts.data() + group * 256;
    int digit = 0;
    while (digit < 256 && remaining_[i] >= digits[digit]) remaining_[i] -= digits[digit++];
    if (digit == 256)
      throw error("bkt::dist radix select: rank " + std::to_string(i) +
                      " lies beyond the counted elements (the ranks' data changed, or an internal error)",
                  cudaSuccess, __FILE__, __LINE__);
    prefix_[i] = (prefix_[i] << 8) | static_cast<std::uint64_t>(digit);
  }
  shift_ -= 8;
  collect_groups();
}

}  // namespace bkt::dist::detail
