// The histograms' bins on the CPU (bkt::even_bins, bkt::range_bins, hence bkt::ref::histogram and
// the host API's CPU path) against numpy.histogram: against its rule written out by hand
// (support/numpy_rule.hpp) on every edge and its neighbours one ulp either way, for f32, f64 and
// each integer type; and against NumPy's own answers in data/histogram-numpy-cases.txt.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bkt/buckets.hpp"
#include "bkt/detail/histogram/arguments.hpp"
#include "bkt/error.hpp"
#include "bkt/histogram.hpp"
#include "bkt/ref/multisplit.hpp"
#include "support/generators.hpp"
#include "support/numpy_cases.hpp"
#include "support/numpy_rule.hpp"

namespace {

using namespace bkt::test;
using bkt::edge_precision;

template <class T>
using limits = std::numeric_limits<T>;

template <class T>
bool same_bits(T a, T b) {
  if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
  else return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// Each edge and its float neighbours, the bounds as given and theirs, and special values.
template <class T>
std::vector<T> float_probes(const std::vector<T>& edges, double lo, double hi) {
  std::vector<T> probes;
  auto around = [&](T x) {
    probes.push_back(x);
    probes.push_back(std::nextafter(x, -limits<T>::infinity()));
    probes.push_back(std::nextafter(x, limits<T>::infinity()));
  };
  for (const T edge : edges) around(edge);
  around(static_cast<T>(lo));
  around(static_cast<T>(hi));
  for (const T x : {limits<T>::quiet_NaN(), -limits<T>::quiet_NaN(), limits<T>::infinity(), -limits<T>::infinity(),
                    T(0), -T(0), limits<T>::denorm_min(), -limits<T>::denorm_min(), limits<T>::min(),
                    limits<T>::max(), limits<T>::lowest()})
    probes.push_back(x);
  return probes;
}

/// bkt::ref::histogram under `bin_of` equals the hand-rolled count over `want_edges`.
template <class T, class E, class BinFn>
void expect_same_histogram(const std::vector<T>& data, const std::vector<E>& want_edges, const BinFn& bin_of) {
  const auto want = numpy_rule::count<T, E>(data, want_edges);
  std::vector<std::int64_t> counts(want.counts.size(), -1);
  const std::int64_t outside = bkt::ref::histogram<T>(data, counts, bin_of);
  EXPECT_EQ(outside, want.outside) << "outside";
  EXPECT_EQ(counts, want.counts);
}

/// even_bins<T> over [lo, hi]: NumPy's edges bit for bit, NumPy's bin for every probe and for
/// `random` values drawn from the range, and bkt::ref::histogram's counts and outside count.
template <class T>
void check_float_even(double lo, double hi, int bins, edge_precision precision, int random, std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(sizeof(T) == 4 ? "f32" : "f64") + " [" + std::to_string(lo) + ", " + std::to_string(hi) +
               "] bins " + std::to_string(bins) + (precision == edge_precision::data ? ", edges in T" : ", edges in f64"));
  const auto want_edges = std::is_same_v<T, float> && precision == edge_precision::data
                              ? numpy_rule::linspace_edges<T, float>(static_cast<float>(lo), static_cast<float>(hi), bins)
                              : numpy_rule::linspace_edges<T, double>(lo, hi, bins);
  const auto b = bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(bins), lo, hi, precision);
  ASSERT_EQ(b.num_buckets(), bins + 1);
  for (int i = 0; i <= bins; ++i)
    ASSERT_TRUE(same_bits(b.edge(i), want_edges[static_cast<std::size_t>(i)]))
        << "edge " << i << ": " << b.edge(i) << " against NumPy's " << want_edges[static_cast<std::size_t>(i)];
  auto data = float_probes<T>(want_edges, lo, hi);
  std::uniform_real_distribution<double> uniform(lo, hi);
  for (int i = 0; i < random; ++i) data.push_back(static_cast<T>(uniform(rng)));
  for (const T x : data) {
    const int want = numpy_rule::bin_of<T, T>(want_edges, x);
    ASSERT_EQ(b(x), want < 0 ? bins : want) << "x = " << x << " (" << std::hexfloat << x << std::defaultfloat << ")";
  }
  expect_same_histogram<T, T>(data, want_edges, b);
}

template <class T>
void check_floats() {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  const std::vector<std::pair<double, double>> ranges = {
      {-3, 3}, {0, 1}, {1e-30, 1}, {0.1, 0.7}, {-5e5, 5e5}, {-1e-3, 2.5e-3}, {1e6, 1e6 + 1}, {-7.25, -0.5}};
  for (const auto& [lo, hi] : ranges)
    for (const int bins : {1, 2, 3, 7, 10, 100, 1000, 4096})
      for (const auto precision : {edge_precision::f64, edge_precision::data}) {
        if (sizeof(T) == 4 && lo == 1e6 && bins > 10) continue;  // wider than f32's resolution there
        check_float_even<T>(lo, hi, bins, precision, 200, rng);
        if (::testing::Test::HasFatalFailure()) return;
      }
  // 2^20 bins: the estimate always checked against the edges, which lie a few ulps apart.
  for (const auto precision : {edge_precision::f64, edge_precision::data})
    check_float_even<T>(-3, 3, 1 << 20, precision, 1000, rng);
}

/// Where the edges are exact (a power-of-two step from a multiple of it: [0, 1] in 2^k bins,
/// [-128, 128] in 256) the quick estimate is sure of every value, edges and their neighbours
/// included, and right; where they are not (100 bins of [0, 1]) it leaves values on edges to the
/// edges.
template <class T>
void check_exact_edges(std::mt19937_64& rng) {
  struct range_case {
    double lo, hi;
    int bins;
    bool exact;
  };
  const std::vector<range_case> cases = {{0, 1, 1, true},       {0, 1, 256, true},        {0, 256, 256, true},
                                         {0, 256, 16, true},    {0, 0x1p-120, 8, true},   {0, 1, 1 << 20, true},
                                         {0, 1, 100, false},    {0, 100, 100, true},      {0, 1000, 100, false},
                                         {-1, 1, 256, true},    {0, 3, 3, true},          {0, 1, 3, false},
                                         {-128, 128, 256, true}, {-0.5, 255.5, 256, true}, {0.25, 0.75, 8, true},
                                         {0.1, 0.6, 4, false},  {-3, 3, 100, false},      {1e6, 1e6 + 64, 64, true}};
  for (const auto& c : cases)
    for (const auto precision : {edge_precision::f64, edge_precision::data}) {
      SCOPED_TRACE("[" + std::to_string(c.lo) + ", " + std::to_string(c.hi) + "] bins " + std::to_string(c.bins));
      const auto b =
          bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(c.bins), c.lo, c.hi, precision);
      std::vector<T> edges(static_cast<std::size_t>(c.bins) + 1);
      for (int i = 0; i <= c.bins; ++i) edges[static_cast<std::size_t>(i)] = b.edge(i);
      auto data = float_probes<T>(edges, c.lo, c.hi);
      std::uniform_real_distribution<double> uniform(c.lo, c.hi);
      for (int i = 0; i < 1000; ++i) data.push_back(static_cast<T>(uniform(rng)));
      bool all_sure = true;
      for (const T x : data) {
        int bin = -1;
        const bool sure = b.quick(x, bin);
        all_sure &= sure;
        const int want = numpy_rule::bin_of<T, T>(edges, x);
        if (sure) ASSERT_EQ(bin, want < 0 ? c.bins : want) << std::hexfloat << "x = " << x;
      }
      EXPECT_EQ(all_sure, c.exact) << (c.exact ? "an exact range left a value to the edges"
                                               : "a rounded range trusted the estimate on an edge");
    }
}

TEST(even_bins_numpy_rule, quick_estimate_on_exact_and_rounded_edges) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  check_exact_edges<float>(rng);
  check_exact_edges<double>(rng);
}

TEST(even_bins_numpy_rule, f32_every_edge_and_its_neighbours) { check_floats<float>(); }
TEST(even_bins_numpy_rule, f64_every_edge_and_its_neighbours) { check_floats<double>(); }

/// Random ranges and bin counts, wide and narrow, edges in both precisions.
template <class T>
void check_random_float_ranges() {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const double scale = std::pow(10.0, std::uniform_int_distribution<int>(-20, 20)(rng));
    double lo = std::uniform_real_distribution<double>(-1, 1)(rng) * scale;
    double hi = lo + std::uniform_real_distribution<double>(0, 2)(rng) * scale * std::pow(10.0, -static_cast<double>(rng() % 6));
    const int bins = 1 + static_cast<int>(rng() % (std::uint64_t{1} << (rng() % 15)));
    if (!(static_cast<T>(lo) < static_cast<T>(hi))) continue;
    for (const auto precision : {edge_precision::f64, edge_precision::data}) {
      try {
        (void)bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(bins), lo, hi, precision);
      } catch (const bkt::error&) {
        continue;  // bins narrower than T resolves: NumPy refuses them too (tested below)
      }
      check_float_even<T>(lo, hi, bins, precision, 50, rng);
      if (::testing::Test::HasFatalFailure()) return;
      ++checked;
    }
  }
  EXPECT_GT(checked, 300) << "most random ranges must be binnable";
}

TEST(even_bins_numpy_rule, random_float_ranges) {
  check_random_float_ranges<float>();
  check_random_float_ranges<double>();
}

/// Every value of narrow ranges, not only those beside an edge: where the estimate takes its
/// shortcut (no edge computed far inside a bin) it must agree with the edges too.
template <class T>
void check_every_value(double lo, double hi) {
  for (const int bins : {3, 7, 100, 1000})
    for (const auto precision : {edge_precision::f64, edge_precision::data}) {
      SCOPED_TRACE("[" + std::to_string(lo) + ", " + std::to_string(hi) + "] bins " + std::to_string(bins));
      bkt::even_bins<T> b;
      try {
        b = bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(bins), lo, hi, precision);
      } catch (const bkt::error&) {
        continue;  // narrower than T resolves
      }
      std::vector<T> edges(static_cast<std::size_t>(bins) + 1);
      for (int i = 0; i <= bins; ++i) edges[static_cast<std::size_t>(i)] = b.edge(i);
      const T last = std::nextafter(static_cast<T>(hi), limits<T>::infinity());
      for (T x = std::nextafter(static_cast<T>(lo), -limits<T>::infinity()); x <= last;
           x = std::nextafter(x, limits<T>::infinity())) {
        const int want = numpy_rule::bin_of<T, T>(edges, x);
        ASSERT_EQ(b(x), want < 0 ? bins : want) << std::hexfloat << "x = " << x;
      }
    }
}

TEST(even_bins_numpy_rule, every_value_of_narrow_ranges) {
  check_every_value<float>(0.1, 0.1 + 0x1p-12);  // 2^15 floats
  check_every_value<float>(-3.0, -3.0 + 0x1p-8);
  check_every_value<float>(1e6, 1e6 + 64);
  check_every_value<float>(-0x1p-137, 0x1p-137);  // subnormals
  check_every_value<double>(1.0, 1.0 + 0x1p-40);  // 2^12 doubles
  check_every_value<double>(-0x1p-1060, 0x1p-1062);
}

/// The case at test size: normal f32 data, 100 bins over [-3, 3], every bin as NumPy's.
TEST(even_bins_numpy_rule, normal_f32_100_bins_agree_with_numpy_rule) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  std::normal_distribution<float> normal;
  const auto edges = numpy_rule::linspace_edges<float, double>(-3, 3, 100);
  std::vector<float> data(std::size_t{1} << 20);
  for (float& x : data) x = normal(rng);
  for (const float edge : edges)  // and, as 2^26 draws would, values on and beside every edge
    for (int copies = 0; copies < 3; ++copies)
      data.insert(data.end(), {edge, std::nextafter(edge, -4.0f), std::nextafter(edge, 4.0f)});
  expect_same_histogram<float, float>(data, edges, bkt::even_bins<float>::make(-3, 3, 100));
  std::vector<std::int64_t> counts(100);
  const std::int64_t outside = bkt::host::histogram_even<float>(data, counts, -3, 3, bkt::host::backend::cpu);
  const auto want = numpy_rule::count<float, float>(data, edges);
  EXPECT_EQ(counts, want.counts);
  EXPECT_EQ(outside, want.outside);
}

TEST(even_bins_numpy_rule, last_bin_is_closed_and_nan_is_outside) {
  const auto unit = bkt::even_bins<float>::make(0, 100, 100);
  for (int x = 0; x < 100; ++x) EXPECT_EQ(unit(static_cast<float>(x)), x);
  EXPECT_EQ(unit(100.0f), 99) << "x == hi is in the last bin, as in NumPy";
  EXPECT_EQ(unit(std::nextafter(100.0f, 200.0f)), 100);
  EXPECT_EQ(unit(-0.0f), 0) << "-0.0 equals lo = 0";
  EXPECT_EQ(unit(std::nextafter(0.0f, -1.0f)), 100);
  EXPECT_EQ(unit(limits<float>::quiet_NaN()), 100);
  EXPECT_EQ(unit(-limits<float>::quiet_NaN()), 100);
  EXPECT_EQ(unit(limits<float>::infinity()), 100);
  const auto thirds = bkt::even_bins<double>::make(0, 1, 3);
  EXPECT_EQ(thirds(1.0), 2);
  EXPECT_EQ(thirds(std::nextafter(1.0, 0.0)), 2);
  EXPECT_EQ(thirds(thirds.edge(1)), 1);
  EXPECT_EQ(thirds(std::nextafter(thirds.edge(1), 0.0)), 0);
  const auto bytes = bkt::even_bins<std::uint8_t>::make(0, 255, 255);
  EXPECT_EQ(bytes(255), 254) << "255 on the closed upper end";
  EXPECT_EQ(bytes(254), 254);
}

/// Values on and one either side of every edge, the bounds and the type's extremes, against
/// NumPy's rule for integers: double edges, each value compared exactly.
template <class T>
void check_integer_even(std::int64_t lo, std::int64_t hi, int bins) {
  SCOPED_TRACE("[" + std::to_string(lo) + ", " + std::to_string(hi) + "] bins " + std::to_string(bins));
  const auto want_edges = numpy_rule::linspace_edges<double, double>(static_cast<double>(lo), static_cast<double>(hi), bins);
  const auto b = bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(bins), lo, hi);
  for (int i = 0; i <= bins; ++i)
    ASSERT_TRUE(same_bits(b.edge(i), want_edges[static_cast<std::size_t>(i)])) << "edge " << i;
  std::vector<T> data;
  auto add = [&](double x) {
    if (x >= static_cast<double>(limits<T>::lowest()) && x <= static_cast<double>(limits<T>::max()))
      data.push_back(static_cast<T>(x));
  };
  // Every edge; of 2^24 bins, the first and last thousand and every 997th.
  for (std::size_t i = 0; i < want_edges.size(); ++i) {
    if (bins > 65536 && i > 1000 && i + 1000 < want_edges.size() && i % 997 != 0) continue;
    const double edge = want_edges[i];
    for (const double x : {std::floor(edge) - 1, std::floor(edge), std::floor(edge) + 1, std::ceil(edge) + 1}) add(x);
  }
  for (const double x : {static_cast<double>(lo) - 1, static_cast<double>(hi) + 1, static_cast<double>(limits<T>::lowest()),
                         static_cast<double>(limits<T>::max())})
    add(x);
  for (const T x : data) {
    const int want = numpy_rule::bin_of<double, double>(want_edges, static_cast<double>(x));
    ASSERT_EQ(b(x), want < 0 ? bins : want) << "x = " << +x;
  }
  const std::vector<double> wide(data.begin(), data.end());
  const auto want = numpy_rule::count<double, double>(wide, want_edges);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(bins));
  EXPECT_EQ(bkt::ref::histogram<T>(data, counts, b), want.outside);
  EXPECT_EQ(counts, want.counts);
}

template <class T>
void check_integers() {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  const auto lowest = static_cast<std::int64_t>(limits<T>::lowest()), highest = static_cast<std::int64_t>(limits<T>::max());
  for (const int bins : {1, 2, 3, 7, 100, 255, 256, 1000, 4096}) {
    check_integer_even<T>(lowest, highest, bins);
    check_integer_even<T>(lowest, highest + 1, bins);
    check_integer_even<T>(0, 10, bins);
    check_integer_even<T>(0, 14, bins);
    check_integer_even<T>(-3, 97, bins);
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (int trial = 0; trial < 300; ++trial) {
    std::int64_t lo = std::uniform_int_distribution<std::int64_t>(lowest - 5, highest + 5)(rng);
    std::int64_t hi = std::uniform_int_distribution<std::int64_t>(lowest - 5, highest + 5)(rng);
    if (lo > hi) std::swap(lo, hi);
    if (lo == hi) continue;
    const int bins = 1 + static_cast<int>(rng() % (std::uint64_t{1} << (rng() % 11)));
    check_integer_even<T>(lo, hi, bins);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(even_bins_numpy_rule, integers_every_edge_and_its_neighbours) {
  check_integers<std::int8_t>();
  check_integers<std::uint8_t>();
  check_integers<std::int16_t>();
  check_integers<std::uint16_t>();
  check_integers<std::int32_t>();
  check_integers<std::uint32_t>();
  // Bounds beyond 32 bits, and 2^24 bins.
  check_integer_even<std::int32_t>(-(std::int64_t{1} << 40), std::int64_t{1} << 40, 7);
  check_integer_even<std::uint32_t>(0, std::int64_t{1} << 32, 1 << 24);
  check_integer_even<std::int32_t>(-1000, 1000, 1 << 24);
  check_integer_even<std::int32_t>(-1000, 1000, 65536);
  check_integer_even<std::uint16_t>(0, 65536, 65536);
}

TEST(even_bins_numpy_rule, integers_follow_numpys_double_edges) {
  // Edge 25 of numpy.linspace(0, 14, 51) is 7.000000000000001: NumPy bins 7 in bin 24, where exact
  // division would say 25.
  const auto b = bkt::even_bins<std::int32_t>::make(0, 14, 50);
  EXPECT_EQ(b.edge(25), 7.000000000000001);
  EXPECT_EQ(b(7), 24);
  EXPECT_EQ(b(8), 28);
  const auto thirds = bkt::even_bins<std::int32_t>::make(0, 10, 3);  // edges 0, 3.33.., 6.66.., 10
  const std::vector<std::int32_t> data = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<std::int64_t> counts(3);
  EXPECT_EQ(bkt::ref::histogram<std::int32_t>(data, counts, thirds), 2);
  EXPECT_EQ(counts, (std::vector<std::int64_t>{4, 3, 4})) << "10 lies in the closed last bin";
}

TEST(even_bins_numpy_rule, refuses_what_numpy_refuses) {
  using bkt::detail::histogram::checked_even_bins;
  // Too many bins for the range: f32 edges would repeat ("Too many bins for data range").
  EXPECT_THROW(checked_even_bins<float>(100, 1.0, 1.0 + 1e-6), bkt::error);
  EXPECT_NO_THROW(checked_even_bins<double>(100, 1.0, 1.0 + 1e-6));
  EXPECT_THROW(checked_even_bins<float>(10, 0.0, std::nan("")), bkt::error);
  EXPECT_THROW(checked_even_bins<double>(10, 0.0, limits<double>::infinity()), bkt::error);
  EXPECT_THROW(checked_even_bins<double>(10, 1.0, 1.0), bkt::error);
  EXPECT_THROW(checked_even_bins<float>(10, 1.0, 1.0 + 1e-9), bkt::error) << "equal once rounded to f32";
  EXPECT_THROW(checked_even_bins<std::int32_t>(10, 5, 5), bkt::error);
  // Bins narrower than half the smallest subnormal (NumPy's step underflows to zero): edges repeat.
  const double tiny = limits<float>::denorm_min();
  EXPECT_THROW(checked_even_bins<float>(2, 0.0, tiny), bkt::error);
  EXPECT_THROW(checked_even_bins<float>(3, 0.0, tiny, edge_precision::data), bkt::error);
  EXPECT_THROW(checked_even_bins<double>(3, 0.0, limits<double>::denorm_min()), bkt::error);
  EXPECT_NO_THROW(checked_even_bins<float>(3, 0.0, 1e-40)) << "subnormal but wide enough";
  EXPECT_THROW(checked_even_bins<std::int32_t>(1 << 24, std::int64_t{1} << 40, (std::int64_t{1} << 40) + 1), bkt::error);
}

TEST(range_bins_numpy_rule, last_edge_closed_duplicates_and_outside) {
  const std::vector<double> edges = {0, 10, 10, 20, 50};
  const bkt::range_bins<double> b{edges.data(), 4};
  EXPECT_EQ(b.num_buckets(), 5);
  const std::vector<std::pair<double, int>> cases = {{-1, 4}, {-0.0, 0}, {0, 0},  {9.999, 0}, {10, 2}, {19, 2},
                                                     {20, 3}, {49.9, 3}, {50, 3}, {50.001, 4}, {1e300, 4}};
  for (const auto& [x, want] : cases) EXPECT_EQ(b(x), want) << "x = " << x;
  EXPECT_EQ(b(limits<double>::quiet_NaN()), 4) << "NaN outside";
  EXPECT_EQ(b(-limits<double>::infinity()), 4);
  const std::vector<double> tail = {0, 1, 2, 2};  // equal last edges: 2 is in the last bin
  EXPECT_EQ((bkt::range_bins<double>{tail.data(), 3}(2.0)), 2);
  EXPECT_EQ((bkt::range_bins<double>{tail.data(), 3}(1.5)), 1);
  const std::vector<double> single = {1, 2};
  EXPECT_EQ((bkt::range_bins<double>{single.data(), 1}(2.0)), 0) << "the last edge is inside";

  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  for (int bins = 1; bins < 300; ++bins) {
    std::vector<std::int32_t> e(static_cast<std::size_t>(bins) + 1);
    for (auto& v : e) v = static_cast<std::int32_t>(rng() % 200) - 100;
    std::sort(e.begin(), e.end());
    const bkt::range_bins<std::int32_t> rb{e.data(), bins};
    for (std::int32_t x = -110; x <= 110; ++x) {
      const int want = numpy_rule::bin_of<std::int32_t, std::int32_t>(e, x);
      ASSERT_EQ(rb(x), want < 0 ? bins : want) << bins << " bins, x = " << x;
    }
  }
}

// ---- NumPy's own answers (data/histogram-numpy-cases.txt) ----

/// bkt's edges and counts for one case of NumPy's, in the library's terms: even bins with the
/// range as NumPy got it (Python numbers: edges in double; no range: the data's min and max, edges
/// in the data's type), or explicit edges when they are values of T.
template <class T>
void check_numpy_case(const numpy_cases::numpy_case& c) {
  SCOPED_TRACE("case " + c.name);
  const std::vector<T> data = c.data<T>();
  const std::int64_t in_bins = [&] {
    std::int64_t total = 0;
    for (auto count : c.counts) total += count;
    return total;
  }();
  std::vector<std::int64_t> counts(static_cast<std::size_t>(c.bins), -1);
  std::int64_t outside = 0;
  if (c.even()) {
    double lo = c.range[0], hi = c.range[1];
    auto precision = edge_precision::f64;
    if (c.auto_range) {
      lo = static_cast<double>(*std::min_element(data.begin(), data.end()));
      hi = static_cast<double>(*std::max_element(data.begin(), data.end()));
      precision = edge_precision::data;
    }
    const auto b = bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(c.bins),
                                                                static_cast<bkt::histogram_level<T>>(lo),
                                                                static_cast<bkt::histogram_level<T>>(hi), precision);
    for (int i = 0; i <= c.bins; ++i)
      EXPECT_EQ(static_cast<double>(b.edge(i)), c.numpy_edges[static_cast<std::size_t>(i)]) << "edge " << i;
    outside = bkt::ref::histogram<T>(data, counts, b);
  } else {
    std::vector<T> edges;
    for (const double edge : c.given_edges) {
      if (static_cast<double>(static_cast<T>(edge)) != edge) return;  // not values of T: the tool's case
      edges.push_back(static_cast<T>(edge));
    }
    outside = bkt::ref::histogram<T>(data, counts, bkt::range_bins<T>{edges.data(), c.bins});
  }
  EXPECT_EQ(counts, c.counts);
  EXPECT_EQ(outside, static_cast<std::int64_t>(data.size()) - in_bins);
}

TEST(numpy_fixture, reference_matches_numpy_histogram) {
  const auto cases = numpy_cases::load_cases();
  ASSERT_GE(cases.size(), 20u) << numpy_cases::cases_path();
  int checked = 0;
  for (const auto& c : cases) {
    if (c.dtype == "f32") check_numpy_case<float>(c);
    else if (c.dtype == "f64") check_numpy_case<double>(c);
    else if (c.dtype == "i8") check_numpy_case<std::int8_t>(c);
    else if (c.dtype == "u8") check_numpy_case<std::uint8_t>(c);
    else if (c.dtype == "i16") check_numpy_case<std::int16_t>(c);
    else if (c.dtype == "u16") check_numpy_case<std::uint16_t>(c);
    else if (c.dtype == "i32") check_numpy_case<std::int32_t>(c);
    else if (c.dtype == "u32") check_numpy_case<std::uint32_t>(c);
    else continue;  // f16: the library bins no half floats (the tool's test covers them)
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

}  // namespace
