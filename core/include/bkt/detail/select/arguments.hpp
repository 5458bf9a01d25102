// Argument checks of the selection calls, shared by the device and host entry points so both
// refuse the same calls with the same message.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "bkt/detail/arguments.hpp"
#include "bkt/select_types.hpp"

namespace bkt::detail::select {

/// 0 <= k < n: a rank.
inline void expect_rank(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) >= n)
    throw_argument(std::string(call) + ": rank " + std::to_string(k) + " is outside [0, " + std::to_string(n) + ")");
}

/// 0 <= k <= n: how many elements to keep.
inline void expect_count(const char* call, std::int64_t k, std::size_t n) {
  if (k < 0 || static_cast<std::uint64_t>(k) > n)
    throw_argument(std::string(call) + ": k = " + std::to_string(k) + " is outside [0, " + std::to_string(n) + "]");
}

/// An output that is either empty (skipped) or holds at least `needed` elements.
template <class U>
void expect_room(const char* call, const char* name, std::span<U> out, std::size_t needed) {
  expect_data(call, name, out);
  if (!out.empty() && out.size() < needed)
    throw_argument(std::string(call) + ": " + name + " holds " + std::to_string(out.size()) +
                   " elements, fewer than the " + std::to_string(needed) + " selected");
}

/// Positions in [0, n) must fit in Index.
template <class Index>
void expect_index_fits(const char* call, std::size_t n) {
  if (n > 0 && static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
    throw_argument(std::string(call) + ": " + std::to_string(n) +
                   " positions do not fit the index type; use std::int64_t indices");
}

/// multiselect: every rank inside the data, room for every result.
template <class T>
void check_multiselect(std::span<const T> data, std::span<const std::int64_t> ranks, std::span<T> results) {
  constexpr const char* call = "multiselect";
  expect_data(call, "data", data);
  expect_data(call, "ranks", ranks);
  expect_capacity(call, "results", results, ranks.size());
  for (const std::int64_t k : ranks) expect_rank(call, k, data.size());
}

/// top_k and top_k_pairs: k against the data, and the two outputs (each empty or of k elements).
template <class T, class U, class V>
void check_top_k(const char* call, std::span<const T> data, std::int64_t k, const char* first_name,
                 std::span<U> first_out, const char* second_name, std::span<V> second_out) {
  expect_data(call, "data", data);
  expect_count(call, k, data.size());
  expect_room(call, first_name, first_out, static_cast<std::size_t>(k));
  expect_room(call, second_name, second_out, static_cast<std::size_t>(k));
}

/// The row length of a rows x cols matrix of `size` elements.
inline std::size_t row_length(const char* call, std::size_t size, std::int64_t rows) {
  if (rows < 0 || (rows == 0 && size != 0) || (rows > 0 && size % static_cast<std::uint64_t>(rows) != 0))
    throw_argument(std::string(call) + ": " + std::to_string(size) + " elements do not make " +
                   std::to_string(rows) + " rows of equal length");
  return rows == 0 ? 0 : size / static_cast<std::size_t>(rows);
}

/// top_k_batched: the matrix shape, k against the row length, both outputs; returns the row length.
template <class T, class Index>
std::size_t check_top_k_batched(std::span<const T> data, std::int64_t rows, std::int64_t k, std::span<T> values_out,
                                std::span<Index> indices_out) {
  constexpr const char* call = "top_k_batched";
  expect_data(call, "data", data);
  const std::size_t cols = row_length(call, data.size(), rows);
  expect_count(call, k, cols);
  const std::size_t selected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(k);
  expect_room(call, "values_out", values_out, selected);
  expect_room(call, "indices_out", indices_out, selected);
  expect_index_fits<Index>(call, cols);
  return cols;
}

inline constexpr int approx_max_candidates = 1024;

inline void expect_approx_options(const approx_select_options& options) {
  if (options.candidates < 1 || options.candidates > approx_max_candidates)
    throw_argument("approx_select: candidates must be in [1, " + std::to_string(approx_max_candidates) + "]");
  if (options.sample_size < 1) throw_argument("approx_select: sample_size must be positive");
}

}  // namespace bkt::detail::select
