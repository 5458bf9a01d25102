// The plane summaries' trip between ranks (plane_ranks_summaries.cpp): each plane's figures as
// bytes, then its noise cycles. With one rank the trip is the byte layout's round trip, which
// every rank count shares.
#include <gtest/gtest.h>

#include <vector>

#include "plane_ranks.hpp"

namespace bkt::clean {
namespace {

plane_summary summary_of(std::int64_t plane, std::size_t cycles) {
  plane_summary summary;
  summary.plane = plane;
  summary.iterations = 100 + plane;
  summary.major_cycles = 3;
  summary.model_flux = 1.25 * static_cast<double>(plane + 1);
  summary.peak_residual = 0.002;
  summary.reason = plane % 2 == 0 ? stop_reason::threshold : stop_reason::niter;
  summary.threshold = 0.0015;
  if (cycles > 0) summary.noise_sigma = 0.0015;
  summary.fitted_beam = beam{3.5, 2.25, 0.5};
  for (std::size_t i = 0; i < cycles; ++i)
    summary.noise_cycles.push_back({0.003 / static_cast<double>(i + 1), 0.0015, static_cast<std::int64_t>(10 * i),
                                    i + 1 == cycles});
  return summary;
}

TEST(plane_summaries, travel_with_their_noise_cycles) {
  bkt::apps::rank_context ranks;  // one rank: no launcher
  ASSERT_EQ(ranks.size(), 1);
  std::vector<plane_summary> summaries{summary_of(0, 4), summary_of(1, 0), summary_of(2, 1)};
  const std::vector<plane_summary> sent = summaries;
  gather_plane_summaries(summaries, ranks);  // rank 0's entries rewritten from the gathered bytes
  ASSERT_EQ(summaries.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(summaries[i].plane, sent[i].plane);
    EXPECT_EQ(summaries[i].iterations, sent[i].iterations);
    EXPECT_EQ(summaries[i].reason, sent[i].reason);
    EXPECT_EQ(summaries[i].model_flux, sent[i].model_flux);
    EXPECT_EQ(summaries[i].noise_sigma, sent[i].noise_sigma);
    ASSERT_TRUE(summaries[i].fitted_beam.has_value());
    EXPECT_EQ(summaries[i].fitted_beam->minor_fwhm, 2.25);
    ASSERT_EQ(summaries[i].noise_cycles.size(), sent[i].noise_cycles.size());
    for (std::size_t c = 0; c < sent[i].noise_cycles.size(); ++c) {
      EXPECT_EQ(summaries[i].noise_cycles[c].sigma, sent[i].noise_cycles[c].sigma);
      EXPECT_EQ(summaries[i].noise_cycles[c].iterations, sent[i].noise_cycles[c].iterations);
      EXPECT_EQ(summaries[i].noise_cycles[c].masked, sent[i].noise_cycles[c].masked);
    }
  }
}

}  // namespace
}  // namespace bkt::clean
