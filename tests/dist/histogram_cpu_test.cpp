// The distributed histograms simulated on the CPU: the ranks' histograms summed equal the
// histogram of the whole, for every layout, outside counts included.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bkt/dist/ref/histogram.hpp"
#include "bkt/histogram.hpp"
#include "layouts.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;
using bkt::test::dist::layouts;
using bkt::test::dist::split;

TEST(dist_histogram_cpu, summed_ranks_match_the_whole) {
  const std::int64_t n = 5003;
  for (const int ranks : {1, 2, 3, 8})
    for (const auto& gen : sweep_generators<float>())
      for (const auto& lay : layouts()) {
        SCOPED_TRACE(gen.name + " ranks=" + std::to_string(ranks) + " " + lay.name);
        const auto all = gen.make(n, seed());
        const auto parts = split(all, lay.sizes(n, ranks));
        std::vector<std::int64_t> want(64), got(64);
        const std::int64_t want_outside =
            bkt::host::histogram_even<float>(all, want, -1e5f, 1e5f, bkt::host::backend::cpu);
        EXPECT_EQ(bkt::ref::dist::histogram_even<float>(parts, got, -1e5f, 1e5f), want_outside);
        EXPECT_EQ(want, got);
        const std::vector<float> edges = {-1e6f, -1.0f, 0.0f, 0.5f, 1e6f};
        std::vector<std::int64_t> want_range(4), got_range(4);
        const std::int64_t range_outside =
            bkt::host::histogram_range<float>(all, edges, want_range, bkt::host::backend::cpu);
        EXPECT_EQ(bkt::ref::dist::histogram_range<float>(parts, edges, got_range), range_outside);
        EXPECT_EQ(want_range, got_range);
      }
}

}  // namespace
