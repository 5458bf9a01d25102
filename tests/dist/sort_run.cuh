// Runs one distributed sort on this rank's part of a global input and checks the rank's slice
// against the single-GPU radix sort of the whole input (on this rank's GPU) bit for bit, the
// outputs poisoned past the slice, and the slices of all ranks tiling [0, n) in order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/dist/sort.hpp"
#include "bkt/memory.hpp"
#include "bkt/radix_sort.hpp"
#include "dist_support.hpp"
#include "support/device_run.hpp"

namespace bkt::test::dist {

/// Poisoned elements past the capacity: a write beyond it shows.
inline constexpr std::int64_t sort_margin = 17;

/// The slices of all ranks follow each other and cover n; this one fits the capacity.
inline void expect_tiling(const bkt::dist::sort_result& result, std::int64_t n, std::int64_t capacity) {
  EXPECT_EQ(result.global_total, n);
  EXPECT_LE(result.count, capacity);
  const auto firsts = all_ranks(result.global_first);
  const auto counts = all_ranks(result.count);
  std::int64_t at = 0;
  for (std::size_t r = 0; r < firsts.size(); ++r) {
    EXPECT_EQ(firsts[r], at) << "rank " << r << "'s slice";
    at += counts[r];
  }
  EXPECT_EQ(at, n);
}

/// got[0, count) equals want[first, first + count) bit for bit, and got past count keeps poison.
template <class T>
void expect_slice(const std::vector<T>& want, const std::vector<T>& got, const bkt::dist::sort_result& result,
                  const char* what) {
  if (result.global_first < 0 || result.global_first + result.count > static_cast<std::int64_t>(want.size()) ||
      result.count > static_cast<std::int64_t>(got.size())) {
    ADD_FAILURE() << what << ": slice [" << result.global_first << ", +" << result.count << ") outside the result";
    return;
  }
  const std::span<const T> expected(want.data() + result.global_first, static_cast<std::size_t>(result.count));
  EXPECT_TRUE(bitwise_equal<T>(expected, std::span<const T>(got).first(static_cast<std::size_t>(result.count)))) << what;
  EXPECT_TRUE(poison_intact<T>(std::span<const T>(got).subspan(static_cast<std::size_t>(result.count)))) << what;
}

/// Value i of the pair sorts: distinct and not the identity (support/radix_sort_run.cuh's rule).
template <class Word>
Word pair_value(std::int64_t i) {
  return static_cast<Word>(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull);
}

/// sort_keys (ascending and descending) and sort_indices (int64) of `all` laid out by `sizes`,
/// with base's merge and sampling.
template <class Key>
void check_dist_sort(const std::vector<Key>& all, const std::vector<std::int64_t>& sizes, bkt::dist::workspace& ws,
                     bkt::workspace& single_ws, cudaStream_t stream, const bkt::dist::sort_options& base = {}) {
  auto& c = comm();
  const auto n = static_cast<std::int64_t>(all.size());
  const auto part = my_part(all, sizes, c.rank());
  auto d_part = to_device<Key>(part, stream);
  auto d_all = to_device<Key>(all, stream);
  for (const auto order : {bkt::sort_order::ascending, bkt::sort_order::descending}) {
    bkt::dist::sort_options options = base;
    options.order = order;
    bkt::radix_sort_options single;
    single.order = order;
    const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size(), options);
    const char* what = order == bkt::sort_order::ascending ? "sort_keys ascending" : "sort_keys descending";
    auto want = poisoned_buffer<Key>(n, stream);
    bkt::radix_sort_keys<Key>(d_all.span(), want.span(), single_ws, stream, single);
    auto out = poisoned_buffer<Key>(capacity + sort_margin, stream);
    const auto result = bkt::dist::sort_keys<Key>(c, d_part.span(), out.span().first(capacity), ws, stream, options);
    expect_tiling(result, n, capacity);
    expect_slice<Key>(to_host(want), to_host(out), result, what);
  }
  // Global argsort: keys and int64 global positions, against the single-GPU argsort.
  const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size());
  auto want_keys = poisoned_buffer<Key>(n, stream);
  auto want_positions = poisoned_buffer<std::int64_t>(n, stream);
  bkt::radix_sort_indices<Key, std::int64_t>(d_all.span(), want_keys.span(), want_positions.span(), single_ws, stream);
  auto keys = poisoned_buffer<Key>(capacity + sort_margin, stream);
  auto positions = poisoned_buffer<std::int64_t>(capacity + sort_margin, stream);
  const auto result = bkt::dist::sort_indices<Key, std::int64_t>(c, d_part.span(), keys.span().first(capacity),
                                                                 positions.span().first(capacity), ws, stream, base);
  expect_tiling(result, n, capacity);
  expect_slice<Key>(to_host(want_keys), to_host(keys), result, "sort_indices keys");
  expect_slice<std::int64_t>(to_host(want_positions), to_host(positions), result, "sort_indices positions");
}

/// sort_pairs with values pair_value(global position), against the single-GPU pair sort.
template <class Key, class Value>
void check_dist_sort_pairs(const std::vector<Key>& all, const std::vector<std::int64_t>& sizes,
                           bkt::dist::workspace& ws, bkt::workspace& single_ws, cudaStream_t stream,
                           const bkt::dist::sort_options& options = {}) {
  auto& c = comm();
  const auto n = static_cast<std::int64_t>(all.size());
  std::vector<Value> values(all.size());
  for (std::int64_t i = 0; i < n; ++i) values[i] = pair_value<Value>(i);
  auto d_keys = to_device<Key>(my_part(all, sizes, c.rank()), stream);
  auto d_values = to_device<Value>(my_part(values, sizes, c.rank()), stream);
  auto d_all = to_device<Key>(all, stream);
  auto d_all_values = to_device<Value>(values, stream);
  auto want_keys = poisoned_buffer<Key>(n, stream);
  auto want_values = poisoned_buffer<Value>(n, stream);
  bkt::radix_sort_pairs<Key, Value>(d_all.span(), d_all_values.span(), want_keys.span(), want_values.span(), single_ws,
                                    stream);
  const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size());
  auto keys = poisoned_buffer<Key>(capacity + sort_margin, stream);
  auto out_values = poisoned_buffer<Value>(capacity + sort_margin, stream);
  const auto result = bkt::dist::sort_pairs<Key, Value>(c, d_keys.span(), d_values.span(), keys.span().first(capacity),
                                                        out_values.span().first(capacity), ws, stream, options);
  expect_tiling(result, n, capacity);
  expect_slice<Key>(to_host(want_keys), to_host(keys), result, "sort_pairs keys");
  expect_slice<Value>(to_host(want_values), to_host(out_values), result, "sort_pairs values");
}

}  // namespace bkt::test::dist
