// The distributed sort simulated on the CPU at N = 1, 2, 3 and 8 ranks, through the plan the GPU
// code runs: every rank's slice must be the matching slice of one stable sort of the whole, within
// sort_capacity, and on inputs of few values, all-equal or pre-sorted no rank may hold more than
// 1.1 times the average.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bkt/dist/ref/sort.hpp"
#include "bkt/ref/radix_sort.hpp"
#include "layouts.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;
using bkt::test::dist::layouts;
using bkt::test::dist::split;

constexpr int rank_counts[] = {1, 2, 3, 8};

bkt::dist::sort_options with_order(bkt::sort_order order) {
  bkt::dist::sort_options options;
  options.order = order;
  return options;
}

/// The simulated slices against one stable sort of `all`: keys bit for bit, values (global
/// positions) exactly, global_first, and every share within sort_capacity.
template <class Key>
void check_slices(const std::vector<Key>& all, const std::vector<bkt::ref::dist::sorted_slice<Key, std::int64_t>>& slices,
                  const bkt::dist::sort_options& options, bool with_positions) {
  bkt::radix_sort_options whole;
  whole.order = options.order;
  const auto order = bkt::ref::radix_sort_order<Key>(all, whole);
  const auto n = static_cast<std::int64_t>(all.size());
  const std::int64_t capacity = bkt::dist::sort_capacity(n, static_cast<int>(slices.size()), options);
  std::int64_t at = 0;
  for (std::size_t r = 0; r < slices.size(); ++r) {
    const auto& slice = slices[r];
    const auto count = static_cast<std::int64_t>(slice.keys.size());
    EXPECT_EQ(slice.global_first, at) << "rank " << r;
    EXPECT_LE(count, capacity) << "rank " << r;
    ASSERT_LE(at + count, n);
    std::vector<Key> want(static_cast<std::size_t>(count));
    for (std::int64_t j = 0; j < count; ++j) want[j] = all[order[at + j]];
    EXPECT_TRUE(bitwise_equal<Key>(want, slice.keys)) << "rank " << r;
    if (with_positions) {
      ASSERT_EQ(slice.values.size(), slice.keys.size());
      for (std::int64_t j = 0; j < count; ++j)
        if (slice.values[j] != order[at + j]) {
          ADD_FAILURE() << "rank " << r << " position " << j << ": global position " << slice.values[j] << ", want "
                        << order[at + j];
          break;
        }
    }
    at += count;
  }
  EXPECT_EQ(at, n);
}

template <class T>
class dist_sort_cpu : public ::testing::Test {};
using key_types = ::testing::Types<std::uint8_t, std::int16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t,
                                   float, double, __half>;
TYPED_TEST_SUITE(dist_sort_cpu, key_types);

TYPED_TEST(dist_sort_cpu, slices_match_one_stable_sort_of_the_whole) {
  using T = TypeParam;
  for (const int ranks : rank_counts)
    for (const std::int64_t n : {0, 1, 33, 1000, 6007})
      for (const auto& gen : sweep_generators<T>())
        for (const auto& lay : layouts()) {
          SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " ranks=" + std::to_string(ranks) + " " + lay.name +
                       " seed=" + std::to_string(seed()));
          const auto all = gen.make(n, seed());
          const auto parts = split(all, lay.sizes(n, ranks));
          check_slices<T>(all, bkt::ref::dist::sort_indices<T>(parts), {}, true);
          const auto descending = with_order(bkt::sort_order::descending);
          check_slices<T>(all, bkt::ref::dist::sort_keys<T>(parts, descending), descending, false);
        }
}

TEST(dist_sort_cpu_cases, pairs_carry_their_values) {
  const std::vector<std::vector<float>> keys = {{3.0f, -0.0f, 1.0f}, {}, {0.0f, 1.0f, -1.0f, 3.0f}};
  const std::vector<std::vector<std::uint32_t>> values = {{10, 11, 12}, {}, {20, 21, 22, 23}};
  const auto slices = bkt::ref::dist::sort_pairs<float, std::uint32_t>(keys, values);
  std::vector<float> got_keys;
  std::vector<std::uint32_t> got_values;
  for (const auto& s : slices) {
    got_keys.insert(got_keys.end(), s.keys.begin(), s.keys.end());
    got_values.insert(got_values.end(), s.values.begin(), s.values.end());
  }
  // -0.0 sorts before +0.0; equal keys keep rank order (12 before 21, 10 before 23).
  EXPECT_TRUE(bitwise_equal<float>(std::vector<float>{-1.0f, -0.0f, 0.0f, 1.0f, 1.0f, 3.0f, 3.0f}, got_keys));
  EXPECT_EQ(got_values, (std::vector<std::uint32_t>{22, 11, 20, 12, 21, 10, 23}));
}

/// The largest share over the average share ceil(n / N).
template <class T>
double imbalance(const std::vector<bkt::ref::dist::sorted_slice<T, std::int64_t>>& slices, std::int64_t n) {
  std::int64_t most = 0;
  for (const auto& s : slices) most = std::max<std::int64_t>(most, static_cast<std::int64_t>(s.keys.size()));
  const std::int64_t ranks = static_cast<std::int64_t>(slices.size());
  return static_cast<double>(most) / static_cast<double>((n + ranks - 1) / ranks);
}

TEST(dist_sort_cpu_cases, skewed_inputs_stay_balanced) {
  const std::int64_t n = 60001;
  for (const int ranks : {2, 3, 8})
    for (const auto& gen : generators<std::uint32_t>())
      for (const auto& lay : layouts())
        for (const auto order : {bkt::sort_order::ascending, bkt::sort_order::descending}) {
          SCOPED_TRACE(gen.name + " ranks=" + std::to_string(ranks) + " " + lay.name + " seed=" + std::to_string(seed()));
          const auto all = gen.make(n, seed());
          const auto slices = bkt::ref::dist::sort_keys<std::uint32_t>(split(all, lay.sizes(n, ranks)), with_order(order));
          EXPECT_LE(imbalance(slices, n), 1.1);
        }
}

TEST(dist_sort_cpu_cases, float_specials_stay_balanced_and_ordered) {
  const std::int64_t n = 40000;
  for (const int ranks : {2, 3, 8}) {
    std::vector<double> keys;  // NaN, -0.0, +0.0 and -NaN only: four runs of equal keys
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::int64_t i = 0; i < n; ++i) keys.push_back(i % 4 == 0 ? nan : i % 4 == 1 ? -0.0 : i % 4 == 2 ? 0.0 : -nan);
    const auto parts = split(keys, layouts()[1].sizes(n, ranks));
    const auto slices = bkt::ref::dist::sort_indices<double>(parts);
    check_slices<double>(keys, slices, {}, true);
    EXPECT_LE(imbalance(slices, n), 1.1);
  }
}

TEST(dist_sort_cpu_cases, more_samples_never_hurt_and_one_sample_still_sorts) {
  const auto all = generators<std::int32_t>()[0].make(5000, seed());
  for (const std::int64_t samples : {1, 7, 100000}) {
    bkt::dist::sort_options options;
    options.samples_per_rank = samples;
    SCOPED_TRACE("samples_per_rank=" + std::to_string(samples));
    check_slices<std::int32_t>(all, bkt::ref::dist::sort_indices<std::int32_t>(split(all, layouts()[3].sizes(5000, 8)), options),
                               options, true);
  }
}

TEST(dist_sort_cpu_cases, chunked_exchange_matches_one_stable_sort) {
  // Chunks cut by extra splitters, moved through aligned windows: 1, 2, 3 and 5 chunks, with
  // uneven and empty ranks, few distinct keys (empty chunks) and sizes below the chunk count.
  for (const int chunks : {1, 2, 3, 5})
    for (const int ranks : {2, 3, 8})
      for (const std::int64_t n : {0, 1, 7, 33, 2001})
        for (const auto& gen : sweep_generators<std::uint16_t>())
          for (const auto& lay : layouts()) {
            SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " ranks=" + std::to_string(ranks) + " chunks=" +
                         std::to_string(chunks) + " " + lay.name);
            bkt::dist::sort_options options;
            options.chunks = chunks;
            const auto all = gen.make(n, seed());
            const auto parts = split(all, lay.sizes(n, ranks));
            check_slices<std::uint16_t>(all, bkt::ref::dist::sort_indices<std::uint16_t>(parts, options), options, true);
          }
}

TEST(dist_sort_cpu_cases, chunk_windows_are_aligned_and_the_rank_boundaries_do_not_move) {
  namespace plan = bkt::dist::detail;
  const std::vector<std::int64_t> items = {1003, 0, 517};
  const auto sampling = plan::plan_samples(items, 64);
  std::vector<std::uint64_t> gathered(static_cast<std::size_t>(sampling.total));
  for (std::size_t i = 0; i < gathered.size(); ++i) gathered[i] = i % 97;
  const auto one = plan::choose_splitters(gathered, sampling, items, 1);
  const auto three = plan::choose_splitters(gathered, sampling, items, 3);
  ASSERT_EQ(three.size(), 10u);
  for (int b = 0; b <= 3; ++b) {
    EXPECT_EQ(one[b].image, three[3 * b].image);
    EXPECT_EQ(one[b].rank, three[3 * b].rank);
    EXPECT_EQ(one[b].index, three[3 * b].index);
  }
  EXPECT_EQ(plan::choose_chunks(0, std::int64_t{1} << 31, 2, 4), 1);
  EXPECT_EQ(plan::choose_chunks(0, 1000, 2, 4), 1);
  EXPECT_EQ(plan::choose_chunks(3, 1000, 2, 4), 3);
  EXPECT_EQ(plan::choose_chunks(0, std::int64_t{1} << 31, 1, 4), 1);
  EXPECT_EQ(plan::exchange_alignment(1, 0), 16);
  EXPECT_EQ(plan::exchange_alignment(8, 4), 4);
  EXPECT_EQ(plan::exchange_alignment(4, 0), 4);
  // Rank 0 sends keys [5, 12) to rank 1 in one chunk: window [4, 12) with align 4, landing at a
  // multiple of 4 after rank 1's own chunk (kept room for, not moved).
  const std::vector<std::int64_t> bounds = {0, 5, 12, 0, 3, 9};
  const auto mine = plan::plan_exchange(bounds, std::vector<std::int64_t>{12, 9}, 1, 1, 4);
  EXPECT_EQ(mine.recv_counts, (std::vector<std::int64_t>{7, 6}));
  EXPECT_EQ(mine.recv_window_offsets[0], 0);
  EXPECT_EQ(mine.recv_window_count[0], 8);
  EXPECT_EQ(mine.recv_offsets[0], 1);
  EXPECT_EQ(mine.recv_window_count[1], 0);  // its own chunk moves nowhere
  EXPECT_EQ(mine.recv_window_offsets[1], 8);
  EXPECT_EQ(mine.receive_extent, 16);
  EXPECT_LE(mine.receive_extent, plan::receive_extent_bound(13, 2, 1, 4));
  const auto theirs = plan::plan_exchange(bounds, std::vector<std::int64_t>{12, 9}, 0, 1, 4);
  EXPECT_EQ(theirs.send_window_first[1], 4);
  EXPECT_EQ(theirs.send_window_count[1], 8);
}

}  // namespace
