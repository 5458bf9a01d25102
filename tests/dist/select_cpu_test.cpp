// The distributed selection simulated on the CPU at N = 1, 2, 3 and 8 ranks: the radix select's
// rounds with the GPU's bin functor, and top_k's candidates gathered in rank order, against the
// single-GPU library's reference on the whole input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bkt/detail/select/select_bits.hpp"
#include "bkt/dist/ref/select.hpp"
#include "bkt/ref/select.hpp"
#include "layouts.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;
using bkt::test::dist::layouts;
using bkt::test::dist::split;

constexpr int rank_counts[] = {1, 2, 3, 8};

template <class T>
bool same_in_order(const T& a, const T& b) {
  return bkt::detail::select_bits(a) == bkt::detail::select_bits(b);
}

template <class T>
class dist_select_cpu : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(dist_select_cpu, select_types);

TYPED_TEST(dist_select_cpu, ranks_match_the_whole) {
  using T = TypeParam;
  for (const int ranks : rank_counts)
    for (const std::int64_t n : {1, 33, 2001})
      for (const auto& gen : sweep_generators<T>())
        for (const auto& lay : layouts()) {
          SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " ranks=" + std::to_string(ranks) + " " + lay.name +
                       " seed=" + std::to_string(seed()));
          const auto all = gen.make(n, seed());
          const auto parts = split(all, lay.sizes(n, ranks));
          std::vector<std::int64_t> wanted = {0, n / 2, n - 1, n / 3, n / 2, (n * 7) / 8};  // repeats too
          std::vector<T> got(wanted.size()), want(wanted.size());
          bkt::ref::dist::multiselect<T>(parts, wanted, got);
          bkt::ref::multiselect<T>(all, wanted, want);
          for (std::size_t i = 0; i < wanted.size(); ++i)
            EXPECT_TRUE(same_in_order(want[i], got[i])) << "rank " << wanted[i];
          EXPECT_TRUE(same_in_order(bkt::ref::select_kth<T>(all, n - 1), bkt::ref::dist::select_kth<T>(parts, n - 1)));
        }
}

TYPED_TEST(dist_select_cpu, top_k_matches_the_whole_bit_for_bit) {
  using T = TypeParam;
  for (const int ranks : rank_counts)
    for (const std::int64_t n : {0, 1, 33, 2001})
      for (const auto& gen : sweep_generators<T>())
        for (const auto& lay : layouts())
          for (const bool largest : {true, false}) {
            const auto all = gen.make(n, seed());
            const auto parts = split(all, lay.sizes(n, ranks));
            for (const std::int64_t k : {std::int64_t{0}, std::min<std::int64_t>(n, 1), std::min<std::int64_t>(n, 40), n}) {
              SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " ranks=" +
                           std::to_string(ranks) + " " + lay.name + (largest ? " largest" : " smallest"));
              std::vector<T> got(k), want(k);
              std::vector<std::int64_t> got_positions(k), want_positions(k);
              bkt::top_k_options options;
              options.largest = largest;
              bkt::ref::dist::top_k<T, std::int64_t>(parts, k, got, got_positions, largest);
              bkt::ref::top_k<T, std::int64_t>(all, k, want, want_positions, options);
              EXPECT_TRUE(bitwise_equal<T>(want, got));
              EXPECT_EQ(want_positions, got_positions);
            }
          }
}

TEST(dist_select_cpu_cases, nan_ranks_give_a_nan_and_zeros_keep_their_sign) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::vector<float>> parts = {{nan, -0.0f}, {}, {0.0f, -nan, 1.0f}};
  // Order: -0.0 < +0.0 < 1 < NaN = NaN.
  const std::vector<std::int64_t> ranks = {0, 1, 2, 3, 4};
  std::vector<float> got(5);
  bkt::ref::dist::multiselect<float>(parts, ranks, got);
  EXPECT_TRUE(std::signbit(got[0]) && got[0] == 0.0f);
  EXPECT_TRUE(!std::signbit(got[1]) && got[1] == 0.0f);
  EXPECT_EQ(got[2], 1.0f);
  EXPECT_TRUE(std::isnan(got[3]) && std::isnan(got[4]));
  EXPECT_THROW(bkt::ref::dist::select_kth<float>(parts, 5), std::invalid_argument);
}

}  // namespace
