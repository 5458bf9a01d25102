// Named behaviours of GPU histograms: weighted sums, all-equal and Zipf inputs on every counting
// path, the host API, a fixed workspace, and more than 2^31 elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "bkt/histogram.cuh"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/histogram_run.cuh"

namespace {

using namespace bkt::test;

/// Weights of both signs over 20 binary orders of magnitude.
template <class W>
std::vector<W> random_weights(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<W> weights(static_cast<std::size_t>(n));
  for (W& w : weights) w = static_cast<W>(std::ldexp(unit(rng), static_cast<int>(rng() % 20)));
  return weights;
}

template <class T, class W>
void check_weighted(bkt::workspace& ws, cudaStream_t stream) {
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto [lo, hi] = histogram_limits<T>();
  for (const int bins : {1, 100, 4096, 100000}) {
    const auto edges = sorted_splitters<T>(bins + 1, s + bins);
    for (const std::int64_t n : sizes())
      for (const auto& gen : sweep_generators<T>()) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " bins=" + std::to_string(bins));
        const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
        const auto weights = random_weights<W>(n, s + 1);
        const bool with_outside = bins != 4096;
        check_sums<T, W>(data, weights, bins, bkt::even_bins<T>::make(lo, hi, bins), with_outside,
                         [&](std::span<const T> d_data, std::span<const W> d_weights, std::span<double> sums,
                             double* outside) {
                           bkt::histogram_even<T, W>(d_data, d_weights, sums, lo, hi, outside, ws, stream);
                         },
                         stream);
        auto d_edges = bkt::to_device<T>(edges, stream);
        check_sums<T, W>(data, weights, bins, bkt::range_bins<T>{edges.data(), bins}, with_outside,
                         [&](std::span<const T> d_data, std::span<const W> d_weights, std::span<double> sums,
                             double* outside) {
                           bkt::histogram_range<T, W>(d_data, d_weights, d_edges.span(), sums, outside, ws, stream);
                         },
                         stream);
        if (::testing::Test::HasFailure()) return;
      }
  }
}

// Float and double weights, summed in double; one test per pairing so that shards share the work.
#define BKT_WEIGHTED_TEST(name, T, W) \
  TEST(histogram_weighted, name) {    \
    BKT_REQUIRE_GPU();                \
    test_stream stream;               \
    bkt::workspace ws;                \
    check_weighted<T, W>(ws, stream); \
  }
BKT_WEIGHTED_TEST(uint8_data_float_weights, std::uint8_t, float)
BKT_WEIGHTED_TEST(int16_data_float_weights, std::int16_t, float)
BKT_WEIGHTED_TEST(int32_data_double_weights, std::int32_t, double)
BKT_WEIGHTED_TEST(float_data_float_weights, float, float)
BKT_WEIGHTED_TEST(double_data_double_weights, double, double)
#undef BKT_WEIGHTED_TEST

/// Every element in one bin: the worst contention on each counting path. Unit weights sum exactly.
TEST(histogram_cases, all_equal_data_lands_in_one_bin) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 20000 : 3'000'017;
  for (const int bins : {1, 2, 64, 65, 256, 4096, 4097, 100000}) {
    SCOPED_TRACE("bins=" + std::to_string(bins));
    const int bin = bins / 3;
    const std::vector<float> data(static_cast<std::size_t>(n), static_cast<float>(bin) + 0.5f);  // [0, bins), unit bins
    check_even<float>(data, 0.0f, static_cast<float>(bins), bins, true, ws, stream);
    auto d_data = bkt::to_device<float>(data, stream);
    auto counts = poisoned_buffer<std::int64_t>(bins, stream);
    auto outside = poisoned_buffer<std::int64_t>(1, stream);
    bkt::histogram_even<float>(d_data.span(), counts.span(), 0.0f, static_cast<float>(bins), outside.data(), ws, stream);
    std::vector<std::int64_t> want(static_cast<std::size_t>(bins), 0);
    want[bin] = n;
    EXPECT_EQ(to_host(counts), want);
    EXPECT_EQ(bkt::read_sync(outside.data(), stream), 0);

    const std::vector<double> ones(data.size(), 1.0);
    auto d_ones = bkt::to_device<double>(ones, stream);
    bkt::device_buffer<double> sums(bins, stream);
    bkt::device_buffer<double> weight_outside(1, stream);
    bkt::histogram_even<float, double>(d_data.span(), d_ones.span(), sums.span(), 0.0f, static_cast<float>(bins),
                                       weight_outside.data(), ws, stream);
    std::vector<double> want_sums(static_cast<std::size_t>(bins), 0.0);
    want_sums[bin] = static_cast<double>(n);
    EXPECT_EQ(to_host(sums), want_sums) << "integer partial sums are exact in any order";
    EXPECT_EQ(bkt::read_sync(weight_outside.data(), stream), 0.0);
  }
}

TEST(histogram_cases, zipf_data_one_bin_per_rank) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto gens = generators<std::uint16_t>();
  const auto zipf = *std::find_if(gens.begin(), gens.end(), [](const auto& g) { return g.name == "zipf"; });
  for (const std::int64_t n : sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto data = zipf.make(n, s + static_cast<std::uint64_t>(n));  // ranks 1..1000
    check_even<std::uint16_t>(data, 1, 1001, 1000, true, ws, stream);    // bin = rank - 1
    check_even<std::uint16_t>(data, 1, 65, 64, true, ws, stream);        // the register path
    check_even<std::uint16_t>(data, 0, 50000, 50000, true, ws, stream);  // global atomics, one hot bin
  }
}

/// Edges one ulp apart far from zero: the range cells are finer than the data's precision, so
/// many cells round to the same value. Every element sits on or next to an edge.
TEST(histogram_cases, edges_closer_than_the_cells_resolve) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  std::mt19937_64 rng(s);
  auto run = [&](auto origin) {
    using T = decltype(origin);
    std::vector<T> edges{origin};
    for (int i = 0; i < 300; ++i) {
      T next = std::nextafter(edges.back(), std::numeric_limits<T>::infinity());
      if (rng() % 4 == 0) next = std::nextafter(next, std::numeric_limits<T>::infinity());  // uneven widths
      edges.push_back(rng() % 8 == 0 ? edges.back() : next);                                 // and empty bins
    }
    std::vector<T> data(100003);
    for (T& x : data) {
      const T edge = edges[rng() % edges.size()];
      const int step = static_cast<int>(rng() % 3);  // the edge, one ulp below or one above
      x = step == 0 ? edge : std::nextafter(edge, step == 1 ? -std::numeric_limits<T>::infinity()
                                                            : std::numeric_limits<T>::infinity());
    }
    check_range<T>(data, edges, true, ws, stream);
  };
  for (const float origin : {1.0e7f, -3.5e4f, 1.0f}) run(origin);
  for (const double origin : {1.0e15, -2.0e-3}) run(origin);
}

TEST(histogram_cases, host_api_on_gpu_matches_the_cpu) {
  BKT_REQUIRE_GPU();
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto edges = sorted_splitters<double>(1001, s);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{100003}})
    for (const auto& gen : sweep_generators<double>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
      for (const int bins : {7, 5000}) {
        std::vector<std::int64_t> cpu(bins), gpu(bins, -1);
        using bkt::host::backend;
        EXPECT_EQ(bkt::host::histogram_even<double>(data, gpu, -5e5, 5e5, backend::gpu),
                  bkt::host::histogram_even<double>(data, cpu, -5e5, 5e5, backend::cpu));
        EXPECT_EQ(gpu, cpu);
      }
      std::vector<std::int64_t> cpu(1000), gpu(1000, -1);
      using bkt::host::backend;
      EXPECT_EQ(bkt::host::histogram_range<double>(data, edges, gpu, backend::gpu),
                bkt::host::histogram_range<double>(data, edges, cpu, backend::cpu));
      EXPECT_EQ(gpu, cpu);
    }
}

TEST(histogram_cases, fixed_workspace_of_the_stated_size_is_enough) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  const auto data = generators<std::int32_t>()[0].make(quick_mode() ? 20000 : 2'000'003, seed());
  for (const int bins : {10, 4096, 100000}) {
    for (const bool weighted : {false, true}) {
      SCOPED_TRACE("bins=" + std::to_string(bins) + (weighted ? " weighted" : ""));
      const std::size_t bytes = bkt::histogram_workspace_bytes(bins, weighted);
      bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(bytes), stream);
      bkt::workspace ws(memory.data(), bytes);
      const auto limits = histogram_limits<std::int32_t>();
      const auto bin_of = bkt::even_bins<std::int32_t>::make(limits.first, limits.second, bins);
      for (int repeat = 0; repeat < 2; ++repeat) {
        if (!weighted) {
          check_counts<std::int32_t>(data, bins, bin_of, true,
                                     [&](std::span<const std::int32_t> d, std::span<std::int64_t> c, std::int64_t* o) {
                                       bkt::histogram_even<std::int32_t>(d, c, limits.first, limits.second, o, ws, stream);
                                     },
                                     stream);
        } else {
          const auto weights = random_weights<float>(static_cast<std::int64_t>(data.size()), seed());
          check_sums<std::int32_t, float>(
              data, weights, bins, bin_of, true,
              [&](std::span<const std::int32_t> d, std::span<const float> w, std::span<double> sums, double* o) {
                bkt::histogram_even<std::int32_t, float>(d, w, sums, limits.first, limits.second, o, ws, stream);
              },
              stream);
        }
      }
    }
  }
}

/// More than 2^31 one-byte elements: 64-bit counts all the way through, against a CPU count.
TEST(histogram_cases, more_than_two_to_the_31_elements) {
  BKT_REQUIRE_GPU();
  if (quick_mode()) GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  const std::int64_t n = (std::int64_t{1} << 31) + 4097;
  test_stream stream;
  bkt::workspace ws;
  std::vector<std::uint8_t> data(static_cast<std::size_t>(n));
  std::array<std::int64_t, 256> per_value{};
  for (std::int64_t i = 0; i < n; ++i) ++per_value[data[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13)];
  try {
    auto d_data = bkt::to_device<std::uint8_t>(data, stream);
    const auto even = bkt::even_bins<std::uint8_t>::make(0, 250, 50);  // 251..255 outside
    const std::vector<std::uint8_t> edges = {3, 10, 100, 200, 255};     // 0..2 outside, 255 in the last bin
    auto d_edges = bkt::to_device<std::uint8_t>(edges, stream);
    for (const bool range : {false, true}) {
      SCOPED_TRACE(range ? "range" : "even");
      const int bins = range ? 4 : 50;
      std::vector<std::int64_t> want(static_cast<std::size_t>(bins) + 1, 0);
      for (int v = 0; v < 256; ++v)
        want[range ? bkt::range_bins<std::uint8_t>{edges.data(), 4}(static_cast<std::uint8_t>(v))
                   : even(static_cast<std::uint8_t>(v))] += per_value[v];
      auto counts = poisoned_buffer<std::int64_t>(bins, stream);
      bkt::device_buffer<std::int64_t> outside(1, stream);
      if (range) bkt::histogram_range<std::uint8_t>(d_data.span(), d_edges.span(), counts.span(), outside.data(), ws, stream);
      else bkt::histogram_even<std::uint8_t>(d_data.span(), counts.span(), 0, 250, outside.data(), ws, stream);
      EXPECT_EQ(to_host(counts), std::vector<std::int64_t>(want.begin(), want.end() - 1));
      EXPECT_EQ(bkt::read_sync(outside.data(), stream), want.back());
    }
  } catch (const bkt::error& e) {
    if (e.out_of_memory()) GTEST_SKIP() << "not enough device memory: " << e.what();
    throw;
  }
}

}  // namespace
