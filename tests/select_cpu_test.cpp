// Selection without a GPU: the reference (bkt/ref/select.hpp) against a brute-force stable sort on
// every generator, the documented order and tie policy on hand-written cases, argument checks, the
// host API's CPU path, and the two generators made for selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bkt/detail/select/baselines.hpp"
#include "bkt/detail/select/select_bits.hpp"
#include "bkt/error.hpp"
#include "bkt/ref/select.hpp"
#include "bkt/select.hpp"
#include "support/checks.hpp"
#include "support/error_message.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;
using bkt::host::backend;

/// All positions, stably sorted by the selection image: ascending, or descending for `largest`.
template <class T>
std::vector<std::int64_t> brute_order(const std::vector<T>& data, bool largest) {
  std::vector<std::int64_t> order(data.size());
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    const auto x = bkt::detail::select_bits(data[a]), y = bkt::detail::select_bits(data[b]);
    return largest ? x > y : x < y;
  });
  return order;
}

/// 0, 1, a small rank, n/2, n-1 (and n for top_k), those that exist.
std::vector<std::int64_t> k_classes(std::int64_t n, bool include_n) {
  std::vector<std::int64_t> ks;
  for (const std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, n / 2, n - 1, n})
    if (k >= 0 && (k < n || (include_n && k == n)) && std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
  return ks;
}

template <class T>
std::vector<T> gather(const std::vector<T>& data, const std::vector<std::int64_t>& order, std::size_t count) {
  std::vector<T> out(count);
  for (std::size_t j = 0; j < count; ++j) out[j] = data[static_cast<std::size_t>(order[j])];
  return out;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
class select_reference : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(select_reference, select_types);

TYPED_TEST(select_reference, matches_a_stable_sort_on_every_generator) {
  using T = TypeParam;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const std::int64_t n : {0, 1, 2, 33, 1025, 4097})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
      const std::span<const T> in(data);
      const auto ascending = brute_order(data, false), descending = brute_order(data, true);
      const auto sorted = gather(data, ascending, data.size());

      const auto ks = k_classes(n, false);
      for (const std::int64_t k : ks) {
        SCOPED_TRACE("k=" + std::to_string(k));
        const T got = bkt::ref::select_kth<T>(in, k);
        EXPECT_TRUE(same_bits(got, sorted[k]));
        const auto [first, last] = bkt::ref::rank_range<T>(in, got);
        const auto image = bkt::detail::select_bits(got);
        EXPECT_TRUE(first <= k && k <= last);
        EXPECT_TRUE(first == 0 || bkt::detail::select_bits(sorted[first - 1]) < image);
        EXPECT_TRUE(last == n - 1 || bkt::detail::select_bits(sorted[last + 1]) > image);
        EXPECT_EQ(bkt::detail::select_bits(sorted[first]), image);
        EXPECT_EQ(bkt::detail::select_bits(sorted[last]), image);
        const auto approx = bkt::ref::approx_select<T>(in, k);
        EXPECT_TRUE(same_bits(approx.value, sorted[k]));
        EXPECT_EQ(approx.rank_first, first);
        EXPECT_EQ(approx.rank_last, last);
        EXPECT_EQ(approx.rank_error, 0);
      }
      // Many ranks at once: unsorted, repeated.
      std::vector<std::int64_t> ranks(ks.rbegin(), ks.rend());
      ranks.insert(ranks.end(), ks.begin(), ks.end());
      std::vector<T> results(ranks.size());
      bkt::ref::multiselect<T>(in, ranks, results);
      for (std::size_t i = 0; i < ranks.size(); ++i) EXPECT_TRUE(same_bits(results[i], sorted[ranks[i]])) << i;

      for (const bool largest : {true, false}) {
        const auto& order = largest ? descending : ascending;
        const bkt::top_k_options options{.largest = largest, .sorted = true};
        for (const std::int64_t k : k_classes(n, true)) {
          SCOPED_TRACE("top_k k=" + std::to_string(k) + (largest ? " largest" : " smallest"));
          std::vector<T> values(k);
          std::vector<std::uint32_t> indices32(k);
          std::vector<std::int64_t> indices64(k);
          bkt::ref::top_k<T, std::uint32_t>(in, k, values, indices32, options);
          bkt::ref::top_k<T, std::int64_t>(in, k, {}, indices64, options);
          EXPECT_TRUE(bitwise_equal<T>(gather(data, order, k), values));
          EXPECT_EQ(indices64, std::vector<std::int64_t>(order.begin(), order.begin() + k));
          EXPECT_TRUE(std::equal(indices32.begin(), indices32.end(), indices64.begin()));
          // Pairs: the payload of position i is 3i + 1.
          std::vector<std::uint64_t> payload(data.size()), payload_out(k);
          for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = 3 * i + 1;
          std::vector<T> keys_out(k);
          bkt::ref::top_k_pairs<T, std::uint64_t>(in, payload, k, keys_out, payload_out, options);
          EXPECT_TRUE(bitwise_equal<T>(values, keys_out));
          for (std::int64_t j = 0; j < k; ++j)
            EXPECT_EQ(payload_out[j], 3 * static_cast<std::uint64_t>(indices64[j]) + 1);
        }
      }
      if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(select_reference, batched_rows_match_top_k_of_each_row) {
  using T = TypeParam;
  const std::uint64_t s = seed();
  const auto gens = generators<T>();
  for (const std::int64_t rows : {1, 3, 7})
    for (const std::int64_t cols : {1, 33, 100})
      for (const auto& gen : gens) {
        SCOPED_TRACE(gen.name + " rows=" + std::to_string(rows) + " cols=" + std::to_string(cols));
        const auto data = gen.make(rows * cols, s + static_cast<std::uint64_t>(rows * cols));
        for (const std::int64_t k : k_classes(cols, true)) {
          const bkt::top_k_options options{.largest = k % 2 == 0};
          std::vector<T> values(rows * k);
          std::vector<std::uint32_t> indices(rows * k);
          bkt::ref::top_k_batched<T, std::uint32_t>(data, rows, k, values, indices, options);
          for (std::int64_t r = 0; r < rows; ++r) {
            const std::vector<T> row(data.begin() + r * cols, data.begin() + (r + 1) * cols);
            const auto order = brute_order(row, options.largest);
            EXPECT_TRUE(bitwise_equal<T>(gather(row, order, k), std::span<const T>(values).subspan(r * k, k)));
            for (std::int64_t j = 0; j < k; ++j) EXPECT_EQ(static_cast<std::int64_t>(indices[r * k + j]), order[j]);
          }
        }
        if (::testing::Test::HasFailure()) return;
      }
}

// ---- the documented order: NaN largest and all NaNs equal, -0.0 < +0.0, ties by position ----

template <class T>
class select_float_policy : public ::testing::Test {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(select_float_policy, float_types);

TYPED_TEST(select_float_policy, nan_is_largest_and_negative_zero_ranks_below_positive_zero) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN(), inf = L::infinity(), denormal = L::denorm_min();
  //                          0     1    2      3    4          5     6     7      8         9
  const std::vector<T> data = {T(1), nan, -T(0), inf, -denormal, T(0), -nan, T(-1), denormal, -inf};
  // Ascending: -inf, -1, -denormal, -0.0, +0.0, denormal, 1, inf, then the NaNs by position.
  const std::vector<std::int64_t> want = {9, 7, 4, 2, 5, 8, 0, 3, 1, 6};
  for (std::int64_t k = 0; k < 10; ++k)
    EXPECT_TRUE(same_bits(bkt::ref::select_kth<T>(data, k), data[want[k]])) << "rank " << k;

  std::vector<T> values(4);
  std::vector<std::int64_t> indices(4);
  bkt::ref::top_k<T, std::int64_t>(data, 4, values, indices, {.largest = true});
  EXPECT_EQ(indices, (std::vector<std::int64_t>{1, 6, 3, 0}));  // +NaN, -NaN (equal: by position), inf, 1
  EXPECT_TRUE(same_bits(values[1], -nan));
  bkt::ref::top_k<T, std::int64_t>(data, 4, values, indices, {.largest = false});
  EXPECT_EQ(indices, (std::vector<std::int64_t>{9, 7, 4, 2}));
  EXPECT_TRUE(std::signbit(values[3]) && values[3] == T(0));

  using range = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(bkt::ref::rank_range<T>(data, -T(0)), (range{3, 3}));
  EXPECT_EQ(bkt::ref::rank_range<T>(data, T(0)), (range{4, 4}));
  EXPECT_EQ(bkt::ref::rank_range<T>(data, nan), (range{8, 9}));
  EXPECT_EQ(bkt::ref::rank_range<T>(data, -nan), (range{8, 9}));
  EXPECT_EQ(bkt::ref::rank_range<T>(data, T(2)), (range{7, 6})) << "absent: last = first - 1";
  EXPECT_EQ(bkt::ref::rank_range<T>(data, -inf), (range{0, 0}));

  const std::vector<T> zeros = {T(0), -T(0)};
  bkt::ref::top_k<T, std::int64_t>(zeros, 1, std::span<T>(values).first(1), std::span<std::int64_t>(indices).first(1),
                                   {.largest = false});
  EXPECT_EQ(indices[0], 1);
  bkt::ref::top_k<T, std::int64_t>(zeros, 1, std::span<T>(values).first(1), std::span<std::int64_t>(indices).first(1));
  EXPECT_EQ(indices[0], 0);
}

TYPED_TEST(select_float_policy, nans_of_any_payload_tie_and_the_smaller_position_wins) {
  using T = TypeParam;
  using word = bkt::detail::radix_word<T>;
  constexpr int bits = 8 * sizeof(T);
  const auto exponent = static_cast<word>(sizeof(T) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
  const T quiet_payload = std::bit_cast<T>(static_cast<word>(exponent | (word{1} << (bits == 32 ? 22 : 51)) | 5));
  const T negative_payload = std::bit_cast<T>(static_cast<word>(exponent | (word{1} << (bits - 1)) | 0x1234));
  const T denormal = std::numeric_limits<T>::denorm_min();
  const std::vector<T> data = {T(3), negative_payload, denormal, quiet_payload, -denormal};
  std::vector<T> values(2);
  std::vector<std::uint32_t> indices(2);
  bkt::ref::top_k<T, std::uint32_t>(data, 2, values, indices);
  EXPECT_EQ(indices, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_TRUE(same_bits(values[0], negative_payload) && same_bits(values[1], quiet_payload));
  bkt::ref::top_k<T, std::uint32_t>(data, 1, values, indices);  // the tie straddles k: position 1 wins
  EXPECT_EQ(indices[0], 1u);
  EXPECT_TRUE(same_bits(bkt::ref::select_kth<T>(data, 3), negative_payload));
  EXPECT_TRUE(same_bits(bkt::ref::select_kth<T>(data, 4), quiet_payload));
  EXPECT_TRUE(same_bits(bkt::ref::select_kth<T>(data, 0), -denormal));
  EXPECT_TRUE(same_bits(bkt::ref::select_kth<T>(data, 1), denormal));
}

TEST(select_policy, integers_compare_numerically_and_ties_go_by_position) {
  const std::vector<std::int32_t> data = {3, -1, 3, 7, -1, 3, std::numeric_limits<std::int32_t>::min()};
  std::vector<std::int32_t> values(3);
  std::vector<std::int64_t> indices(3);
  bkt::ref::top_k<std::int32_t, std::int64_t>(data, 3, values, indices);
  EXPECT_EQ(values, (std::vector<std::int32_t>{7, 3, 3}));
  EXPECT_EQ(indices, (std::vector<std::int64_t>{3, 0, 2}));  // the third 3 (position 5) loses the tie
  bkt::ref::top_k<std::int32_t, std::int64_t>(data, 3, values, indices, {.largest = false});
  EXPECT_EQ(values, (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), -1, -1}));
  EXPECT_EQ(indices, (std::vector<std::int64_t>{6, 1, 4}));
  EXPECT_EQ(bkt::ref::select_kth<std::int32_t>(data, 3), 3);
  EXPECT_EQ(bkt::ref::rank_range<std::int32_t>(data, 3), (std::pair<std::int64_t, std::int64_t>{3, 5}));
  const std::vector<std::uint64_t> big = {~0ull, 0, ~0ull - 1};
  EXPECT_EQ(bkt::ref::select_kth<std::uint64_t>(big, 2), ~0ull);
}

// ---- argument checks ----

TEST(select_arguments, reference_refuses_bad_ranks_and_sizes) {
  const std::vector<float> data(10, 1.0f);
  const std::span<const float> in(data);
  std::vector<float> values(10);
  std::vector<std::int64_t> indices(10);
  EXPECT_THROW(bkt::ref::select_kth<float>(in, -1), std::invalid_argument);
  EXPECT_THROW(bkt::ref::select_kth<float>(in, 10), std::invalid_argument);
  EXPECT_THROW(bkt::ref::select_kth<float>({}, 0), std::invalid_argument);
  EXPECT_THROW(bkt::ref::approx_select<float>(in, 10), std::invalid_argument);
  const std::vector<std::int64_t> ranks = {0, 10};
  EXPECT_THROW(bkt::ref::multiselect<float>(in, ranks, values), std::invalid_argument);
  EXPECT_THROW(bkt::ref::multiselect<float>(in, std::vector<std::int64_t>{0, 1}, std::span<float>(values).first(1)),
               std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k<float, std::int64_t>(in, -1, values, indices)), std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k<float, std::int64_t>(in, 11, values, indices)), std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k<float, std::int64_t>(in, 3, std::span<float>(values).first(2), {})),
               std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k<float, std::int64_t>(in, 3, {}, std::span<std::int64_t>(indices).first(2))),
               std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k_pairs<float, std::int64_t>(in, std::span<const std::int64_t>(indices).first(9), 1,
                                                           values, indices)),
               std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k_batched<float, std::int64_t>(in, 3, 1, values, indices)), std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k_batched<float, std::int64_t>(in, -2, 1, values, indices)), std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k_batched<float, std::int64_t>(in, 2, 6, values, indices)), std::invalid_argument);
  EXPECT_THROW((bkt::ref::top_k_batched<float, std::int64_t>(in, 2, 4, std::span<float>(values).first(7), {})),
               std::invalid_argument);
  EXPECT_NO_THROW((bkt::ref::top_k_batched<float, std::int64_t>(in, 2, 5, values, indices)));
}

TEST(select_arguments, host_api_refuses_bad_calls_with_a_message) {
  const std::vector<double> data(10, 2.0);
  const std::span<const double> in(data);
  std::vector<double> values(10);
  std::vector<std::uint32_t> indices(10);
  const auto cpu = backend::cpu;
  EXPECT_ERROR_MENTIONS(bkt::host::select_kth<double>(in, 10, {}, cpu), "select_kth: rank 10 is outside [0, 10)");
  EXPECT_ERROR_MENTIONS(bkt::host::select_kth<double>(in, -1, {}, cpu), "rank -1");
  EXPECT_ERROR_MENTIONS(bkt::host::select_kth<double>({}, 0, {}, cpu), "outside [0, 0)");
  EXPECT_ERROR_MENTIONS(bkt::host::approx_select<double>(in, 12, {}, cpu), "approx_select: rank 12");
  EXPECT_ERROR_MENTIONS(bkt::host::approx_select<double>(in, 1, {.candidates = 0}, cpu), "candidates");
  const std::vector<std::int64_t> ranks = {3, 10};
  EXPECT_ERROR_MENTIONS(bkt::host::multiselect<double>(in, ranks, values, {}, cpu), "multiselect: rank 10");
  EXPECT_ERROR_MENTIONS(bkt::host::multiselect<double>(in, ranks, std::span<double>(values).first(1), {}, cpu),
                        "results holds 1");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k<double, std::uint32_t>(in, 11, values, indices, {}, cpu)),
                        "top_k: k = 11 is outside [0, 10]");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k<double, std::uint32_t>(in, -1, values, indices, {}, cpu)), "k = -1");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k<double, std::uint32_t>(in, 4, std::span<double>(values).first(3), indices,
                                                                 {}, cpu)),
                        "values_out holds 3");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k<double, std::uint32_t>(in, 4, {}, std::span<std::uint32_t>(indices).first(2),
                                                                 {}, cpu)),
                        "indices_out holds 2");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k_batched<double, std::uint32_t>(in, 3, 1, values, indices, {}, cpu)),
                        "10 elements do not make 3 rows");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k_batched<double, std::uint32_t>(in, 0, 1, values, indices, {}, cpu)),
                        "do not make 0 rows");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k_batched<double, std::uint32_t>(in, 2, 6, values, indices, {}, cpu)),
                        "k = 6 is outside [0, 5]");
  EXPECT_ERROR_MENTIONS((bkt::host::top_k_batched<double, std::uint32_t>(in, 5, 2, values,
                                                                         std::span<std::uint32_t>(indices).first(9),
                                                                         {}, cpu)),
                        "indices_out holds 9");
  // Positions past 2^32 - 1 cannot be uint32 indices: refused before the data is read.
  const std::span<const double> huge(reinterpret_cast<const double*>(256), (std::size_t{1} << 32) + 1);
  EXPECT_ERROR_MENTIONS((bkt::host::top_k<double, std::uint32_t>(huge, 1, {}, indices, {}, cpu)), "index type");
}

// The bench baselines of bkt/detail/select/baselines.hpp that keep no positions have no top_k: they
// refuse it before any device work (so without a GPU), rather than running another algorithm.
TEST(select_arguments, splitter_search_baselines_refuse_top_k) {
  using bkt::detail::select_baseline;
  const std::vector<float> data(10, 2.0f);
  const std::vector<std::uint32_t> carried(10, 7u);
  std::vector<float> values(10);
  std::vector<std::int64_t> indices(10);
  std::vector<std::uint32_t> carried_out(10);
  bkt::workspace ws;
  for (const auto baseline : {select_baseline::sample_select, select_baseline::quickselect,
                              select_baseline::bucket_select}) {
    SCOPED_TRACE(static_cast<int>(baseline));
    EXPECT_ERROR_MENTIONS((bkt::detail::top_k_baseline<float, std::int64_t>(data, 3, values, indices, ws, nullptr,
                                                                            baseline, {})),
                          "top_k: no top_k for this baseline");
    EXPECT_ERROR_MENTIONS((bkt::detail::top_k_pairs_baseline<float, std::uint32_t>(data, carried, 3, values,
                                                                                   carried_out, ws, nullptr, baseline,
                                                                                   {})),
                          "top_k_pairs: no top_k for this baseline");
  }
}

// ---- the host API's CPU path is the reference ----

TYPED_TEST(select_reference, host_api_on_cpu_matches_the_reference) {
  using T = TypeParam;
  const std::uint64_t s = seed();
  for (const std::int64_t n : {0, 1, 1025, 20001})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
      const std::span<const T> in(data);
      const auto ks = k_classes(n, false);
      for (const std::int64_t k : ks) {
        EXPECT_TRUE(same_bits(bkt::host::select_kth<T>(in, k, {}, backend::cpu), bkt::ref::select_kth<T>(in, k)));
        const auto got = bkt::host::approx_select<T>(in, k, {}, backend::cpu);
        const auto want = bkt::ref::approx_select<T>(in, k);
        EXPECT_TRUE(same_bits(got.value, want.value));
        EXPECT_EQ(got.rank_first, want.rank_first);
        EXPECT_EQ(got.rank_last, want.rank_last);
        EXPECT_EQ(got.rank_error, 0);
      }
      std::vector<T> want_many(ks.size()), got_many(ks.size());
      bkt::ref::multiselect<T>(in, ks, want_many);
      bkt::host::multiselect<T>(in, ks, got_many, {}, backend::cpu);
      EXPECT_TRUE(bitwise_equal<T>(want_many, got_many));
      for (const std::int64_t k : k_classes(n, true)) {
        const bkt::top_k_options options{.largest = k % 2 == 1, .sorted = true};
        std::vector<T> want_values(k), got_values(k);
        std::vector<std::int64_t> want_indices(k), got_indices(k);
        bkt::ref::top_k<T, std::int64_t>(in, k, want_values, want_indices, options);
        bkt::host::top_k<T, std::int64_t>(in, k, got_values, got_indices, options, backend::cpu);
        EXPECT_TRUE(bitwise_equal<T>(want_values, got_values));
        EXPECT_EQ(want_indices, got_indices);
      }
      if (n > 0) {  // n rows of one element, then one row of n
        std::vector<T> got_values(n);
        std::vector<std::uint32_t> got_indices(n);
        bkt::host::top_k_batched<T, std::uint32_t>(in, n, 1, got_values, got_indices, {}, backend::cpu);
        EXPECT_TRUE(bitwise_equal<T>(data, got_values));
        EXPECT_EQ(got_indices, std::vector<std::uint32_t>(n, 0));
        std::vector<std::uint32_t> want_indices(n);
        bkt::ref::top_k<T, std::uint32_t>(in, n, {}, want_indices);
        bkt::host::top_k_batched<T, std::uint32_t>(in, 1, n, {}, got_indices, {}, backend::cpu);
        EXPECT_EQ(got_indices, want_indices);
      }
      if (::testing::Test::HasFailure()) return;
    }
}

TEST(select_host, top_k_of_nothing_writes_nothing) {
  const std::vector<float> data = {3.0f, 1.0f, 2.0f};
  std::vector<float> values(3, -7.0f);
  std::vector<std::int64_t> indices(3, -7);
  bkt::host::top_k<float, std::int64_t>(data, 0, values, indices, {}, backend::cpu);
  bkt::host::top_k<float, std::int64_t>(data, 2, {}, {}, {}, backend::cpu);
  bkt::host::top_k<float, std::int64_t>({}, 0, {}, {}, {}, backend::cpu);
  bkt::host::top_k_batched<float, std::int64_t>(data, 3, 0, values, indices, {}, backend::cpu);
  bkt::host::top_k_batched<float, std::int64_t>({}, 0, 0, values, indices, {}, backend::cpu);
  EXPECT_EQ(values, std::vector<float>(3, -7.0f));
  EXPECT_EQ(indices, std::vector<std::int64_t>(3, -7));
  bkt::host::top_k<float, std::int64_t>(data, 2, values, {}, {}, backend::cpu);  // values alone
  EXPECT_EQ(values, (std::vector<float>{3.0f, 2.0f, -7.0f}));
  bkt::host::multiselect<float>(data, {}, {}, {}, backend::cpu);
}

// ---- the generators made for selection ----

template <class T>
generator<T> generator_named(const std::string& name) {
  const auto gens = generators<T>();
  const auto it = std::find_if(gens.begin(), gens.end(), [&](const auto& g) { return g.name == name; });
  EXPECT_NE(it, gens.end()) << name;
  return it == gens.end() ? gens.front() : *it;
}

TYPED_TEST(select_reference, organ_pipe_rises_then_falls) {
  using T = TypeParam;
  for (const std::int64_t n : {1, 2, 33, 10000}) {
    const auto data = generator_named<T>("organ_pipe").make(n, seed());
    ASSERT_EQ(static_cast<std::int64_t>(data.size()), n);
    const auto middle = data.begin() + (n + 1) / 2;
    EXPECT_TRUE(std::is_sorted(data.begin(), middle));
    EXPECT_TRUE(std::is_sorted(middle, data.end(), [](T a, T b) { return b < a; }));
    EXPECT_TRUE(std::equal(data.begin(), data.begin() + n / 2, data.rbegin())) << "symmetric";
    if (n == 10000) {
      EXPECT_LT(data.front(), data[n / 2]);
    }
  }
}

TYPED_TEST(select_reference, sampling_adversary_piles_duplicates_on_the_median) {
  using T = TypeParam;
  const std::int64_t n = 100003;
  const auto data = generator_named<T>("sampling_adversary").make(n, seed());
  const T median = bkt::ref::select_kth<T>(data, n / 2);
  const auto [first, last] = bkt::ref::rank_range<T>(data, median);
  EXPECT_GT(last - first + 1, n / 5) << "a quarter of the elements equal the median";
  EXPECT_LT(first, n / 2 - n / 20);
  EXPECT_GT(last, n / 2 + n / 20);
  // Four tight clusters hold most of the rest: few distinct values overall.
  std::vector<T> distinct = data;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_LT(distinct.size(), data.size() / 5);
}

}  // namespace
