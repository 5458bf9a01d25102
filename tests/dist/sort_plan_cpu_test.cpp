// The distributed sort's plan by hand: the sampling step, the splitter search's tie rule, the
// splitter choice and the exchange plan, and the radix select's rounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bkt/dist/detail/prefix_bins.hpp"
#include "bkt/dist/detail/select_plan.hpp"
#include "bkt/dist/detail/sort_plan.hpp"
#include "bkt/dist/detail/splitter.hpp"
#include "bkt/dist/sort_options.hpp"
#include "bkt/error.hpp"

namespace {

using namespace bkt::dist::detail;

struct vector_images {
  const std::vector<std::uint64_t>* images;
  std::uint64_t operator()(std::int64_t i) const { return (*images)[static_cast<std::size_t>(i)]; }
};

TEST(dist_sort_plan, samples_stand_for_one_step_of_keys_on_every_rank) {
  const std::vector<std::int64_t> items = {1000, 10, 0, 2990};
  const auto plan = plan_samples(items, 100);  // 4000 keys, 400 samples wanted: step 10
  EXPECT_EQ(plan.step, 10);
  EXPECT_EQ(plan.counts, (std::vector<std::int64_t>{100, 1, 0, 299}));
  EXPECT_EQ(plan.offsets, (std::vector<std::int64_t>{0, 100, 101, 101}));
  EXPECT_EQ(plan.total, 400);
  EXPECT_EQ(plan_samples(std::vector<std::int64_t>{1000, 10, 0, 3000}, 100).step, 11);  // rounded up
  const auto small = plan_samples(std::vector<std::int64_t>{3, 0, 2}, 1024);  // fewer keys than samples
  EXPECT_EQ(small.step, 1);
  EXPECT_EQ(small.total, 5);
  EXPECT_EQ(plan_samples(std::vector<std::int64_t>{0, 0}, 8).total, 0);
}

TEST(dist_sort_plan, the_search_splits_ties_by_rank_then_index) {
  const std::vector<std::uint64_t> run = {1, 5, 5, 5, 9};
  const vector_images images{&run};
  const splitter s{5, 2, 1, 0};  // the key 5 at index 2 of rank 1
  EXPECT_EQ(elements_before(images, 5, s, 0), 4);  // lower rank: every 5 precedes it
  EXPECT_EQ(elements_before(images, 5, s, 1), 2);  // its own rank: the indices below
  EXPECT_EQ(elements_before(images, 5, s, 2), 1);  // higher rank: no 5 precedes it
  EXPECT_EQ(elements_before(images, 5, splitter{0, 0, -1, 0}, 0), 0);
  EXPECT_EQ(elements_before(images, 5, splitter{~std::uint64_t{0}, 0, 3, 0}, 2), 5);
  EXPECT_EQ(elements_before(images, 0, s, 2), 0);
}

TEST(dist_sort_plan, all_equal_keys_are_cut_by_position) {
  // Two ranks of 6 equal keys each, every key a sample (step 1): the middle splitter is rank 1's
  // first key, so rank 0 keeps its six and receives none of rank 1's.
  const std::vector<std::int64_t> items = {6, 6};
  const auto plan = plan_samples(items, 1024);
  ASSERT_EQ(plan.step, 1);
  const std::vector<std::uint64_t> gathered(12, 7);
  const auto splitters = choose_splitters(gathered, plan, items);
  ASSERT_EQ(splitters.size(), 3u);
  EXPECT_EQ(splitters[1].rank, 1);
  EXPECT_EQ(splitters[1].index, 0);
  const std::vector<std::uint64_t> run(6, 7);
  std::vector<std::int64_t> bounds;
  for (int r = 0; r < 2; ++r)
    for (const auto& s : splitters) bounds.push_back(elements_before(vector_images{&run}, 6, s, r));
  EXPECT_EQ(bounds, (std::vector<std::int64_t>{0, 6, 6, 0, 0, 6}));
  const auto mine = plan_exchange(bounds, items, 1);
  EXPECT_EQ(mine.received, 6);
  EXPECT_EQ(mine.global_first, 6);
  EXPECT_EQ(mine.sources, 1);
  EXPECT_EQ(mine.send_counts, (std::vector<std::int64_t>{0, 6}));
}

TEST(dist_sort_plan, inconsistent_counts_are_rejected) {
  const std::vector<std::int64_t> items = {2, 2};
  EXPECT_THROW(plan_exchange(std::vector<std::int64_t>{0, 1, 2, 0, 2, 1}, items, 0), bkt::error);  // decreasing
  EXPECT_THROW(plan_exchange(std::vector<std::int64_t>{0, 1, 3, 0, 1, 2}, items, 0), bkt::error);  // past the end
  EXPECT_THROW(plan_exchange(std::vector<std::int64_t>{0, 1, 2}, items, 0), bkt::error);           // wrong shape
  EXPECT_NO_THROW(plan_exchange(std::vector<std::int64_t>{0, 1, 2, 0, 0, 2}, items, 1));
}

TEST(dist_sort_plan, capacity_is_near_the_average_share) {
  EXPECT_EQ(bkt::dist::sort_capacity(0, 4), 0);
  EXPECT_EQ(bkt::dist::sort_capacity(1000, 1), 1000);
  EXPECT_EQ(bkt::dist::sort_capacity(10, 8), 10);  // never above n
  const std::int64_t n = std::int64_t{1} << 31;
  for (const int ranks : {2, 3, 8, 64}) {
    const std::int64_t capacity = bkt::dist::sort_capacity(n, ranks);
    EXPECT_GE(capacity, n / ranks);
    EXPECT_LE(static_cast<double>(capacity), 1.02 * static_cast<double>(n) / ranks) << ranks << " ranks";
  }
}

TEST(dist_select_plan, rounds_follow_the_digits_of_each_rank) {
  // Data {0x0102, 0x0101, 0x0201, 0x0102} as 16-bit images; ranks 0 and 3.
  const std::vector<std::int64_t> ranks = {3, 0};
  radix_select_plan plan(ranks, 16);
  ASSERT_FALSE(plan.done());
  EXPECT_EQ(plan.shift(), 8);
  EXPECT_EQ(plan.prefixes(), (std::vector<std::uint64_t>{0}));
  std::vector<std::int64_t> counts(256, 0);
  counts[1] = 3;
  counts[2] = 1;
  plan.advance(counts);
  EXPECT_EQ(plan.shift(), 0);
  EXPECT_EQ(plan.prefixes(), (std::vector<std::uint64_t>{1, 2}));
  std::vector<std::int64_t> second(512, 0);
  second[1] = 1;        // prefix 1, digit 1
  second[2] = 2;        // prefix 1, digit 2
  second[256 + 1] = 1;  // prefix 2, digit 1
  plan.advance(second);
  ASSERT_TRUE(plan.done());
  EXPECT_EQ(plan.image(0), 0x0201u);
  EXPECT_EQ(plan.image(1), 0x0101u);
  std::vector<std::int64_t> too_few(256, 0);
  radix_select_plan again(std::vector<std::int64_t>{5}, 8);
  EXPECT_THROW(again.advance(too_few), bkt::error);
  EXPECT_TRUE(radix_select_plan(std::vector<std::int64_t>{}, 32).done());
}

TEST(dist_select_plan, the_bins_take_only_matching_prefixes) {
  const std::vector<std::uint64_t> prefixes = {0x12, 0x80};
  const prefix_digit_bins<std::uint32_t> bins{prefixes.data(), 2, 16};
  EXPECT_EQ(bins.num_buckets(), 513);
  EXPECT_EQ(bins(0x12345678u), 0x34);
  EXPECT_EQ(bins(0x80ff0000u), 256 + 0xff);
  EXPECT_EQ(bins(0x13000000u), 512);  // no such prefix: outside
  const std::vector<std::uint64_t> top = {0};
  const prefix_digit_bins<std::uint64_t> first_round{top.data(), 1, 56};
  EXPECT_EQ(first_round(0xab00000000000000ull), 0xab);
}

}  // namespace
