// bkt::ref::dist: the distributed selection of bkt/dist/select.hpp simulated on the CPU, N ranks in
// one process. select_kth and multiselect run the radix select's rounds (bkt/dist/detail/
// select_plan.hpp) with the same bin functor the GPU histogram pass uses, summing the ranks'
// counts as the all-reduce does; top_k takes each rank's k best (bkt::ref::top_k), gathers them in
// rank order and selects the k best of the candidates, as the GPU code does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "bkt/dist/detail/prefix_bins.hpp"
#include "bkt/dist/detail/select_plan.hpp"
#include "bkt/detail/select/select_bits.hpp"
#include "bkt/ref/select.hpp"

namespace bkt::ref::dist {

/// results[i] = the element of global rank ranks[i] over the ranks' data in rank order.
template <class T>
void multiselect(const std::vector<std::vector<T>>& data, std::span<const std::int64_t> ranks, std::span<T> results) {
  namespace plan = bkt::dist::detail;
  std::int64_t total = 0;
  for (const auto& part : data) total += static_cast<std::int64_t>(part.size());
  if (results.size() < ranks.size()) throw std::invalid_argument("ref::dist::multiselect: results too small");
  for (const std::int64_t k : ranks)
    if (k < 0 || k >= total)
      throw std::invalid_argument("ref::dist::multiselect: rank " + std::to_string(k) + " outside [0, " +
                                  std::to_string(total) + ")");
  plan::radix_select_plan rounds(ranks, 8 * static_cast<int>(sizeof(T)));
  while (!rounds.done()) {
    const plan::prefix_digit_bins<T> bins{rounds.prefixes().data(), static_cast<int>(rounds.prefixes().size()),
                                          rounds.shift()};
    std::vector<std::int64_t> counts(static_cast<std::size_t>(rounds.num_bins()), 0);
    for (const auto& part : data)  // each rank's histogram, summed as the all-reduce sums them
      for (const T& x : part)
        if (const int bin = bins(x); bin < rounds.num_bins()) ++counts[static_cast<std::size_t>(bin)];
    rounds.advance(counts);
  }
  for (std::size_t i = 0; i < ranks.size(); ++i)
    results[i] = bkt::detail::from_select_bits<T>(static_cast<bkt::detail::radix_word<T>>(rounds.image(i)));
}

/// The element of global rank k.
template <class T>
T select_kth(const std::vector<std::vector<T>>& data, std::int64_t k) {
  T result{};
  multiselect<T>(data, std::span<const std::int64_t>(&k, 1), std::span<T>(&result, 1));
  return result;
}

/// The k largest (or smallest) over all ranks, sorted, equal keys by global position; either
/// output may be empty.
template <class T, class Index>
void top_k(const std::vector<std::vector<T>>& data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, bool largest = true) {
  top_k_options options;
  options.largest = largest;
  options.sorted = true;
  std::vector<T> candidates;
  std::vector<std::int64_t> positions;
  std::int64_t start = 0;
  for (const auto& part : data) {
    const std::int64_t local_k = std::min<std::int64_t>(k, static_cast<std::int64_t>(part.size()));
    std::vector<T> values(static_cast<std::size_t>(local_k));
    std::vector<std::int64_t> local_positions(static_cast<std::size_t>(local_k));
    ref::top_k<T, std::int64_t>(part, local_k, values, local_positions, options);
    for (std::int64_t j = 0; j < local_k; ++j) {
      candidates.push_back(values[j]);
      positions.push_back(local_positions[j] + start);
    }
    start += static_cast<std::int64_t>(part.size());
  }
  if (k < 0 || k > start) throw std::invalid_argument("ref::dist::top_k: k outside [0, n]");
  std::vector<T> best_values(static_cast<std::size_t>(k));
  std::vector<std::int64_t> best_positions(static_cast<std::size_t>(k));
  ref::top_k_pairs<T, std::int64_t>(candidates, positions, k, best_values, best_positions, options);
  for (std::int64_t j = 0; j < k; ++j) {
    if (!values_out.empty()) values_out[j] = best_values[j];
    if (!indices_out.empty()) indices_out[j] = static_cast<Index>(best_positions[j]);
  }
}

}  // namespace bkt::ref::dist
