// Runs a histogram on the GPU from host data, with poisoned outputs that reach past the bins, and
// compares with bkt::ref: counts exactly, weighted sums within the reordering error of doubles.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "bkt/histogram.cuh"
#include "bkt/ref/multisplit.hpp"
#include "checks.hpp"
#include "device_run.hpp"

namespace bkt::test {

/// Poisoned elements past the last bin.
inline constexpr std::int64_t bin_margin = 19;

/// Runs `call(d_data, d_counts, d_outside)` (d_outside null unless `with_outside`) and compares the
/// counts and the outside count with bkt::ref::histogram under `host_fn`.
template <class T, class HostFn, class Call>
void check_counts(const std::vector<T>& data, int bins, const HostFn& host_fn, bool with_outside, Call call,
                  cudaStream_t stream) {
  std::vector<std::int64_t> want(static_cast<std::size_t>(bins));
  const std::int64_t want_outside = bkt::ref::histogram<T>(data, want, host_fn);
  auto d_data = bkt::to_device<T>(data, stream);
  auto counts = poisoned_buffer<std::int64_t>(bins + bin_margin, stream);
  auto outside = poisoned_buffer<std::int64_t>(1, stream);
  call(std::span<const T>(d_data.span()), counts.span().first(bins), with_outside ? outside.data() : nullptr);
  const auto got = to_host(counts);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << [&] {
    for (int b = 0; b < bins; ++b)
      if (want[b] != got[b]) return "bin " + std::to_string(b) + " of " + std::to_string(bins) + ": want " +
                                    std::to_string(want[b]) + ", got " + std::to_string(got[b]);
    return std::string();
  }();
  EXPECT_TRUE(poison_intact<std::int64_t>(std::span<const std::int64_t>(got).subspan(bins))) << "written past the bins";
  if (with_outside) EXPECT_EQ(to_host(outside)[0], want_outside) << "outside";
  else EXPECT_TRUE(poison_intact<std::int64_t>(to_host(outside))) << "d_outside was null";
}

/// Weighted: sums[b] within 1e-9 of the sum of |w| in bin b (the reordering error of adding up to
/// 10^7 doubles is below (n - 1) * 2^-53 of it), and likewise the outside sum.
template <class T, class W, class HostFn, class Call>
void check_sums(const std::vector<T>& data, const std::vector<W>& weights, int bins, const HostFn& host_fn,
                bool with_outside, Call call, cudaStream_t stream) {
  std::vector<double> want(static_cast<std::size_t>(bins) + 1), magnitude(static_cast<std::size_t>(bins) + 1);
  want[bins] = bkt::ref::histogram<T, W>(data, weights, std::span<double>(want).first(bins), host_fn);
  for (std::size_t i = 0; i < data.size(); ++i)
    magnitude[bkt::ref::clamped_bucket(host_fn, data[i], bins + 1)] += std::abs(static_cast<double>(weights[i]));
  auto d_data = bkt::to_device<T>(data, stream);
  auto d_weights = bkt::to_device<W>(weights, stream);
  auto sums = poisoned_buffer<double>(bins + bin_margin, stream);
  auto outside = poisoned_buffer<double>(1, stream);
  call(std::span<const T>(d_data.span()), std::span<const W>(d_weights.span()), sums.span().first(bins),
       with_outside ? outside.data() : nullptr);
  auto got = to_host(sums);
  EXPECT_TRUE(poison_intact<double>(std::span<const double>(got).subspan(bins))) << "written past the bins";
  got.resize(static_cast<std::size_t>(bins) + 1);
  got[bins] = to_host(outside)[0];
  for (int b = 0; b <= bins; ++b) {
    if (b == bins && !with_outside) {
      EXPECT_TRUE(poison_intact<double>(std::span<const double>(&got[b], 1))) << "d_outside was null";
      break;
    }
    ASSERT_LE(std::abs(got[b] - want[b]), 1e-9 * magnitude[b])
        << (b == bins ? std::string("outside") : "bin " + std::to_string(b)) << ": want " << want[b] << ", got "
        << got[b] << " (sum of |w| " << magnitude[b] << ")";
  }
}

/// histogram_even over [lo, hi] with `bins` bins, against the reference.
template <class T>
void check_even(const std::vector<T>& data, histogram_level<T> lo, histogram_level<T> hi, int bins, bool with_outside,
                workspace& ws, cudaStream_t stream, edge_precision precision = edge_precision::f64) {
  check_counts<T>(data, bins, bkt::even_bins<T>::make(lo, hi, bins, precision), with_outside,
                  [&](std::span<const T> d_data, std::span<std::int64_t> counts, std::int64_t* outside) {
                    bkt::histogram_even<T>(d_data, counts, lo, hi, precision, outside, ws, stream);
                  },
                  stream);
}

/// histogram_range between `edges` (host memory; copied to the device here).
template <class T>
void check_range(const std::vector<T>& data, const std::vector<T>& edges, bool with_outside, workspace& ws,
                 cudaStream_t stream) {
  const int bins = static_cast<int>(edges.size()) - 1;
  auto d_edges = bkt::to_device<T>(edges, stream);
  check_counts<T>(data, bins, bkt::range_bins<T>{edges.data(), bins}, with_outside,
                  [&](std::span<const T> d_data, std::span<std::int64_t> counts, std::int64_t* outside) {
                    bkt::histogram_range<T>(d_data, d_edges.span(), counts, outside, ws, stream);
                  },
                  stream);
}

}  // namespace bkt::test
