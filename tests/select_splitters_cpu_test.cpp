// SampleSelect's classification without a GPU: the splitter tree against a brute-force count, the
// splitter rules, bucket location, and a host twin of the level loop (the device driver's logic
// with vectors for its passes) that must reach the reference's answer for every rule on every
// generator, including ranges too narrow for a sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bkt/detail/select/splitter_buckets.hpp"
#include "bkt/ref/select.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::detail::select;
using bkt::detail::radix_word;
using bkt::detail::from_select_bits;
using bkt::detail::select_bits;

enum class rule { sampled, single_pivot, evenly_spaced };

/// The device driver's level loop (core/src/select/splitter_search.cuh) with host vectors for the
/// count and store passes. `capacity` plays the buffers' size, so that narrowing without storing
/// is exercised too. Returns the selected element and counts the levels.
template <class T>
T host_search(const std::vector<T>& data, std::int64_t k, rule how, std::uint64_t seed, std::int64_t capacity,
              int& levels) {
  using W = radix_word<T>;
  std::vector<T> array = data;
  word_range<W> range{};
  bool whole = true;
  std::mt19937_64 random(seed);
  for (levels = 1;; ++levels) {
    if (levels > 200) throw std::runtime_error("no progress");
    if (whole && array.size() <= 64) {
      std::nth_element(array.begin(), array.begin() + k, array.end(),
                       [](const T& a, const T& b) { return select_bits(a) < select_bits(b); });
      return array[static_cast<std::size_t>(k)];
    }
    std::vector<W> words;
    const int draws = how == rule::sampled ? 256 : how == rule::single_pivot ? 8 : 0;
    for (int i = 0; i < draws; ++i) {
      const W w = select_bits(array[random() % array.size()]);
      if (range.contains(w)) words.push_back(w);
    }
    std::vector<W> splitters;
    if (!words.empty() && how == rule::single_pivot) splitters.push_back(words.front());
    if (!words.empty() && how == rule::sampled) {
      std::sort(words.begin(), words.end());
      splitters = splitters_from_sample(words, max_splitters);
    }
    if (splitters.empty()) splitters = splitters_across(range, max_splitters);
    EXPECT_TRUE(std::is_sorted(splitters.begin(), splitters.end()));
    EXPECT_TRUE(std::adjacent_find(splitters.begin(), splitters.end()) == splitters.end());
    for (const W s : splitters) EXPECT_TRUE(range.contains(s));

    const splitter_tree<W> tree{{splitters.data(), static_cast<int>(splitters.size())}, range};
    std::vector<std::int64_t> counts(static_cast<std::size_t>(tree.num_buckets()));
    for (const T& x : array)
      if (const int b = tree(x); b < tree.num_buckets()) ++counts[static_cast<std::size_t>(b)];
    const located at = locate(counts, k);
    if (at.bucket < 0) throw std::runtime_error("rank outside the buckets");
    if (at.bucket % 2 == 1) return from_select_bits<T>(splitters[static_cast<std::size_t>(at.bucket / 2)]);
    range = bucket_range(range, splitters, at.bucket);
    k = at.rank_in_bucket;
    if (at.size <= capacity) {
      std::erase_if(array, [&](const T& x) { return !in_word_range<W>{range}(x); });
      EXPECT_EQ(static_cast<std::int64_t>(array.size()), at.size);
      whole = true;
    } else {
      whole = false;
    }
  }
}

template <class T>
class splitter_search_twin : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(splitter_search_twin, select_types);

TYPED_TEST(splitter_search_twin, every_rule_reaches_the_reference_on_every_generator) {
  using T = TypeParam;
  for (const std::int64_t n : {1, 33, 1000, 20011})
    for (const auto& gen : generators<T>()) {
      const auto keys = gen.make(n, seed() + static_cast<std::uint64_t>(n));
      for (const std::int64_t k : {std::int64_t{0}, n / 2, n - 1, std::min<std::int64_t>(17, n - 1)})
        for (const rule how : {rule::sampled, rule::single_pivot, rule::evenly_spaced})
          for (const std::int64_t capacity : {n / 8, n / 64}) {
            SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                         " rule=" + std::to_string(static_cast<int>(how)) + " capacity=" + std::to_string(capacity));
            int levels = 0;
            const T got = host_search<T>(keys, k, how, seed() + 11, capacity, levels);
            const T want = bkt::ref::select_kth<T>(keys, k);
            ASSERT_EQ(select_bits(want), select_bits(got));
            // bucketselect narrows the words by 128x a level: at most ten levels for 64-bit words.
            if (how == rule::evenly_spaced) {
              EXPECT_LE(levels, 12);
            }
          }
    }
}

TYPED_TEST(splitter_search_twin, from_select_bits_inverts_select_bits) {
  using T = TypeParam;
  for (const auto& gen : generators<T>())
    for (const T& x : gen.make(1000, seed())) {
      const T back = from_select_bits<T>(select_bits(x));
      if (x != x) {
        EXPECT_TRUE(back != back) << gen.name << ": a NaN's word gives a NaN";
      } else {
        EXPECT_EQ(select_bits(back), select_bits(x)) << gen.name;
        EXPECT_TRUE(std::memcmp(&back, &x, sizeof(T)) == 0) << gen.name << ": the bits come back";
      }
    }
}

TEST(splitter_tree, buckets_match_a_brute_force_count_and_honour_the_range) {
  using W = std::uint32_t;
  const std::vector<W> splitters{3, 7, 8, 100};
  word_range<W> range{};
  range.lo = 1, range.has_lo = true;
  range.hi = 200, range.has_hi = true;
  const splitter_tree<W> tree{{splitters.data(), 4}, range};
  EXPECT_EQ(tree.num_buckets(), 9);
  for (W w = 0; w < 300; ++w) {
    int want;
    if (w <= 1 || w >= 200) {
      want = 9;  // outside the range
    } else {
      const auto j = static_cast<int>(std::upper_bound(splitters.begin(), splitters.end(), w) - splitters.begin());
      want = j > 0 && splitters[static_cast<std::size_t>(j - 1)] == w ? 2 * j - 1 : 2 * j;
    }
    EXPECT_EQ(tree(w), want) << "word " << w;
  }
  EXPECT_EQ(tree(W{3}), 1);
  EXPECT_EQ(tree(W{5}), 2);
  EXPECT_EQ(tree(W{8}), 5);
  EXPECT_EQ(tree(W{150}), 8);
}

TEST(splitter_rules, evenly_spaced_splitters_cover_full_and_tiny_ranges) {
  const auto full = splitters_across(word_range<std::uint64_t>{}, 127);
  ASSERT_EQ(full.size(), 127u);
  EXPECT_TRUE(std::is_sorted(full.begin(), full.end()));
  EXPECT_GT(full.front(), 0u);
  EXPECT_LT(full.back(), std::numeric_limits<std::uint64_t>::max());
  word_range<std::uint32_t> tiny{};
  tiny.lo = 10, tiny.has_lo = true;
  tiny.hi = 14, tiny.has_hi = true;  // holds 11, 12, 13
  EXPECT_EQ(splitters_across(tiny, 127), (std::vector<std::uint32_t>{11, 12, 13}));
  const std::vector<std::uint32_t> sample{1, 1, 1, 1, 2, 2, 9, 9};
  EXPECT_EQ(splitters_from_sample(sample, 127), (std::vector<std::uint32_t>{1, 2, 9}));
}

TEST(splitter_rules, locate_walks_the_counts_and_bucket_range_narrows) {
  const std::vector<std::int64_t> counts{0, 3, 5, 0, 2};
  EXPECT_EQ(locate(counts, 0).bucket, 1);
  EXPECT_EQ(locate(counts, 3).bucket, 2);
  EXPECT_EQ(locate(counts, 7).rank_in_bucket, 4);
  EXPECT_EQ(locate(counts, 9).bucket, 4);
  EXPECT_EQ(locate(counts, 10).bucket, -1);
  const std::vector<std::uint32_t> splitters{5, 9};
  const auto middle = bucket_range(word_range<std::uint32_t>{}, splitters, 2);
  EXPECT_TRUE(middle.has_lo && middle.has_hi);
  EXPECT_EQ(middle.lo, 5u);
  EXPECT_EQ(middle.hi, 9u);
  const auto top = bucket_range(word_range<std::uint32_t>{}, splitters, 4);
  EXPECT_TRUE(top.has_lo && !top.has_hi);
}

TEST(splitter_rules, from_select_bits_inverts_select_bits) {
  for (const float x : {-std::numeric_limits<float>::infinity(), -1.5f, -0.0f, 0.0f, 1e-42f, 3.0f,
                        std::numeric_limits<float>::infinity()}) {
    const float y = from_select_bits<float>(select_bits(x));
    EXPECT_EQ(std::signbit(x), std::signbit(y));
    EXPECT_EQ(x, y);
  }
  EXPECT_TRUE(std::isnan(from_select_bits<double>(select_bits(std::nan("")))));
  for (const std::int64_t x : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, std::int64_t{0},
                               std::numeric_limits<std::int64_t>::max()})
    EXPECT_EQ(from_select_bits<std::int64_t>(select_bits(x)), x);
}

}  // namespace
