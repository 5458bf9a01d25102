// bkt::dist histograms against the single-GPU histogram of the whole input on every rank: counts
// and the outside count exact, weighted sums exact with integer weights.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bkt/dist/histogram.hpp"
#include "bkt/histogram.hpp"
#include "bkt/memory.hpp"
#include "dist_support.hpp"
#include "support/device_run.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::test::dist;

template <class T>
class dist_histogram_test : public ::testing::Test {};
using histogram_types = ::testing::Types<std::uint8_t, std::int32_t, float, double>;
TYPED_TEST_SUITE(dist_histogram_test, histogram_types);

TYPED_TEST(dist_histogram_test, bins_match_the_single_gpu_histogram) {
  BKT_REQUIRE_DIST();
  using T = TypeParam;
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  const auto lo = static_cast<bkt::histogram_level<T>>(std::is_floating_point_v<T> ? -1000 : 0);
  const auto hi = static_cast<bkt::histogram_level<T>>(std::is_floating_point_v<T> ? 1000 : 256);  // 256 bins of width 1 for integers
  const std::vector<T> host_edges = {T(0), T(1), T(10), T(100), T(127)};
  auto edges = to_device<T>(host_edges, stream);
  for (const std::int64_t n : dist_sizes(true))
    for (const auto& gen : sweep_generators<T>())
      for (const auto& lay : layouts()) {
        if (!worth_running(n, gen.name, lay.name)) continue;
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
        const auto all = gen.make(n, seed());
        const auto sizes = lay.sizes(n, c.size());
        std::vector<float> weights(all.size());
        for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 7) - 2.0f;
        auto d_part = to_device<T>(my_part(all, sizes, c.rank()), stream);
        auto d_weights = to_device<float>(my_part(weights, sizes, c.rank()), stream);
        auto d_all = to_device<T>(all, stream);
        auto d_all_weights = to_device<float>(weights, stream);
        auto outside = poisoned_buffer<std::int64_t>(2, stream);
        auto got = poisoned_buffer<std::int64_t>(256, stream);
        auto want = poisoned_buffer<std::int64_t>(256, stream);
        bkt::dist::histogram_even<T>(c, d_part.span(), got.span(), lo, hi, outside.data(), ws, stream);
        bkt::histogram_even<T>(d_all.span(), want.span(), lo, hi, outside.data() + 1, single_ws, stream);
        EXPECT_EQ(to_host(want), to_host(got)) << "histogram_even";
        const auto outsides = to_host(outside);
        EXPECT_EQ(outsides[0], outsides[1]) << "histogram_even outside";
        auto got_range = poisoned_buffer<std::int64_t>(4, stream);
        auto want_range = poisoned_buffer<std::int64_t>(4, stream);
        bkt::dist::histogram_range<T>(c, d_part.span(), edges.span(), got_range.span(), nullptr, ws, stream);
        bkt::histogram_range<T>(d_all.span(), edges.span(), want_range.span(), nullptr, single_ws, stream);
        EXPECT_EQ(to_host(want_range), to_host(got_range)) << "histogram_range";
        auto sums = poisoned_buffer<double>(64, stream);
        auto want_sums = poisoned_buffer<double>(64, stream);
        auto weight_outside = poisoned_buffer<double>(2, stream);
        bkt::dist::histogram_even<T, float>(c, d_part.span(), d_weights.span(), sums.span(), lo, hi,
                                            weight_outside.data(), ws, stream);
        bkt::histogram_even<T, float>(d_all.span(), d_all_weights.span(), want_sums.span(), lo, hi,
                                      weight_outside.data() + 1, single_ws, stream);
        EXPECT_TRUE(bitwise_equal<double>(to_host(want_sums), to_host(sums))) << "weighted histogram_even";
        const auto weight_outsides = to_host(weight_outside);
        EXPECT_EQ(weight_outsides[0], weight_outsides[1]) << "weighted outside";
      }
}

TEST(dist_histogram_cases, differing_bin_counts_fail_every_rank) {
  BKT_REQUIRE_DIST();
  if (comm().size() < 2) GTEST_SKIP() << "needs two ranks";
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  auto d_part = to_device<float>(generators<float>()[0].make(100, seed()), stream);
  auto counts = poisoned_buffer<std::int64_t>(64, stream);
  const std::int64_t bins = c.rank() == 0 ? 64 : 32;
  EXPECT_THROW(bkt::dist::histogram_even<float>(c, d_part.span(), counts.span().first(bins), -1.0f, 1.0f, nullptr, ws,
                                                stream),
               bkt::error);
  EXPECT_THROW(bkt::dist::histogram_even<float>(c, d_part.span(), counts.span(), c.rank() == 0 ? 2.0f : -1.0f, 1.0f,
                                                nullptr, ws, stream),
               bkt::error);  // rank 0's range is empty: its own error, and every rank's
}

}  // namespace
