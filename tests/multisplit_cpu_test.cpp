// CPU-side multisplit and histograms: the references on hand-checked examples and against an
// independent stable sort, the host API's CPU path, and argument checking (which happens before
// any CUDA call, so it runs without a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "bkt/histogram.hpp"
#include "bkt/multisplit.hpp"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/checks.hpp"
#include "support/error_message.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;

TEST(multisplit_reference, small_examples) {
  const std::vector<int> in = {5, 12, 3, 7, 10, 1, 15};
  const bkt::delta_buckets<int> quarters{.lo = 0, .delta = 4, .buckets = 4};  // 5 7 | 3 1 | 10 | 12 15
  std::vector<int> out(in.size(), 99);
  std::vector<std::int64_t> offsets(6, -1);
  bkt::ref::multisplit<int>(in, out, offsets, 4, quarters);
  EXPECT_EQ(out, (std::vector<int>{3, 1, 5, 7, 10, 12, 15}));
  EXPECT_EQ(offsets, (std::vector<std::int64_t>{0, 2, 4, 5, 7, -1})) << "num_buckets + 1 offsets, no more";

  const std::vector<std::uint32_t> values = {0, 1, 2, 3, 4, 5, 6};
  std::vector<std::uint32_t> values_out(7);
  bkt::ref::multisplit<int, std::uint32_t>(in, values, out, values_out, offsets, 4, quarters);
  EXPECT_EQ(values_out, (std::vector<std::uint32_t>{2, 5, 0, 3, 4, 1, 6}));

  std::vector<std::int64_t> indices(7);
  bkt::ref::multisplit_indices<int, std::int64_t>(in, {}, indices, offsets, 4, quarters);
  EXPECT_EQ(indices, (std::vector<std::int64_t>{2, 5, 0, 3, 4, 1, 6})) << "keys_out may be empty";

  // Ids below 0 or past the end go to the last bucket, in input order.
  const auto wild = [](int x) { return x < 4 ? -1 : x < 8 ? 0 : 9; };
  bkt::ref::multisplit<int>(in, out, offsets, 2, wild);
  EXPECT_EQ(out, (std::vector<int>{5, 7, 12, 3, 10, 1, 15}));
  EXPECT_EQ(std::vector<std::int64_t>(offsets.begin(), offsets.begin() + 3), (std::vector<std::int64_t>{0, 2, 7}));

  // An empty input writes zero offsets.
  bkt::ref::multisplit<int>({}, std::span<int>(), offsets, 4, quarters);
  EXPECT_EQ(std::vector<std::int64_t>(offsets.begin(), offsets.begin() + 5), std::vector<std::int64_t>(5, 0));
}

TEST(histogram_reference, small_examples) {
  const std::vector<int> in = {0, 1, 2, 3, 9, 10, -1, 5};
  std::vector<std::int64_t> counts(5, -1);
  EXPECT_EQ(bkt::ref::histogram<int>(in, counts, bkt::even_bins<int>::make(0, 10, 5)), 1) << "-1 outside";
  EXPECT_EQ(counts, (std::vector<std::int64_t>{2, 2, 1, 0, 2})) << "the last bin [8, 10] is closed";

  const std::vector<int> edges = {0, 3, 3, 9};
  std::vector<std::int64_t> range_counts(3, -1);
  EXPECT_EQ(bkt::ref::histogram<int>(in, range_counts, bkt::range_bins<int>{edges.data(), 3}), 2);
  EXPECT_EQ(range_counts, (std::vector<std::int64_t>{3, 0, 3})) << "[0,3) [3,3) [3,9]";

  const std::vector<double> weights = {0.5, 1, 2, 4, 8, 16, 32, 64};
  std::vector<double> sums(5, -1);
  EXPECT_EQ((bkt::ref::histogram<int, double>(in, weights, sums, bkt::even_bins<int>::make(0, 10, 5))), 32.0);
  EXPECT_EQ(sums, (std::vector<double>{1.5, 6, 64, 0, 24}));
}

// ---- the references against an independent implementation: a stable sort of indices ----

/// The stable order of `keys` by clamped bucket id, and the bucket offsets, by std::stable_sort.
template <class Key, class BucketFn>
std::vector<std::size_t> sorted_order(const std::vector<Key>& keys, int num_buckets, const BucketFn& bucket_of,
                                      std::vector<std::int64_t>& offsets) {
  std::vector<int> ids(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const int id = bucket_of(keys[i]);
    ids[i] = id < 0 || id >= num_buckets ? num_buckets - 1 : id;
  }
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
  offsets.assign(static_cast<std::size_t>(num_buckets) + 1, 0);
  for (const int id : ids) ++offsets[static_cast<std::size_t>(id) + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  return order;
}

template <class Key, class BucketFn>
void check_reference(const std::vector<Key>& keys, int num_buckets, const BucketFn& bucket_of) {
  std::vector<std::int64_t> want_offsets;
  const auto order = sorted_order(keys, num_buckets, bucket_of, want_offsets);
  std::vector<Key> want_keys(keys.size());
  std::vector<std::int64_t> want_indices(keys.size());
  for (std::size_t j = 0; j < order.size(); ++j) want_keys[j] = keys[order[j]], want_indices[j] = order[j];

  std::vector<Key> got(keys.size());
  std::vector<std::int64_t> offsets(want_offsets.size());
  bkt::ref::multisplit<Key>(keys, got, offsets, num_buckets, bucket_of);
  EXPECT_EQ(offsets, want_offsets);
  EXPECT_TRUE(bitwise_equal<Key>(want_keys, got));

  std::vector<std::uint32_t> values(keys.size()), values_out(keys.size());
  std::iota(values.begin(), values.end(), 0u);
  bkt::ref::multisplit<Key, std::uint32_t>(keys, values, got, values_out, offsets, num_buckets, bucket_of);
  EXPECT_EQ(offsets, want_offsets);
  EXPECT_TRUE(bitwise_equal<Key>(want_keys, got)) << "pairs";
  EXPECT_TRUE(std::equal(values_out.begin(), values_out.end(), want_indices.begin())) << "values";

  std::vector<std::int64_t> indices(keys.size());
  std::vector<std::uint32_t> narrow(keys.size());
  bkt::ref::multisplit_indices<Key, std::int64_t>(keys, {}, indices, offsets, num_buckets, bucket_of);
  EXPECT_EQ(indices, want_indices) << "int64 indices, no keys";
  bkt::ref::multisplit_indices<Key, std::uint32_t>(keys, got, narrow, offsets, num_buckets, bucket_of);
  EXPECT_TRUE(std::equal(narrow.begin(), narrow.end(), want_indices.begin())) << "uint32 indices";
  EXPECT_TRUE(bitwise_equal<Key>(want_keys, got)) << "index mode keys";
}

template <class T>
class multisplit_cpu_path : public ::testing::Test {};
using key_types = ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(multisplit_cpu_path, key_types);

TYPED_TEST(multisplit_cpu_path, reference_matches_a_stable_sort_by_bucket) {
  using T = TypeParam;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto splitters = sorted_splitters<T>(37, s);
  const bkt::splitter_buckets<T> by_splitter{splitters.data(), 37};
  for (const std::int64_t n : {0, 1, 33, 1025, 100003})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      check_reference(keys, middle_digit<T>().num_buckets(), middle_digit<T>());
      check_reference(keys, 256, top_digit<T>());
      check_reference(keys, 97, delta_for<T>());
      check_reference(keys, 38, by_splitter);
      check_reference(keys, mod_seven_buckets, mod_seven{});
      check_reference(keys, 1, mod_seven{});
      if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(multisplit_cpu_path, host_api_on_cpu_matches_the_reference) {
  using T = TypeParam;
  using V = std::conditional_t<sizeof(T) == 8, double, float>;  // values of either width, moved as bits
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto splitters = sorted_splitters<T>(255, s);
  const bkt::splitter_buckets<T> by_splitter{splitters.data(), 255};
  for (const std::int64_t n : {0, 1, 33, 1025, 100003})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      std::vector<V> values(keys.size());
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<V>(i);
      const auto check = [&](int num_buckets, const auto& bucket_of) {
        std::vector<T> want(keys.size()), got(keys.size());
        std::vector<V> want_values(keys.size()), got_values(keys.size());
        std::vector<std::int64_t> want_offsets(num_buckets + 1), got_offsets(num_buckets + 1);
        bkt::ref::multisplit<T, V>(keys, values, want, want_values, want_offsets, num_buckets, bucket_of);
        bkt::host::multisplit<T>(keys, got, got_offsets, num_buckets, bucket_of, bkt::host::backend::cpu);
        EXPECT_EQ(got_offsets, want_offsets);
        EXPECT_TRUE(bitwise_equal<T>(want, got));
        std::fill(got_offsets.begin(), got_offsets.end(), -1);
        bkt::host::multisplit<T, V>(keys, values, got, got_values, got_offsets, num_buckets, bucket_of,
                                    bkt::host::backend::cpu);
        EXPECT_EQ(got_offsets, want_offsets) << "pairs";
        EXPECT_TRUE(bitwise_equal<T>(want, got)) << "pairs";
        EXPECT_TRUE(bitwise_equal<V>(want_values, got_values)) << "values";
      };
      check(middle_digit<T>().num_buckets(), middle_digit<T>());
      check(97, delta_for<T>());
      check(256, by_splitter);
      if (::testing::Test::HasFailure()) return;
    }
}

template <class T>
class histogram_cpu_path : public ::testing::Test {};
using histogram_types = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                         std::uint32_t, float, double>;
TYPED_TEST_SUITE(histogram_cpu_path, histogram_types);

TYPED_TEST(histogram_cpu_path, host_api_on_cpu_matches_the_reference) {
  using T = TypeParam;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto [lo, hi] = histogram_limits<T>();
  const auto edges = sorted_splitters<T>(64, s);
  for (const std::int64_t n : {0, 1, 33, 1025, 100003})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
      for (const int bins : {1, 7, 100, 256}) {
        std::vector<std::int64_t> want(bins), got(bins, -1);
        const auto want_outside = bkt::ref::histogram<T>(data, want, bkt::even_bins<T>::make(lo, hi, bins));
        EXPECT_EQ(bkt::host::histogram_even<T>(data, got, lo, hi, bkt::host::backend::cpu), want_outside);
        EXPECT_EQ(got, want) << bins << " even bins";
        EXPECT_EQ(std::accumulate(want.begin(), want.end(), want_outside), n);
      }
      std::vector<std::int64_t> want(63), got(63, -1);
      const auto want_outside = bkt::ref::histogram<T>(data, want, bkt::range_bins<T>{edges.data(), 63});
      EXPECT_EQ(bkt::host::histogram_range<T>(data, edges, got, bkt::host::backend::cpu), want_outside);
      EXPECT_EQ(got, want) << "range bins";
      if (::testing::Test::HasFailure()) return;
    }
}

/// LSD radix sort built from multisplit passes over bit_range_buckets digits sorts as the radix
/// image orders keys: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, signed integers by value.
TYPED_TEST(multisplit_cpu_path, digit_passes_sort_keys_in_radix_order) {
  using T = TypeParam;
  for (const auto& gen : generators<T>()) {
    SCOPED_TRACE(gen.name);
    std::vector<T> keys = gen.make(5000, seed()), scratch(keys.size());
    std::vector<std::int64_t> offsets(257);
    for (int first_bit = 0; first_bit < 8 * static_cast<int>(sizeof(T)); first_bit += 8) {
      bkt::ref::multisplit<T>(keys, scratch, offsets, 256, bkt::bit_range_buckets<T>{first_bit, 8});
      keys.swap(scratch);
    }
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end(), [](const T& a, const T& b) {
      return bkt::detail::radix_bits(a) < bkt::detail::radix_bits(b);
    }));
    if constexpr (!std::is_floating_point_v<T>) EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  }
}

// ---- argument checks: bkt::error with a message, never a crash, before any CUDA call ----

TEST(multisplit_arguments, bad_calls_are_refused_with_a_message) {
  bkt::workspace ws;
  using K = std::uint32_t;
  const K* keys = reinterpret_cast<const K*>(256);  // fake device pointers: never dereferenced
  K* keys_out = reinterpret_cast<K*>(512);
  std::int64_t* offsets = reinterpret_cast<std::int64_t*>(1024);
  const bkt::bit_range_buckets<K> digit{0, 8};
  using span_k = std::span<const K>;
  using span_o = std::span<std::int64_t>;

  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(static_cast<const K*>(nullptr), 10), {keys_out, 10}, span_o(offsets, 257), 256, digit, ws, nullptr),
                        "keys is a null pointer");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {keys_out, 10}, span_o(offsets, 257), 0, digit, ws, nullptr),
                        "num_buckets is 0");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {keys_out, 10}, span_o(offsets, 65538), 65537, digit, ws, nullptr),
                        "num_buckets is 65537");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {keys_out, 10}, span_o(offsets, 256), 256, digit, ws, nullptr),
                        "bucket_offsets must hold num_buckets + 1 = 257");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {keys_out, 10}, span_o(), 256, digit, ws, nullptr),
                        "bucket_offsets");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {keys_out, 9}, span_o(offsets, 257), 256, digit, ws, nullptr),
                        "key output holds 9 elements, fewer than the 10");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>(span_k(keys, 10), {static_cast<K*>(nullptr), 10}, span_o(offsets, 257), 256, digit, ws, nullptr),
                        "key output is a null pointer");

  const std::uint64_t* values = reinterpret_cast<const std::uint64_t*>(2048);
  std::uint64_t* values_out = reinterpret_cast<std::uint64_t*>(4096);
  EXPECT_ERROR_MENTIONS((bkt::multisplit<K, std::uint64_t>(span_k(keys, 10), {values, 8}, {keys_out, 10}, {values_out, 10},
                                                           span_o(offsets, 257), 256, digit, ws, nullptr)),
                        "keys has 10 elements but values has 8");
  EXPECT_ERROR_MENTIONS((bkt::multisplit<K, std::uint64_t>(span_k(keys, 10), {values, 10}, {keys_out, 10}, {values_out, 3},
                                                           span_o(offsets, 257), 256, digit, ws, nullptr)),
                        "value output holds 3");
  EXPECT_ERROR_MENTIONS((bkt::multisplit<K, std::uint64_t>(span_k(keys, 10), {static_cast<const std::uint64_t*>(nullptr), 10},
                                                           {keys_out, 10}, {values_out, 10}, span_o(offsets, 257), 256,
                                                           digit, ws, nullptr)),
                        "values is a null pointer");

  std::int64_t* indices = reinterpret_cast<std::int64_t*>(8192);
  EXPECT_ERROR_MENTIONS((bkt::multisplit_indices<K, std::int64_t>(span_k(keys, 10), {}, {indices, 9}, span_o(offsets, 257),
                                                                  256, digit, ws, nullptr)),
                        "index output holds 9");
  EXPECT_ERROR_MENTIONS((bkt::multisplit_indices<K, std::int64_t>(span_k(keys, 10), {keys_out, 4}, {indices, 10},
                                                                  span_o(offsets, 257), 256, digit, ws, nullptr)),
                        "key output holds 4");
  EXPECT_ERROR_MENTIONS((bkt::multisplit_indices<K, std::uint32_t>(span_k(keys, 10), {}, {reinterpret_cast<std::uint32_t*>(8192), 10},
                                                                   span_o(offsets, 10), 10, digit, ws, nullptr)),
                        "bucket_offsets must hold num_buckets + 1 = 11");
}

TEST(multisplit_arguments, bad_functor_parameters_are_refused) {
  bkt::workspace ws;
  using K = std::uint8_t;
  const K* keys = reinterpret_cast<const K*>(256);
  K* keys_out = reinterpret_cast<K*>(512);
  const std::span<std::int64_t> offsets(reinterpret_cast<std::int64_t*>(1024), 300);
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>({keys, 10}, {keys_out, 10}, offsets, 8, bkt::bit_range_buckets<K>{6, 3}, ws, nullptr),
                        "does not fit");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<float>({reinterpret_cast<const float*>(256), 10}, {reinterpret_cast<float*>(512), 10},
                                               offsets, 256, bkt::bit_range_buckets<float>{0, 17}, ws, nullptr),
                        "does not fit");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>({keys, 10}, {keys_out, 10}, offsets, 4, bkt::delta_buckets<K>{.lo = 0, .delta = 0, .buckets = 4}, ws, nullptr),
                        "positive, finite delta");
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const float delta : {0.0f, -1.0f, nan, inf})
    EXPECT_ERROR_MENTIONS(bkt::multisplit<float>({reinterpret_cast<const float*>(256), 10}, {reinterpret_cast<float*>(512), 10},
                                                 offsets, 4, bkt::delta_buckets<float>{.lo = 0, .delta = delta, .buckets = 4}, ws, nullptr),
                          "positive, finite delta");
  EXPECT_ERROR_MENTIONS(bkt::multisplit<K>({keys, 10}, {keys_out, 10}, offsets, 4, bkt::splitter_buckets<K>{nullptr, 3}, ws, nullptr),
                        "no splitters");
}

TEST(multisplit_arguments, host_api_refuses_short_outputs) {
  const std::vector<std::uint32_t> keys(10, 7);
  std::vector<std::uint32_t> out(9);
  std::vector<std::int64_t> offsets(257), short_offsets(256);
  const bkt::bit_range_buckets<std::uint32_t> digit{0, 8};
  using bkt::host::backend;
  EXPECT_THROW(bkt::host::multisplit<std::uint32_t>(keys, out, offsets, 256, digit, backend::cpu), bkt::error);
  out.resize(10);
  EXPECT_THROW(bkt::host::multisplit<std::uint32_t>(keys, out, short_offsets, 256, digit, backend::cpu), bkt::error);
  EXPECT_THROW(bkt::host::multisplit<std::uint32_t>(keys, out, offsets, 0, digit, backend::cpu), bkt::error);
}

TEST(histogram_arguments, bad_calls_are_refused_with_a_message) {
  bkt::workspace ws;
  const float* data = reinterpret_cast<const float*>(256);
  std::int64_t* counts = reinterpret_cast<std::int64_t*>(512);
  const float* edges = reinterpret_cast<const float*>(1024);
  using span_f = std::span<const float>;
  using span_c = std::span<std::int64_t>;
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<float>(span_f(data, 10), span_c(), 0.0f, 1.0f, nullptr, ws, nullptr), "0 bins");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<float>(span_f(data, 10), span_c(counts, bkt::histogram_max_bins + 1), 0.0f,
                                                   1.0f, nullptr, ws, nullptr),
                        "16777217 bins");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<float>(span_f(static_cast<const float*>(nullptr), 10), span_c(counts, 8), 0.0f, 1.0f, nullptr, ws, nullptr),
                        "null pointer");
  EXPECT_ERROR_MENTIONS(bkt::histogram_range<float>(span_f(data, 10), span_f(edges, 1), span_c(), nullptr, ws, nullptr),
                        "0 bins");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<float>(span_f(data, 10), span_c(counts, 8), 1.0f, 1.0f, nullptr, ws, nullptr),
                        "lo must be below hi");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<float>(span_f(data, 10), span_c(counts, 8), -3e38f, 3e38f, nullptr, ws, nullptr),
                        "hi - lo must be finite");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<std::uint8_t>(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(1024), 10),
                                                          span_c(counts, 8), 0, std::int64_t{1} << 41, nullptr, ws, nullptr),
                        "within +-2^40");
  EXPECT_ERROR_MENTIONS(bkt::histogram_even<std::uint32_t>(std::span<const std::uint32_t>(reinterpret_cast<const std::uint32_t*>(1024), 10),
                                                           span_c(counts, 1 << 24), -(std::int64_t{1} << 40),
                                                           std::int64_t{1} << 40, nullptr, ws, nullptr),
                        "(hi - lo) * bins must stay below 2^64");
  EXPECT_ERROR_MENTIONS(bkt::histogram_range<float>(span_f(data, 10), span_f(edges, 8), span_c(counts, 8), nullptr, ws, nullptr),
                        "edges must hold one more value than there are bins");
  const double* weights = reinterpret_cast<const double*>(2048);
  double* sums = reinterpret_cast<double*>(4096);
  EXPECT_ERROR_MENTIONS((bkt::histogram_even<float, double>(span_f(data, 10), std::span<const double>(weights, 9),
                                                            std::span<double>(sums, 8), 0.0f, 1.0f, nullptr, ws, nullptr)),
                        "data has 10 elements but weights has 9");
  EXPECT_ERROR_MENTIONS((bkt::histogram_even<float, double>(span_f(data, 10), std::span<const double>(weights, 10),
                                                            std::span<double>(), 0.0f, 1.0f, nullptr, ws, nullptr)),
                        "0 bins");
}

TEST(multisplit_arguments, workspace_holds_the_two_pass_copy) {
  const std::int64_t n = 1 << 20;
  EXPECT_GE(bkt::multisplit_workspace_bytes(n, 1000, 4), static_cast<std::size_t>(n) * 4)
      << "more than 256 buckets keep a temporary copy per element";
  EXPECT_GT(bkt::multisplit_workspace_bytes(2 * n, 65536, 4, 8), bkt::multisplit_workspace_bytes(n, 65536, 4, 8));
  EXPECT_GE(bkt::multisplit_workspace_bytes(n, 1000, 4), bkt::multisplit_workspace_bytes(n, 256, 4));
  // Key-only tiles are smaller than pairs' (more look-back words); a pairs workspace serves both.
  for (const std::int64_t size : {std::int64_t{7681}, std::int64_t{300007}, n + 3})
    for (const int m : {2, 256})
      EXPECT_GE(bkt::multisplit_workspace_bytes(size, m, 4, 4), bkt::multisplit_workspace_bytes(size, m, 4));
  EXPECT_THROW(bkt::multisplit_workspace_bytes(n, 0, 4), bkt::error);
  EXPECT_THROW(bkt::multisplit_workspace_bytes(n, 65537, 4), bkt::error);
  EXPECT_THROW(bkt::multisplit_workspace_bytes(-1, 10, 4), bkt::error);
}

}  // namespace
