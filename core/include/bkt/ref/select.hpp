// bkt::ref: selection's CPU reference and CPU path, as bkt/select.hpp defines it. Every element is
// ranked by the pair (select_bits image, input position): the image gives the selection order
// (NaN largest, all NaNs equal, -0.0 below +0.0), the position breaks ties, so "rank k" always names
// one element of the input. std::nth_element and std::partial_sort do the work.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bkt/detail/select/select_bits.hpp"
#include "bkt/select.hpp"

namespace bkt::ref {
namespace select_detail {

/// (image, position); comparing these pairs is the selection order with ties by position.
template <class T>
using ranked = std::pair<detail::radix_word<T>, std::int64_t>;

/// Each element's (image, position); `largest` complements the image, so ascending pairs list the
/// largest first and still break ties by the smaller position.
template <class T>
std::vector<ranked<T>> rank_pairs(std::span<const T> data, bool largest = false) {
  std::vector<ranked<T>> pairs(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto image = detail::select_bits(data[i]);
    pairs[i] = {largest ? static_cast<detail::radix_word<T>>(~image) : image, static_cast<std::int64_t>(i)};
  }
  return pairs;
}

inline void expect_rank(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) >= n)
    throw std::invalid_argument(std::string("ref::") + call + ": rank " + std::to_string(k) + " outside [0, " +
                                std::to_string(n) + ")");
}

inline void expect_k(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) > n)
    throw std::invalid_argument(std::string("ref::") + call + ": k = " + std::to_string(k) + " outside [0, " +
                                std::to_string(n) + "]");
}

/// A non-empty output must hold `needed` elements.
template <class U>
void expect_room(const char* call, const char* name, std::span<U> out, std::size_t needed) {
  if (!out.empty() && out.size() < needed)
    throw std::invalid_argument(std::string("ref::") + call + ": " + name + " holds " + std::to_string(out.size()) +
                                " elements, fewer than " + std::to_string(needed));
}

/// Positions below `n` must fit in Index.
template <class Index>
void expect_index_fits(const char* call, std::size_t n) {
  if (n > 0 && static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
    throw std::invalid_argument(std::string("ref::") + call + ": positions up to " + std::to_string(n - 1) +
                                " do not fit the index type");
}

/// The input positions of the k first elements (largest or smallest), in that order.
template <class T>
std::vector<std::int64_t> top_k_positions(std::span<const T> data, std::int64_t k, bool largest) {
  auto pairs = rank_pairs(data, largest);
  std::partial_sort(pairs.begin(), pairs.begin() + k, pairs.end());
  std::vector<std::int64_t> positions(static_cast<std::size_t>(k));
  for (std::size_t j = 0; j < positions.size(); ++j) positions[j] = pairs[j].second;
  return positions;
}

}  // namespace select_detail

/// The element of rank k (0 <= k < data.size()); among equal elements (NaNs of different bits) the
/// one at the k-th place when ties go by position.
template <class T>
T select_kth(std::span<const T> data, std::int64_t k) {
  select_detail::expect_rank("select_kth", k, data.size());
  auto pairs = select_detail::rank_pairs(data);
  std::nth_element(pairs.begin(), pairs.begin() + k, pairs.end());
  return data[static_cast<std::size_t>(pairs[static_cast<std::size_t>(k)].second)];
}

/// results[i] = the element of rank ranks[i].
template <class T>
void multiselect(std::span<const T> data, std::span<const std::int64_t> ranks, std::span<T> results) {
  if (results.size() < ranks.size())
    throw std::invalid_argument("ref::multiselect: results hold " + std::to_string(results.size()) +
                                " elements, fewer than the " + std::to_string(ranks.size()) + " ranks");
  for (const std::int64_t k : ranks) select_detail::expect_rank("multiselect", k, data.size());
  auto pairs = select_detail::rank_pairs(data);
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t i = 0; i < ranks.size(); ++i)
    results[i] = data[static_cast<std::size_t>(pairs[static_cast<std::size_t>(ranks[i])].second)];
}

/// The ranks [first, last] that the elements equal to `value` occupy: first = how many are smaller,
/// last = how many are smaller or equal, minus one (last = first - 1 when none is equal).
template <class T>
std::pair<std::int64_t, std::int64_t> rank_range(std::span<const T> data, const T& value) {
  const auto image = detail::select_bits(value);
  std::int64_t smaller = 0, equal = 0;
  for (const T& x : data) {
    const auto other = detail::select_bits(x);
    smaller += other < image;
    equal += other == image;
  }
  return {smaller, smaller + equal - 1};
}

/// The exact answer in approx_select's form: rank_error 0.
template <class T>
approx_selection<T> approx_select(std::span<const T> data, std::int64_t k) {
  const T value = select_kth<T>(data, k);
  const auto [first, last] = rank_range<T>(data, value);
  return {value, first, last, 0};
}

/// The k largest (options.largest) or smallest elements, always in sorted order, equal keys by
/// position; values_out or indices_out may be empty.
template <class T, class Index>
void top_k(std::span<const T> data, std::int64_t k, std::span<T> values_out, std::span<Index> indices_out,
           const top_k_options& options = {}) {
  select_detail::expect_k("top_k", k, data.size());
  select_detail::expect_room("top_k", "values_out", values_out, static_cast<std::size_t>(k));
  select_detail::expect_room("top_k", "indices_out", indices_out, static_cast<std::size_t>(k));
  select_detail::expect_index_fits<Index>("top_k", data.size());
  const auto positions = select_detail::top_k_positions(data, k, options.largest);
  for (std::size_t j = 0; j < positions.size(); ++j) {
    if (!values_out.empty()) values_out[j] = data[static_cast<std::size_t>(positions[j])];
    if (!indices_out.empty()) indices_out[j] = static_cast<Index>(positions[j]);
  }
}

/// top_k on keys, carrying values[position] instead of the position; either output may be empty.
template <class T, class Value>
void top_k_pairs(std::span<const T> keys, std::span<const Value> values, std::int64_t k, std::span<T> keys_out,
                 std::span<Value> values_out, const top_k_options& options = {}) {
  if (values.size() != keys.size())
    throw std::invalid_argument("ref::top_k_pairs: " + std::to_string(keys.size()) + " keys but " +
                                std::to_string(values.size()) + " values");
  select_detail::expect_k("top_k_pairs", k, keys.size());
  select_detail::expect_room("top_k_pairs", "keys_out", keys_out, static_cast<std::size_t>(k));
  select_detail::expect_room("top_k_pairs", "values_out", values_out, static_cast<std::size_t>(k));
  const auto positions = select_detail::top_k_positions(keys, k, options.largest);
  for (std::size_t j = 0; j < positions.size(); ++j) {
    if (!keys_out.empty()) keys_out[j] = keys[static_cast<std::size_t>(positions[j])];
    if (!values_out.empty()) values_out[j] = values[static_cast<std::size_t>(positions[j])];
  }
}

/// top_k of each row of a rows x cols row-major matrix (cols = data.size() / rows): row r's answer
/// in [r * k, (r + 1) * k) of each non-empty output, indices within the row.
template <class T, class Index>
void top_k_batched(std::span<const T> data, std::int64_t rows, std::int64_t k, std::span<T> values_out,
                   std::span<Index> indices_out, const top_k_options& options = {}) {
  if (rows < 0 || (rows == 0 && !data.empty()) || (rows > 0 && data.size() % static_cast<std::uint64_t>(rows) != 0))
    throw std::invalid_argument("ref::top_k_batched: " + std::to_string(data.size()) + " elements are not " +
                                std::to_string(rows) + " equal rows");
  const std::size_t cols = rows == 0 ? 0 : data.size() / static_cast<std::size_t>(rows);
  if (rows > 0) select_detail::expect_k("top_k_batched", k, cols);
  if (k < 0) throw std::invalid_argument("ref::top_k_batched: negative k");
  const std::size_t row_k = static_cast<std::size_t>(k);
  select_detail::expect_room("top_k_batched", "values_out", values_out, static_cast<std::size_t>(rows) * row_k);
  select_detail::expect_room("top_k_batched", "indices_out", indices_out, static_cast<std::size_t>(rows) * row_k);
  select_detail::expect_index_fits<Index>("top_k_batched", cols);
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
    const auto row_values = values_out.empty() ? values_out : values_out.subspan(r * row_k, row_k);
    const auto row_indices = indices_out.empty() ? indices_out : indices_out.subspan(r * row_k, row_k);
    top_k<T, Index>(data.subspan(r * cols, cols), k, row_values, row_indices, options);
  }
}

}  // namespace bkt::ref
