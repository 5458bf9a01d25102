// What the tool should report, computed the plainest way: one loop over the values with the
// library's own bin rule (bkt::even_bins, whose edges are NumPy's) or a linear search of the edges
// with the last bin closed, as numpy.histogram has it.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bkt/buckets.hpp"

namespace histogram_test {

struct expected_histogram {
  std::vector<double> values;  // counts or weight sums per bin
  double below = 0, above = 0, nan = 0;
};

/// Even bins of the data's own type T; weights empty for counts. `precision`: edge_precision::data
/// for a range the tool took from the data (NumPy's a.min() and a.max()).
template <class T>
expected_histogram expect_even(std::span<const T> data, bkt::histogram_level<T> lo, bkt::histogram_level<T> hi,
                               int bins, std::span<const double> weights = {},
                               bkt::edge_precision precision = bkt::edge_precision::f64) {
  const auto bin_of = bkt::even_bins<T>::make(lo, hi, bins, precision);
  const double first = static_cast<double>(bin_of.edge(0));
  expected_histogram want;
  want.values.assign(static_cast<std::size_t>(bins), 0.0);
  for (std::size_t index = 0; index < data.size(); ++index) {
    const double weight = weights.empty() ? 1.0 : weights[index];
    const T x = data[index];
    const int bin = bin_of(x);
    if (bin < bins) want.values[static_cast<std::size_t>(bin)] += weight;
    else if (std::isnan(static_cast<double>(x))) want.nan += weight;
    else if (static_cast<double>(x) < first) want.below += weight;
    else want.above += weight;
  }
  return want;
}

/// Bins [edges[i], edges[i + 1]), the last [edges[n - 1], edges[n]], found by a linear search in double.
inline expected_histogram expect_edges(std::span<const double> data, std::span<const double> edges,
                                       std::span<const double> weights = {}) {
  expected_histogram want;
  want.values.assign(edges.size() - 1, 0.0);
  for (std::size_t index = 0; index < data.size(); ++index) {
    const double weight = weights.empty() ? 1.0 : weights[index];
    const double x = data[index];
    if (std::isnan(x)) want.nan += weight;
    else if (x < edges.front()) want.below += weight;
    else if (x > edges.back()) want.above += weight;
    else
      for (std::size_t bin = edges.size() - 1; bin-- > 0;)  // the last bin whose lower edge is <= x
        if (x >= edges[bin]) {
          want.values[bin] += weight;
          break;
        }
  }
  return want;
}

/// The tool's JSON holds exactly these bins and outside amounts ("counts", or "sums" when weighted).
inline void expect_matches(const nlohmann::json& got, const expected_histogram& want) {
  const bool weighted = got.contains("sums");
  const auto& values = weighted ? got["sums"] : got["counts"];
  ASSERT_EQ(values.size(), want.values.size()) << got.dump();
  for (std::size_t bin = 0; bin < want.values.size(); ++bin)
    EXPECT_EQ(values[bin].get<double>(), want.values[bin]) << "bin " << bin;
  EXPECT_EQ(got["outside"]["below"].get<double>(), want.below);
  EXPECT_EQ(got["outside"]["above"].get<double>(), want.above);
  EXPECT_EQ(got["outside"]["nan"].get<double>(), want.nan);
}

}  // namespace histogram_test
