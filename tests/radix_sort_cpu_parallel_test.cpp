// The host API's CPU path (the parallel radix sort, core/src/radix_sort/cpu_sort.hpp) against
// bkt::ref's std::stable_sort, bit for bit: every key type, the adversarial generators, both
// orders, bit ranges, keys alone, pairs and argsort, in place and into outputs at every alignment.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bkt/radix_sort.hpp"
#include "bkt/ref/radix_sort.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace {

using bkt::host::backend;

/// The edges of a tile and of the insertion sort, and 140001: the smallest sizes that run on two
/// threads (65536 keys a thread at least). Larger inputs run in the tests below that name them.
std::vector<std::int64_t> moderate_sizes() {
  std::vector<std::int64_t> sizes = {0, 1, 2, 31, 33, 1025, 4097, 16384 + 3, 140001};
  if (bkt::test::quick_mode()) sizes = {0, 1, 33, 4097, 140001};
  return sizes;
}

bkt::radix_sort_options options_for(bool descending, int begin_bit = 0, int end_bit = -1) {
  bkt::radix_sort_options options;
  options.order = descending ? bkt::sort_order::descending : bkt::sort_order::ascending;
  options.begin_bit = begin_bit;
  options.end_bit = end_bit;
  return options;
}

template <class Key>
void expect_keys_match(const std::vector<Key>& in, const bkt::radix_sort_options& options) {
  std::vector<Key> want(in.size());
  bkt::ref::radix_sort_keys<Key>(in, want, options);
  std::vector<Key> got(in.size(), bkt::test::poison_value<Key>());
  bkt::host::radix_sort_keys<Key>(in, got, options, backend::cpu);
  EXPECT_TRUE(bkt::test::bitwise_equal<Key>(want, got)) << "separate output";
  std::vector<Key> in_place = in;
  bkt::host::radix_sort_keys<Key>(in_place, in_place, options, backend::cpu);
  EXPECT_TRUE(bkt::test::bitwise_equal<Key>(want, in_place)) << "in place";
}

template <class Key>
class radix_sort_cpu_parallel : public ::testing::Test {};

using key_types = ::testing::Types<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t, std::int32_t,
                                   std::uint64_t, std::int64_t, float, double, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(radix_sort_cpu_parallel, key_types);

TYPED_TEST(radix_sort_cpu_parallel, keys_match_the_reference_in_both_orders) {
  for (const auto& gen : bkt::test::sweep_generators<TypeParam>())
    for (std::int64_t n : moderate_sizes()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto in = gen.make(n, bkt::test::seed());
      for (bool descending : {false, true}) expect_keys_match<TypeParam>(in, options_for(descending));
    }
}

TYPED_TEST(radix_sort_cpu_parallel, argsort_matches_the_reference) {
  for (const auto& gen : bkt::test::sweep_generators<TypeParam>())
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{33}, std::int64_t{4097},
                           std::int64_t{140001}}) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto in = gen.make(n, bkt::test::seed());
      for (bool descending : {false, true}) {
        const auto options = options_for(descending);
        std::vector<TypeParam> want_keys(in.size());
        std::vector<std::int64_t> want_order(in.size());
        bkt::ref::radix_sort_indices<TypeParam, std::int64_t>(in, want_keys, want_order, options);
        std::vector<TypeParam> keys(in.size(), bkt::test::poison_value<TypeParam>());
        std::vector<std::int64_t> order(in.size(), -1);
        bkt::host::radix_sort_indices<TypeParam, std::int64_t>(in, keys, order, options, backend::cpu);
        EXPECT_TRUE(bkt::test::bitwise_equal<TypeParam>(want_keys, keys));
        EXPECT_EQ(want_order, order);
        // Without a key output, and with 32-bit indices.
        std::vector<std::uint32_t> order32(in.size());
        bkt::host::radix_sort_indices<TypeParam, std::uint32_t>(in, {}, order32, options, backend::cpu);
        EXPECT_TRUE(std::equal(order32.begin(), order32.end(), want_order.begin(), want_order.end()));
      }
    }
}

TEST(radix_sort_cpu_parallel_sizes, large_inputs_split_by_all_threads) {
  // Large enough that buckets bigger than a thread's share are split by all threads together.
  for (const char* name : {"uniform", "zipf", "two_values", "sampling_adversary"})
    for (std::int64_t n : {std::int64_t{(1 << 20) + 7}, std::int64_t{3 * (1 << 20) + 12345}}) {
      if (n > (1 << 20) + 7 && std::string(name) != "uniform") continue;
      SCOPED_TRACE(std::string(name) + " n=" + std::to_string(n));
      for (const auto& gen : bkt::test::generators<std::uint32_t>())
        if (gen.name == name) expect_keys_match<std::uint32_t>(gen.make(n, bkt::test::seed()), options_for(false));
      for (const auto& gen : bkt::test::generators<double>())
        if (gen.name == name) expect_keys_match<double>(gen.make(n, bkt::test::seed()), options_for(true));
    }
}

TEST(radix_sort_cpu_parallel_pairs, values_follow_their_keys_in_place_too) {
  for (const auto& gen : bkt::test::sweep_generators<std::int64_t>())
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{33}, std::int64_t{4097},
                           std::int64_t{140001}, std::int64_t{(1 << 20) + 7}}) {
      if (n > 140001 && gen.name != "zipf") continue;  // one large run splits a large bucket together
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto keys = gen.make(n, bkt::test::seed());
      std::vector<double> values(keys.size());
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.5 - 3.0;
      std::vector<std::int64_t> want_keys(keys.size());
      std::vector<double> want_values(keys.size());
      bkt::ref::radix_sort_pairs<std::int64_t, double>(keys, values, want_keys, want_values, options_for(true));
      auto got_keys = keys;
      auto got_values = values;
      bkt::host::radix_sort_pairs<std::int64_t, double>(got_keys, got_values, got_keys, got_values, options_for(true),
                                                        backend::cpu);
      EXPECT_EQ(want_keys, got_keys);
      EXPECT_TRUE(bkt::test::bitwise_equal<double>(want_values, got_values));
    }
}

TEST(radix_sort_cpu_parallel_bits, a_bit_range_sorts_by_those_bits_alone) {
  // Ranges that start and end inside a digit, a range of one bit, the empty range.
  const std::vector<std::pair<int, int>> ranges = {{0, 32}, {3, 29}, {12, 20}, {31, 32}, {5, 6}, {16, 16}, {0, 9}};
  for (const auto& gen : bkt::test::sweep_generators<std::uint32_t>())
    for (std::int64_t n : {std::int64_t{33}, std::int64_t{4097}, std::int64_t{140001}})
      for (const auto& [begin_bit, end_bit] : ranges)
        for (bool descending : {false, true}) {
          if (n > 4097 && descending) continue;  // the large size once per range
          SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " bits " + std::to_string(begin_bit) + ".." +
                       std::to_string(end_bit));
          const auto in = gen.make(n, bkt::test::seed());
          const auto options = options_for(descending, begin_bit, end_bit);
          std::vector<std::uint32_t> want_keys(in.size());
          std::vector<std::uint32_t> values(in.size()), want_values(in.size());
          for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i * 7 + 1);
          bkt::ref::radix_sort_pairs<std::uint32_t, std::uint32_t>(in, values, want_keys, want_values, options);
          std::vector<std::uint32_t> keys(in.size()), got_values(in.size());
          bkt::host::radix_sort_pairs<std::uint32_t, std::uint32_t>(in, values, keys, got_values, options,
                                                                    backend::cpu);
          EXPECT_EQ(want_keys, keys);
          EXPECT_EQ(want_values, got_values);
        }
}

TEST(radix_sort_cpu_parallel_bits, ranges_at_the_top_of_64_bit_keys) {
  // The empty range at bit 64 (nothing compares: input order), and the top and bottom bits.
  const std::vector<std::pair<int, int>> ranges = {{64, 64}, {60, 64}, {0, 1}, {63, 64}};
  for (const auto& gen : bkt::test::sweep_generators<std::int64_t>())
    for (std::int64_t n : {std::int64_t{33}, std::int64_t{140001}})
      for (const auto& [begin_bit, end_bit] : ranges) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " bits " + std::to_string(begin_bit) + ".." +
                     std::to_string(end_bit));
        const auto in = gen.make(n, bkt::test::seed());
        std::vector<std::int64_t> want(in.size()), got(in.size());
        std::vector<std::int64_t> want_order(in.size()), order(in.size());
        const auto options = options_for(true, begin_bit, end_bit);
        bkt::ref::radix_sort_indices<std::int64_t, std::int64_t>(in, want, want_order, options);
        bkt::host::radix_sort_indices<std::int64_t, std::int64_t>(in, got, order, options, backend::cpu);
        EXPECT_EQ(want, got);
        EXPECT_EQ(want_order, order);
      }
}

TEST(radix_sort_cpu_parallel_alignment, outputs_at_any_offset_from_a_cache_line) {
  // The streaming split writes whole 64-byte lines; outputs that start mid-line exercise its edges.
  for (const char* name : {"uniform", "sixteen_distinct"})
    for (const auto& gen : bkt::test::generators<std::uint16_t>()) {
      if (gen.name != name) continue;
      const auto in = gen.make((1 << 20) + 7, bkt::test::seed());
      std::vector<std::uint16_t> want(in.size());
      std::vector<std::int64_t> want_order(in.size());
      bkt::ref::radix_sort_indices<std::uint16_t, std::int64_t>(in, want, want_order, {});
      for (std::size_t shift = 0; shift < 33; shift += 3) {
        SCOPED_TRACE(std::string(name) + " shift " + std::to_string(shift));
        std::vector<std::uint16_t> keys_storage(in.size() + shift + 1, bkt::test::poison_value<std::uint16_t>());
        std::vector<std::int64_t> order_storage(in.size() + shift + 1, -1);
        const std::span<std::uint16_t> keys(keys_storage.data() + shift, in.size());
        const std::span<std::int64_t> order(order_storage.data() + shift, in.size());
        bkt::host::radix_sort_indices<std::uint16_t, std::int64_t>(in, keys, order, {}, backend::cpu);
        EXPECT_TRUE(bkt::test::bitwise_equal<std::uint16_t>(want, keys));
        EXPECT_TRUE(std::equal(order.begin(), order.end(), want_order.begin()));
        EXPECT_EQ(keys_storage[shift + in.size()], bkt::test::poison_value<std::uint16_t>());  // nothing past the end
        EXPECT_TRUE(std::all_of(order_storage.begin(), order_storage.begin() + static_cast<std::ptrdiff_t>(shift),
                                [](std::int64_t v) { return v == -1; }));  // nor before the start
      }
    }
}

}  // namespace
