// The host-side bookkeeping of the distributed radix select, shared by the GPU code
// (dist/src/select/) and the CPU simulation (bkt/dist/ref/select.hpp). Plain C++.
//
// Every requested rank k is found digit by digit, most significant first, over the selection image
// (8 bits per round: 4 rounds for 32-bit types, 8 for 64-bit). A round counts, over all ranks
// together, the 256 digits of the elements that share the prefix found so far; the digit holding
// the k-th element extends the prefix and k becomes its place among the elements of that digit.
// Requests that share a prefix share its histogram, so one pass serves them all.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bkt::dist::detail {

class radix_select_plan {
 public:
  /// ranks: global ranks in [0, total), any order, repeats allowed; key_bits 32 or 64.
  radix_select_plan(std::span<const std::int64_t> ranks, int key_bits);

  bool done() const { return shift_ < 0; }
  /// This round's digit is (image >> shift) & 255.
  int shift() const { return shift_; }
  /// The distinct prefixes this round counts, ascending: prefix g owns bins [256 g, 256 g + 256).
  const std::vector<std::uint64_t>& prefixes() const { return groups_; }
  int num_bins() const { return static_cast<int>(groups_.size()) * 256; }

  /// Takes the round's counts summed over all ranks (num_bins() of them) and moves to the next
  /// round. Throws bkt::error when a rank falls outside its prefix's count (inconsistent counts).
  void advance(std::span<const std::int64_t> counts);

  /// After done(): the selection image of request i.
  std::uint64_t image(std::size_t i) const { return prefix_[i]; }
  std::size_t size() const { return prefix_.size(); }

 private:
  void collect_groups();

  int shift_;
  std::vector<std::uint64_t> prefix_;     // per request: the bits found so far
  std::vector<std::int64_t> remaining_;   // per request: its rank among the elements of that prefix
  std::vector<std::uint64_t> groups_;     // distinct prefixes, ascending
};

}  // namespace bkt::dist::detail
