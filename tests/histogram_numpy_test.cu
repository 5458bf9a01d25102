// GPU histograms against numpy.histogram's rule: every edge and its neighbours one ulp either way
// (one unit for integers), every data type, both edge precisions, on the shared- and global-memory
// counting paths up to 2^24 bins; the issue's case, normal f32 with 100 bins over [-3, 3], at 2^26
// elements (capped by BKT_TEST_MAX_SIZE); and NumPy's own answers (data/histogram-numpy-cases.txt).
// Counts and outside counts must equal bkt::ref's, and the hand-written NumPy rule's, exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "bkt/histogram.cuh"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/histogram_run.cuh"
#include "support/numpy_cases.hpp"
#include "support/numpy_rule.hpp"

namespace {

using namespace bkt::test;
using bkt::edge_precision;

template <class T>
using limits = std::numeric_limits<T>;

/// Every edge of `b` and its neighbours (floats: one ulp either way; integers: the integers around
/// it), copied `copies` times, and the type's extremes (NaN and infinities for floats).
template <class T>
std::vector<T> edge_probes(const bkt::even_bins<T>& b, int copies) {
  std::vector<T> probes;
  for (int i = 0; i <= b.bins; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      const T edge = b.edge(i);
      for (int c = 0; c < copies; ++c)
        probes.insert(probes.end(), {edge, std::nextafter(edge, -limits<T>::infinity()),
                                     std::nextafter(edge, limits<T>::infinity())});
    } else {
      const double edge = b.edge(i);
      for (const double x : {std::floor(edge) - 1, std::floor(edge), std::floor(edge) + 1, std::ceil(edge) + 1})
        if (x >= static_cast<double>(limits<T>::lowest()) && x <= static_cast<double>(limits<T>::max()))
          for (int c = 0; c < copies; ++c) probes.push_back(static_cast<T>(x));
    }
  }
  if constexpr (std::is_floating_point_v<T>)
    probes.insert(probes.end(), {limits<T>::quiet_NaN(), limits<T>::infinity(), -limits<T>::infinity(), -T(0),
                                 limits<T>::denorm_min(), limits<T>::max(), limits<T>::lowest()});
  else
    probes.insert(probes.end(), {limits<T>::lowest(), limits<T>::max()});
  return probes;
}

/// NumPy's edges of `b`, for the hand-written rule: T for floats, double for integers.
template <class T>
auto numpy_edges(const bkt::even_bins<T>& b) {
  using E = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  std::vector<E> edges(static_cast<std::size_t>(b.bins) + 1);
  for (int i = 0; i <= b.bins; ++i) edges[static_cast<std::size_t>(i)] = static_cast<E>(b.edge(i));
  return edges;
}

/// The GPU's counts for `data` against bkt::ref (check_even) and against the NumPy rule written out.
template <class T>
void check_against_numpy_rule(const std::vector<T>& data, bkt::histogram_level<T> lo, bkt::histogram_level<T> hi,
                              int bins, edge_precision precision, bkt::workspace& ws, cudaStream_t stream) {
  check_even<T>(data, lo, hi, bins, true, ws, stream, precision);
  const auto b = bkt::even_bins<T>::make(lo, hi, bins, precision);
  const auto edges = numpy_edges(b);
  using E = typename decltype(edges)::value_type;
  std::vector<E> wide(data.begin(), data.end());
  const auto want = numpy_rule::count<E, E>(wide, edges);
  auto d_data = bkt::to_device<T>(data, stream);
  bkt::device_buffer<std::int64_t> counts(bins, stream), outside(1, stream);
  bkt::histogram_even<T>(d_data.span(), counts.span(), lo, hi, precision, outside.data(), ws, stream);
  EXPECT_EQ(to_host(counts), want.counts) << "against the NumPy rule";
  EXPECT_EQ(bkt::read_sync(outside.data(), stream), want.outside) << "outside";
}

template <class T>
class histogram_numpy_test : public ::testing::Test {};
using data_types = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                    std::uint32_t, float, double>;
TYPED_TEST_SUITE(histogram_numpy_test, data_types);

/// Ranges and bin counts that put values on every edge: awkward counts (3, 7, 100), the largest
/// shared-memory counts, global atomics, and 2^20 bins; ranges whose edges the estimate computes
/// exactly (a power-of-two step from 0) and others; random data around them, shuffled so that
/// rounds of a thread's loads mix elements on edges with others.
TYPED_TEST(histogram_numpy_test, every_edge_and_its_neighbours) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  std::vector<std::pair<bkt::histogram_level<T>, bkt::histogram_level<T>>> ranges;
  if constexpr (std::is_floating_point_v<T>)
    ranges = {{-3, 3}, {0, 1}, {1e-30, 1}, {0.1, 0.7}, {-5e5, 5e5},
              {0, 256}, {0, 0x1p-120}, {-128, 128}};  // exact edges at power-of-two bin counts
  else
    ranges = {{0, 10}, {0, 14}, {limits<T>::lowest(), limits<T>::max()}, {-3, 97}};
  std::vector<int> bin_counts = {1, 3, 7, 100, 256, 4096, 12000, 100000, 1 << 20};
  if (quick_mode()) bin_counts = {3, 100, 256, 100000};
  const auto gens = sweep_generators<T>();
  std::size_t round = 0;
  for (const auto& [lo, hi] : ranges)
    for (const int bins : bin_counts)
      for (const auto precision : {edge_precision::f64, edge_precision::data}) {
        if (!std::is_same_v<T, float> && precision == edge_precision::data) continue;  // the same edges
        SCOPED_TRACE("[" + std::to_string(lo) + ", " + std::to_string(hi) + "] bins " + std::to_string(bins) +
                     (precision == edge_precision::data ? " edges in T" : ""));
        bkt::even_bins<T> b;
        try {
          b = bkt::detail::histogram::checked_even_bins<T>(static_cast<std::size_t>(bins), lo, hi, precision);
        } catch (const bkt::error&) {
          continue;  // narrower than T resolves (NumPy refuses them too)
        }
        auto data = edge_probes(b, bins > 4096 ? 1 : 3);
        const auto random = gens[round++ % gens.size()].make(quick_mode() ? 4097 : 100003, s + round);
        data.insert(data.end(), random.begin(), random.end());
        std::shuffle(data.begin(), data.end(), std::mt19937_64(s));
        check_against_numpy_rule<T>(data, lo, hi, bins, precision, ws, stream);
        if (::testing::Test::HasFailure()) return;
      }
}

/// The issue's case: 2^26 normal f32 values, 100 bins over [-3, 3] (edges in double, as for
/// numpy.histogram(a, 100, range=(-3, 3))); where the old floor((x - lo) * scale) put 51 bins off
/// by 1 to 3 counts. Also with NumPy's edges for a range taken from the data.
TEST(histogram_numpy, normal_f32_100_bins_as_numpy) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const std::int64_t n = std::min<std::int64_t>(std::int64_t{1} << 26, sizes().back());
  std::mt19937_64 rng(s);
  std::normal_distribution<float> normal;
  std::vector<float> data(static_cast<std::size_t>(n));
  for (float& x : data) x = normal(rng);
  check_against_numpy_rule<float>(data, -3, 3, 100, edge_precision::f64, ws, stream);
  const auto [min, max] = std::minmax_element(data.begin(), data.end());
  check_against_numpy_rule<float>(data, *min, *max, 100, edge_precision::data, ws, stream);
}

/// NumPy's own counts, on the GPU: the library cases of the fixture (even bins with the range as
/// NumPy got it, or from the data; explicit edges that are values of the data's type).
template <class T>
void check_numpy_case_on_gpu(const numpy_cases::numpy_case& c, bkt::workspace& ws, cudaStream_t stream) {
  SCOPED_TRACE("case " + c.name);
  const std::vector<T> data = c.data<T>();
  auto d_data = bkt::to_device<T>(data, stream);
  bkt::device_buffer<std::int64_t> counts(c.bins, stream), outside(1, stream);
  if (c.even()) {
    double lo = c.range[0], hi = c.range[1];
    auto precision = edge_precision::f64;
    if (c.auto_range) {
      lo = static_cast<double>(*std::min_element(data.begin(), data.end()));
      hi = static_cast<double>(*std::max_element(data.begin(), data.end()));
      precision = edge_precision::data;
    }
    bkt::histogram_even<T>(d_data.span(), counts.span(), static_cast<bkt::histogram_level<T>>(lo),
                           static_cast<bkt::histogram_level<T>>(hi), precision, outside.data(), ws, stream);
  } else {
    std::vector<T> edges;
    for (const double edge : c.given_edges) {
      if (static_cast<double>(static_cast<T>(edge)) != edge) return;  // not values of T: the tool's case
      edges.push_back(static_cast<T>(edge));
    }
    auto d_edges = bkt::to_device<T>(edges, stream);
    bkt::histogram_range<T>(d_data.span(), d_edges.span(), counts.span(), outside.data(), ws, stream);
  }
  std::int64_t in_bins = 0;
  for (auto count : c.counts) in_bins += count;
  EXPECT_EQ(to_host(counts), c.counts);
  EXPECT_EQ(bkt::read_sync(outside.data(), stream), static_cast<std::int64_t>(data.size()) - in_bins);
}

TEST(histogram_numpy, fixture_counts_on_the_gpu) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  int checked = 0;
  for (const auto& c : numpy_cases::load_cases()) {
    if (c.dtype == "f32") check_numpy_case_on_gpu<float>(c, ws, stream);
    else if (c.dtype == "f64") check_numpy_case_on_gpu<double>(c, ws, stream);
    else if (c.dtype == "i8") check_numpy_case_on_gpu<std::int8_t>(c, ws, stream);
    else if (c.dtype == "u8") check_numpy_case_on_gpu<std::uint8_t>(c, ws, stream);
    else if (c.dtype == "i16") check_numpy_case_on_gpu<std::int16_t>(c, ws, stream);
    else if (c.dtype == "u16") check_numpy_case_on_gpu<std::uint16_t>(c, ws, stream);
    else if (c.dtype == "i32") check_numpy_case_on_gpu<std::int32_t>(c, ws, stream);
    else if (c.dtype == "u32") check_numpy_case_on_gpu<std::uint32_t>(c, ws, stream);
    else continue;
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

/// Explicit edges: the last bin is closed on the GPU too, with and without the shared cell table
/// (at most 65535 bins in 32 KB), duplicates at the end included.
TEST(histogram_numpy, range_last_bin_closed) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const int bins : {1, 2, 63, 4000, 70000}) {
    SCOPED_TRACE("bins " + std::to_string(bins));
    auto edges = sorted_splitters<float>(bins + 1, s + static_cast<std::uint64_t>(bins));
    std::vector<float> data;
    for (const float edge : edges)
      data.insert(data.end(), {edge, edge, std::nextafter(edge, -limits<float>::infinity()),
                                       std::nextafter(edge, limits<float>::infinity())});
    check_range<float>(data, edges, true, ws, stream);
    edges.back() = edges[edges.size() - 2];  // equal last edges: values on them go to the last bin
    check_range<float>(data, edges, true, ws, stream);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
