// Named behaviours of GPU selection: ties go to the smaller position, the NaN and -0.0 order,
// results independent of the sampling seed, empty inputs and outputs, the input left unchanged,
// top_k_pairs, the host API, argument errors, workspaces, and more than 2^31 elements. The sweeps
// over types, generators and sizes are in select_cases_test.cu.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bkt/gpu.hpp"
#include "bkt/select.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/select_run.cuh"

namespace {

using namespace bkt::test;

template <class T>
generator<T> generator_named(const std::string& name) {
  const auto gens = generators<T>();
  for (const auto& gen : gens)
    if (gen.name == name) return gen;
  ADD_FAILURE() << "no generator named " << name;
  return gens.front();
}

template <class T>
class select_test : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(select_test, select_types);

/// top_k's expectation written out: `positions` in the selected order, values keys[position].
template <class T>
top_k_order<T> expected_at(const std::vector<T>& keys, const std::vector<std::int64_t>& positions) {
  top_k_order<T> want{std::vector<T>(positions.size()), positions};
  for (std::size_t j = 0; j < positions.size(); ++j) want.values[j] = keys[positions[j]];
  return want;
}

TYPED_TEST(select_test, ties_go_to_the_smaller_position) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = 10007;
  // All equal: the first k positions, whichever direction.
  const std::vector<T> equal(n, T(5));
  device_input<T> equal_input(equal, stream);
  std::vector<std::int64_t> first_positions(100);
  for (std::int64_t j = 0; j < 100; ++j) first_positions[j] = j;
  const auto first_hundred = expected_at(equal, first_positions);
  // Two values, every third element the larger: the k-th place falls inside a run of ties.
  std::vector<T> two(n);
  std::vector<std::int64_t> larger, smaller;
  for (std::int64_t i = 0; i < n; ++i) {
    two[i] = i % 3 == 0 ? T(2) : T(1);
    (i % 3 == 0 ? larger : smaller).push_back(i);
  }
  device_input<T> two_input(two, stream);
  std::vector<std::int64_t> largest_positions = larger, smallest_positions = smaller;
  largest_positions.insert(largest_positions.end(), smaller.begin(), smaller.begin() + 5);
  smallest_positions.insert(smallest_positions.end(), larger.begin(), larger.begin() + 5);
  const auto want_largest = expected_at(two, largest_positions);
  const auto want_smallest = expected_at(two, smallest_positions);

  // Batched: rows of equal keys keep their first k positions too.
  const std::int64_t rows = 5, cols = n / rows;
  const std::vector<T> matrix(static_cast<std::size_t>(rows * cols), T(5));
  device_input<T> matrix_input(matrix, stream);
  top_k_order<T> per_row;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < 100; ++j) per_row.values.push_back(T(5)), per_row.positions.push_back(j);

  std::size_t turn = 0;
  for (const auto algorithm : every_top_k_algorithm)
    for (const bool sorted : {true, false}) {
      SCOPED_TRACE(name_of(algorithm) + (sorted ? " sorted" : " unsorted"));
      for (const bool largest : {true, false})
        check_top_k<T>(equal, equal_input, 100, first_hundred, make_top_k_options(largest, sorted, algorithm),
                       every_top_k_form[turn++ % every_top_k_form.size()], ws, stream);
      check_top_k<T>(two, two_input, static_cast<std::int64_t>(largest_positions.size()), want_largest,
                     make_top_k_options(true, sorted, algorithm), every_top_k_form[turn++ % every_top_k_form.size()],
                     ws, stream);
      check_top_k<T>(two, two_input, static_cast<std::int64_t>(smallest_positions.size()), want_smallest,
                     make_top_k_options(false, sorted, algorithm), every_top_k_form[turn++ % every_top_k_form.size()],
                     ws, stream);
      if (algorithm == select_baseline::none)  // top_k_batched has no baselines
        check_top_k_batched<T, std::uint32_t>(matrix, matrix_input, rows, 100, per_row,
                                              make_top_k_options(true, sorted), ws, stream);
    }
}

TYPED_TEST(select_test, results_do_not_depend_on_the_sampling_seed) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 5003 : 200003;
  const auto keys = generator_named<T>("sampling_adversary").make(n, seed());
  device_input<T> input(keys, stream);
  const auto ranks = rank_classes(n);
  const auto quantiles = quantile_ranks(n, 255);
  const auto want_ranks = reference_ranks<T>(keys, ranks);
  const auto want_quantiles = reference_ranks<T>(keys, quantiles);
  const auto largest = reference_top_k_order<T>(keys, true);
  const auto smallest = reference_top_k_order<T>(keys, false);
  std::mt19937_64 seeds(seed());
  const int seed_count = quick_mode() ? 2 : 12;
  for (int s = 0; s < seed_count; ++s) {
    const std::uint64_t sampling_seed = s == 0 ? 0 : seeds();
    SCOPED_TRACE("sampling seed " + std::to_string(sampling_seed) + " BKT_TEST_SEED=" + std::to_string(seed()));
    for (const auto algorithm : every_select_algorithm) {
      SCOPED_TRACE(name_of(algorithm));
      const auto options = make_select_options(algorithm, sampling_seed);
      check_select_kth<T>(input, ranks, want_ranks, options, ws, stream);
      check_multiselect<T>(input, quantiles, want_quantiles, options, ws, stream, "255 quantiles");
      if (!has_own_top_k(algorithm)) continue;
      check_top_k<T>(keys, input, 1000, largest, make_top_k_options(true, true, algorithm, sampling_seed),
                     top_k_form::values_indices64, ws, stream);
      check_top_k<T>(keys, input, n / 3, smallest, make_top_k_options(false, false, algorithm, sampling_seed),
                     top_k_form::values_indices32, ws, stream);
    }
    bkt::approx_select_options approx;
    approx.seed = sampling_seed;
    check_approx_select<T>(keys, input, n / 2, approx, ws, stream);
    if (::testing::Test::HasFailure()) return;
  }
}

// After the first level the device narrows the kept records by histograms of their span. Half
// the input in a cluster a few words wide, half spread far above it: a target at the cluster's
// top leaves a window whose span is wide while most of it falls into one bin, too many to copy,
// so the rounds narrow in place before they copy.
TYPED_TEST(select_test, a_dense_cluster_beside_a_sparse_range_narrows_to_the_exact_rank) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 40009 : (std::int64_t{1} << 22) + 9;
  std::mt19937_64 random(seed());
  std::vector<T> keys(static_cast<std::size_t>(n));
  const auto top = static_cast<double>(std::numeric_limits<T>::max()) / 4;
  for (std::int64_t i = 0; i < n; ++i) {
    const bool clustered = random() % 2 == 0;
    keys[i] = clustered ? static_cast<T>(100 + random() % 3)
                        : static_cast<T>(1000 + static_cast<double>(random() >> 11) / 9007199254740992.0 * top);
  }
  device_input<T> input(keys, stream);
  const auto clustered = std::count_if(keys.begin(), keys.end(), [](T x) { return x < static_cast<T>(1000); });
  const std::vector<std::int64_t> ranks = {clustered - 1, clustered - 2, clustered - 200, clustered, n / 2};
  const auto want = reference_ranks<T>(keys, ranks);
  check_select_kth<T>(input, ranks, want, make_select_options(select_baseline::none, seed()), ws, stream);
  const auto smallest = reference_top_k_order<T>(keys, false);
  check_top_k<T>(keys, input, clustered, smallest, make_top_k_options(false, false), top_k_form::values_indices32, ws,
                 stream);
  check_top_k<T>(keys, input, clustered - 1000, smallest, make_top_k_options(false, true),
                 top_k_form::values_indices64, ws, stream);
}

/// The bucket passes of multiselect: a block of consecutive ranks (its buckets hold thousands of
/// ranks and are sorted), quantiles (one rank a bucket, searched by radix digits) and random
/// ranks, together, over inputs that crowd the buckets: few values, runs, clusters, extremes.
TYPED_TEST(select_test, multiselect_of_dense_spread_and_random_ranks_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 30011 : 2000003;
  std::mt19937_64 random(seed());
  std::vector<std::int64_t> ranks = quantile_ranks(n, 1023);
  for (std::int64_t k = n / 3; k < n / 3 + std::min<std::int64_t>(n / 10, 5000); ++k) ranks.push_back(k);
  for (int i = 0; i < 500; ++i) ranks.push_back(static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n)));
  for (const std::int64_t k : {std::int64_t{0}, n - 1, n - 2}) ranks.push_back(k);
  std::shuffle(ranks.begin(), ranks.end(), random);
  const auto check = [&](const std::vector<T>& keys) {
    device_input<T> input(keys, stream);
    const auto want = reference_ranks<T>(keys, ranks);
    for (const auto algorithm : {select_baseline::none, select_baseline::radix_sort})
      check_multiselect<T>(input, ranks, want, make_select_options(algorithm, seed()), ws, stream,
                           "dense, spread and random ranks");
    EXPECT_TRUE(input.unchanged());
  };
  for (const char* name : {"uniform", "sixteen_distinct", "two_values", "all_equal", "sorted", "zipf", "clustered",
                           "bit_patterns", "sampling_adversary"}) {
    SCOPED_TRACE(name);
    check(generator_named<T>(name).make(n, seed()));
  }
  // 8 narrow clusters of 4096 consecutive values each, every value repeated about n / 32768 times:
  // no heavy value, but a few cells of an even split over the range hold everything.
  SCOPED_TRACE("narrow clusters");
  std::vector<T> keys(static_cast<std::size_t>(n));
  for (auto& key : keys) {
    const std::uint64_t r = random();
    key = static_cast<T>(static_cast<std::int64_t>(r % 8) * 1000000 + static_cast<std::int64_t>((r >> 8) % 4096));
  }
  check(keys);
}

TYPED_TEST(select_test, empty_inputs_and_empty_outputs) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::span<const T> empty;
  auto values = poisoned_buffer<T>(select_margin, stream);
  auto indices = poisoned_buffer<std::int64_t>(select_margin, stream);
  auto carried_out = poisoned_buffer<std::uint64_t>(select_margin, stream);
  const auto untouched = [&](const char* what) {
    EXPECT_TRUE(poison_intact<T>(to_host(values))) << what;
    EXPECT_TRUE(poison_intact<std::int64_t>(to_host(indices))) << what;
    EXPECT_TRUE(poison_intact<std::uint64_t>(to_host(carried_out))) << what;
  };
  // No rank exists in an empty input.
  const std::array<std::int64_t, 1> rank_zero{0};
  EXPECT_THROW(bkt::select_kth<T>(empty, 0, values.data(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::multiselect<T>(empty, rank_zero, values.span(), ws, stream), bkt::error);
  bkt::device_buffer<bkt::approx_selection<T>> approx(1, stream);
  EXPECT_THROW(bkt::approx_select<T>(empty, 0, approx.data(), ws, stream), bkt::error);
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(empty, 1, values.span(), indices.span(), ws, stream)), bkt::error);
  untouched("after the errors");
  // Nothing asked, nothing written: no ranks, k = 0, on empty and non-empty inputs.
  const auto keys = generators<T>().front().make(1000, seed());
  device_input<T> input(keys, stream);
  std::vector<std::uint64_t> carried(keys.size());
  for (std::size_t i = 0; i < carried.size(); ++i) carried[i] = carried_value<std::uint64_t>(i);
  device_input<std::uint64_t> carried_input(carried, stream);
  for (const std::span<const T> data : {empty, input.span()}) {
    SCOPED_TRACE("n=" + std::to_string(data.size()));
    bkt::multiselect<T>(data, {}, values.span().first(0), ws, stream);
    bkt::top_k<T, std::int64_t>(data, 0, values.span(), indices.span(), ws, stream);
    bkt::top_k<T, std::uint32_t>(data, 0, values.span(), {}, ws, stream);
    bkt::top_k_pairs<T, std::uint64_t>(data, carried_input.span().first(data.size()), 0, values.span(),
                                       carried_out.span(), ws, stream);
    untouched("nothing selected");
  }
  bkt::top_k_batched<T, std::int64_t>(input.span(), 10, 0, values.span(), indices.span(), ws, stream);
  untouched("top_k_batched with k=0");
  EXPECT_TRUE(input.unchanged());
  // One element: rank 0 is it, top 1 is it.
  device_input<T> one(std::span<const T>(keys).first(1), stream);
  const std::array<std::int64_t, 1> only_rank{0};
  check_select_kth<T>(one, only_rank, std::span<const T>(keys).first(1), {}, ws, stream);
  check_top_k<T>(std::span<const T>(keys).first(1), one, 1, expected_at<T>({keys[0]}, {0}), {},
                 top_k_form::values_indices32, ws, stream);
}

TYPED_TEST(select_test, input_is_unchanged_after_every_call) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  // Read back and compared on the host: independent of device_input's own check.
  const std::int64_t n = quick_mode() ? 5003 : (1 << 20) + 7;
  const auto keys = generator_named<T>("bit_patterns").make(n, seed());
  auto d_keys = bkt::to_device<T>(keys, stream);
  const std::span<const T> in = d_keys.span();
  auto values = poisoned_buffer<T>(n, stream);
  auto indices = poisoned_buffer<std::int64_t>(n, stream);
  std::vector<std::uint64_t> carried(keys.size());
  for (std::int64_t i = 0; i < n; ++i) carried[i] = carried_value<std::uint64_t>(i);
  auto d_carried = bkt::to_device<std::uint64_t>(carried, stream);
  auto carried_out = poisoned_buffer<std::uint64_t>(n, stream);
  const auto ranks = quantile_ranks(n, 1023);
  bkt::device_buffer<bkt::approx_selection<T>> approx(1, stream);
  for (const auto algorithm : every_select_algorithm) {
    SCOPED_TRACE(name_of(algorithm));
    const auto options = make_select_options(algorithm, seed());
    run_select_kth<T>(in, n / 2, values.data(), ws, stream, options);
    run_multiselect<T>(in, ranks, values.span().first(ranks.size()), ws, stream, options);
    for (const bool sorted : {true, false})
      for (const bool largest : {true, false}) {
        if (!has_own_top_k(algorithm)) continue;  // select_kth and multiselect only
        const auto top = make_top_k_options(largest, sorted, algorithm);
        run_top_k<T, std::int64_t>(in, n / 2, values.span(), indices.span(), ws, stream, top);
        run_top_k_pairs<T, std::uint64_t>(in, std::span<const std::uint64_t>(d_carried.span()), n / 3, values.span(),
                                          carried_out.span(), ws, stream, top);
        if (algorithm == select_baseline::none)  // top_k_batched has no baselines
          bkt::top_k_batched<T, std::uint32_t>(in.first(static_cast<std::size_t>(n / 7 * 7)), 7, n / 70,
                                               values.span(), {}, ws, stream, top);
      }
    EXPECT_TRUE(bitwise_equal<T>(keys, to_host(d_keys))) << "the input was modified";
    EXPECT_EQ(carried, to_host(d_carried)) << "top_k_pairs modified the caller's values";
  }
  bkt::approx_select<T>(in, n / 2, approx.data(), ws, stream);
  EXPECT_TRUE(bitwise_equal<T>(keys, to_host(d_keys))) << "approx_select modified the input";
}

/// An 8-byte caller value that is no integer: top_k_pairs carries any trivially copyable type.
struct tagged_position {
  std::uint32_t position;
  std::uint32_t tag;
};

TYPED_TEST(select_test, top_k_pairs_carries_the_callers_values_as_the_reference_does) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = 50021, k = 1000;
  const auto keys = generator_named<T>("zipf").make(n, seed());  // many ties
  device_input<T> input(keys, stream);
  const auto check = [&]<class Value>(const char* name, auto value_at) {
    std::vector<Value> carried(keys.size());
    for (std::int64_t i = 0; i < n; ++i) carried[i] = value_at(i);
    device_input<Value> d_carried(carried, stream);
    for (const bool largest : {true, false})
      for (const auto algorithm : every_top_k_algorithm) {
        SCOPED_TRACE(std::string(name) + " values, " + (largest ? "largest, " : "smallest, ") + name_of(algorithm));
        const auto options = make_top_k_options(largest, true, algorithm);
        std::vector<T> want_keys(k);
        std::vector<Value> want_values(k);
        bkt::ref::top_k_pairs<T, Value>(keys, carried, k, want_keys, want_values, options);
        auto keys_out = poisoned_buffer<T>(k + select_margin, stream);
        auto values_out = poisoned_buffer<Value>(k + select_margin, stream);
        run_top_k_pairs<T, Value>(input.span(), d_carried.span(), k, keys_out.span(), values_out.span(), ws, stream,
                                  options);
        const auto got_keys = to_host(keys_out);
        const auto got_values = to_host(values_out);
        EXPECT_TRUE(equal_in_order<T>(want_keys, std::span<const T>(got_keys).first(k)));
        EXPECT_TRUE(bitwise_equal<Value>(want_values, std::span<const Value>(got_values).first(k)));
        EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_keys).subspan(k)));
        EXPECT_TRUE(poison_intact<Value>(std::span<const Value>(got_values).subspan(k)));
        EXPECT_TRUE(input.unchanged());
        EXPECT_TRUE(d_carried.unchanged());
      }
  };
  check.template operator()<std::uint32_t>("uint32", carried_value<std::uint32_t>);
  check.template operator()<std::uint64_t>("uint64", carried_value<std::uint64_t>);
  check.template operator()<float>("float", [](std::int64_t i) { return static_cast<float>(i) * 0.5f - 7.0f; });
  check.template operator()<tagged_position>("8-byte struct", [](std::int64_t i) {
    return tagged_position{static_cast<std::uint32_t>(i), carried_value<std::uint32_t>(i)};
  });
}

TYPED_TEST(select_test, host_api_on_gpu_matches_the_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  using bkt::host::backend;
  const std::int64_t n = quick_mode() ? 5003 : 100003;
  const auto keys = generator_named<T>("sixteen_distinct").make(n, seed());
  for (const std::int64_t k : rank_classes(n)) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const T got = bkt::host::select_kth<T>(keys, k, {}, backend::gpu);
    EXPECT_TRUE(same_in_order(bkt::ref::select_kth<T>(keys, k), got)) << describe(got);
    EXPECT_TRUE(certificate_holds<T>(keys, k, bkt::host::approx_select<T>(keys, k, {}, backend::gpu),
                                     bkt::approx_select_options{}.sample_size));
  }
  const auto ranks = quantile_ranks(n, 1023);
  std::vector<T> got(ranks.size()), want(ranks.size());
  bkt::host::multiselect<T>(keys, ranks, got, {}, backend::gpu);
  bkt::ref::multiselect<T>(keys, ranks, want);
  EXPECT_TRUE(equal_in_order<T>(want, got));

  const std::int64_t k = 777;
  for (const bool largest : {true, false}) {
    SCOPED_TRACE(largest ? "largest" : "smallest");
    const auto options = make_top_k_options(largest, true);
    std::vector<T> values(k);
    std::vector<std::uint32_t> indices(k);
    bkt::host::top_k<T, std::uint32_t>(keys, k, values, indices, options, backend::gpu);
    const auto order = reference_top_k_order<T>(keys, largest);
    EXPECT_TRUE(matches_top_k<T>(keys, std::span<const T>(order.values).first(k),
                                 std::span<const std::int64_t>(order.positions).first(k), largest, true, values,
                                 std::vector<std::int64_t>(indices.begin(), indices.end())));
    const std::int64_t rows = 11, cols = n / rows, row_k = 13;
    const std::span<const T> matrix = std::span<const T>(keys).first(static_cast<std::size_t>(rows * cols));
    std::vector<T> gpu_values(rows * row_k), cpu_values(rows * row_k);
    std::vector<std::int64_t> gpu_indices(rows * row_k), cpu_indices(rows * row_k);
    bkt::host::top_k_batched<T, std::int64_t>(matrix, rows, row_k, gpu_values, gpu_indices, options, backend::gpu);
    bkt::host::top_k_batched<T, std::int64_t>(matrix, rows, row_k, cpu_values, cpu_indices, options, backend::cpu);
    EXPECT_TRUE(equal_in_order<T>(cpu_values, gpu_values));
    EXPECT_EQ(cpu_indices, gpu_indices);
  }
}

// ---- float and double: the NaN and signed-zero order ----

/// Twelve elements whose order the header spells out: -inf < -1 < -denormal < -0.0 < +0.0 (twice)
/// < +denormal < 1 < +inf < NaN, and the three NaNs (+, -, with a payload) equal, so by position.
template <class T>
void check_nan_and_zero_order() {
  SCOPED_TRACE(sizeof(T) == 4 ? "float" : "double");
  using limits = std::numeric_limits<T>;
  using word = bkt::detail::radix_word<T>;
  T payload_nan = limits::quiet_NaN();
  word bits;
  std::memcpy(&bits, &payload_nan, sizeof(T));
  bits |= 0x2a;
  std::memcpy(&payload_nan, &bits, sizeof(T));
  const T nan = limits::quiet_NaN(), inf = limits::infinity(), tiny = limits::denorm_min();
  const std::vector<T> keys{T(1), nan, -T(0), -nan, T(0), -inf, inf, payload_nan, T(-1), tiny, -tiny, T(0)};
  const std::vector<std::int64_t> ascending{5, 8, 10, 2, 4, 11, 9, 0, 6, 1, 3, 7};
  const auto n = static_cast<std::int64_t>(keys.size());
  test_stream stream;
  bkt::workspace ws;
  device_input<T> input(keys, stream);
  std::vector<std::int64_t> every_rank(n), backwards(n);
  std::vector<T> want(n), want_backwards(n);
  for (std::int64_t k = 0; k < n; ++k) {
    every_rank[k] = k, want[k] = keys[ascending[k]];
    backwards[k] = n - 1 - k, want_backwards[k] = keys[ascending[n - 1 - k]];
  }
  EXPECT_TRUE(equal_in_order<T>(want, reference_ranks<T>(keys, every_rank))) << "the reference disagrees";
  // Largest first: the NaNs by position, then +inf, ..., both +0.0 by position; smallest first:
  // -inf, ..., both +0.0 by position.
  const std::vector<std::int64_t> descending{1, 3, 7, 6, 0, 9, 4, 11, 2, 10, 8, 5};
  const auto largest_four = expected_at<T>(keys, {1, 3, 7, 6});
  const auto smallest_six = expected_at<T>(keys, {5, 8, 10, 2, 4, 11});
  for (const auto algorithm : every_select_algorithm) {
    SCOPED_TRACE(name_of(algorithm));
    const auto options = make_select_options(algorithm, seed());
    check_select_kth<T>(input, every_rank, want, options, ws, stream);
    check_multiselect<T>(input, backwards, want_backwards, options, ws, stream, "every rank, descending");
    if (!has_own_top_k(algorithm)) continue;
    for (const bool sorted : {true, false}) {
      check_top_k<T>(keys, input, 4, largest_four, make_top_k_options(true, sorted, algorithm),
                     top_k_form::values_indices32, ws, stream);
      check_top_k<T>(keys, input, 6, smallest_six, make_top_k_options(false, sorted, algorithm),
                     top_k_form::values_indices64, ws, stream);
      check_top_k<T>(keys, input, n, expected_at(keys, descending), make_top_k_options(true, sorted, algorithm),
                     top_k_form::pairs64, ws, stream);
    }
  }
  for (const std::int64_t k : {0, 3, 4, 5, 9, 11}) {
    bkt::approx_select_options options;
    options.seed = seed();
    check_approx_select<T>(keys, input, k, options, ws, stream);
  }
}

TEST(select_cases, nan_and_signed_zero_follow_the_selection_order) {
  BKT_REQUIRE_GPU();
  check_nan_and_zero_order<float>();
  check_nan_and_zero_order<double>();
}

TEST(select_cases, bad_arguments_are_errors_not_crashes) {
  BKT_REQUIRE_GPU();
  using T = float;
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = 1000;
  const auto keys = generators<T>().front().make(n, seed());
  device_input<T> input(keys, stream);
  const std::span<const T> in = input.span();
  const std::span<const T> null_data(static_cast<const T*>(nullptr), 5);
  bkt::device_buffer<T> values(n + 1, stream), short_values(9, stream);
  bkt::device_buffer<std::int64_t> indices(n + 1, stream), short_indices(9, stream);
  bkt::device_buffer<bkt::approx_selection<T>> approx(1, stream);
  bkt::device_buffer<std::uint32_t> carried(n, stream), short_carried(n - 1, stream), carried_out(n + 1, stream);

  // Ranks outside [0, n), null data.
  EXPECT_THROW(bkt::select_kth<T>(in, -1, values.data(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::select_kth<T>(in, n, values.data(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::select_kth<T>(null_data, 0, values.data(), ws, stream), bkt::error);
  const std::vector<std::int64_t> negative{3, -1}, past_end{3, n}, fine{3, 5, 7};
  EXPECT_THROW(bkt::multiselect<T>(in, negative, values.span(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::multiselect<T>(in, past_end, values.span(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::multiselect<T>(in, fine, values.span().first(2), ws, stream), bkt::error) << "results too short";
  EXPECT_THROW(bkt::approx_select<T>(in, -1, approx.data(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::approx_select<T>(in, n, approx.data(), ws, stream), bkt::error);
  bkt::approx_select_options no_candidates, no_sample;
  no_candidates.candidates = 0;
  no_sample.sample_size = 0;
  EXPECT_THROW(bkt::approx_select<T>(in, 5, approx.data(), ws, stream, no_candidates), bkt::error);
  EXPECT_THROW(bkt::approx_select<T>(in, 5, approx.data(), ws, stream, no_sample), bkt::error);

  // top_k: k outside [0, n], a non-empty output shorter than k, values of another length.
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(in, -1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(in, n + 1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(in, 10, short_values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(in, 10, values.span(), short_indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k<T, std::int64_t>(null_data, 1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW(
      (bkt::top_k_pairs<T, std::uint32_t>(in, short_carried.span(), 10, values.span(), carried_out.span(), ws, stream)),
      bkt::error);
  EXPECT_THROW(
      (bkt::top_k_pairs<T, std::uint32_t>(in, carried.span(), n + 1, values.span(), carried_out.span(), ws, stream)),
      bkt::error);

  // top_k_batched: rows that do not divide the data, k above the row length, outputs too short.
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 3, 1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 0, 1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, -4, 1, values.span(), indices.span(), ws, stream)), bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 100, 11, values.span(), indices.span(), ws, stream)),
               bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 100, -1, values.span(), indices.span(), ws, stream)),
               bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 100, 5, values.span().first(499), indices.span(), ws, stream)),
               bkt::error);
  EXPECT_THROW((bkt::top_k_batched<T, std::int64_t>(in, 100, 5, values.span(), indices.span().first(499), ws, stream)),
               bkt::error);

  // The splitter-search baselines have no top_k: refused, not run as another algorithm.
  for (const auto algorithm : every_select_algorithm) {
    if (has_own_top_k(algorithm)) continue;
    SCOPED_TRACE(name_of(algorithm));
    EXPECT_THROW((bkt::detail::top_k_baseline<T, std::int64_t>(in, 10, values.span(), indices.span(), ws, stream,
                                                               algorithm, {})),
                 bkt::error);
    EXPECT_THROW((bkt::detail::top_k_pairs_baseline<T, std::uint32_t>(in, carried.span(), 10, values.span(),
                                                                      carried_out.span(), ws, stream, algorithm, {})),
                 bkt::error);
  }

  // The refusals left the stream and the workspace usable, and the input alone.
  EXPECT_TRUE(input.unchanged());
  const std::array<std::int64_t, 1> median{n / 2};
  check_select_kth<T>(input, median, std::vector<T>{bkt::ref::select_kth<T>(keys, n / 2)}, {}, ws, stream);
}

TEST(select_cases, a_fixed_workspace_of_n_over_4_elements_suffices_and_a_tiny_one_is_an_error_or_enough) {
  BKT_REQUIRE_GPU();
  using T = float;
  test_stream stream;
  // Large even in quick mode: fixed parts (approx_select's sample of 16384) exceed n / 4 of small n.
  const std::int64_t n = (1 << 20) + 7;
  const auto keys = generator_named<T>("sampling_adversary").make(n, seed());
  device_input<T> input(keys, stream);
  const auto ranks = rank_classes(n);
  const auto want = reference_ranks<T>(keys, ranks);
  const auto largest = reference_top_k_order<T>(keys, true);
  // The header promises auxiliary memory below n / 4 elements (the radix_sort baseline sorts a
  // copy, so it is left out).
  const std::size_t quarter = static_cast<std::size_t>(n / 4) * sizeof(T);
  bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(quarter), stream);
  bkt::workspace fixed(memory.data(), quarter);
  for (const auto algorithm : every_select_algorithm) {
    if (algorithm == select_baseline::radix_sort) continue;
    SCOPED_TRACE(name_of(algorithm) + " in " + std::to_string(quarter) + " bytes");
    const auto options = make_select_options(algorithm, seed());
    check_select_kth<T>(input, ranks, want, options, fixed, stream);
    check_multiselect<T>(input, ranks, want, options, fixed, stream, "rank classes");
    if (has_own_top_k(algorithm))
      check_top_k<T>(keys, input, 100, largest, make_top_k_options(true, false, algorithm),
                     top_k_form::values_indices32, fixed, stream);
  }
  // Beyond 16 distinct ranks the bucket passes run, in the same n / 4 elements.
  const auto quantiles = quantile_ranks(n, 1023);
  check_multiselect<T>(input, quantiles, reference_ranks<T>(keys, quantiles), {}, fixed, stream, "1023 quantiles");
  check_approx_select<T>(keys, input, n / 2, {}, fixed, stream);
  EXPECT_EQ(fixed.capacity(), quarter) << "a fixed workspace never grows";

  // 256 bytes: a call either fits or throws bkt::error; it never crashes or returns garbage.
  bkt::device_buffer<std::byte> tiny_memory(256, stream);
  bkt::workspace tiny(tiny_memory.data(), 256);
  for (const auto algorithm : every_select_algorithm) {
    SCOPED_TRACE(name_of(algorithm) + " in 256 bytes");
    const auto options = make_select_options(algorithm, seed());
    try {
      check_select_kth<T>(input, std::span<const std::int64_t>(ranks).first(1), std::span<const T>(want).first(1),
                          options, tiny, stream);
    } catch (const bkt::error& e) {
      EXPECT_FALSE(e.out_of_memory()) << "a fixed workspace that is too small is an argument error: " << e.what();
    }
    if (!has_own_top_k(algorithm)) continue;
    try {
      check_top_k<T>(keys, input, 10, largest, make_top_k_options(true, true, algorithm), top_k_form::values_indices64,
                     tiny, stream);
    } catch (const bkt::error& e) {
      EXPECT_FALSE(e.out_of_memory()) << e.what();
    }
  }
  EXPECT_TRUE(input.unchanged());
}

TEST(select_cases, one_workspace_serves_calls_of_every_size_and_type) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t big = quick_mode() ? 20011 : (1 << 20) + 7;
  const auto run = [&]<class T>(T, std::int64_t n) {
    SCOPED_TRACE(std::to_string(8 * sizeof(T)) + "-bit n=" + std::to_string(n));
    const auto keys = generators<T>().front().make(n, seed() + static_cast<std::uint64_t>(n));
    device_input<T> input(keys, stream);
    const auto ranks = rank_classes(n);
    const auto want = reference_ranks<T>(keys, ranks);
    check_select_kth<T>(input, ranks, want, {}, ws, stream);
    check_multiselect<T>(input, ranks, want, {}, ws, stream, "rank classes");
    check_top_k<T>(keys, input, n / 2, reference_top_k_order<T>(keys, false),
                   make_top_k_options(false, true), top_k_form::values_indices64, ws, stream);
  };
  // Large, then small ones of other types inside the grown workspace, then large again.
  run(float{}, big);
  run(std::int64_t{}, 1025);
  run(double{}, big / 3);
  run(std::uint32_t{}, 33);
  run(float{}, big);
}

/// A spread of small values from a position: cheap, so that 2^31 of them are made quickly.
std::int32_t background_value(std::int64_t i) {
  return static_cast<std::int32_t>(((static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull) >> 40) % 7) - 3;
}

/// 2^31 + 1001 int32 keys: background values -3..3 and 999 planted values 1000..1998, 500 of them
/// at positions above 2^31. The ranks follow from the counts of each value, and the top 1000 from
/// the planted positions and the first positions holding 3 (largest) or -3 (smallest).
TEST(select_cases, more_than_two_to_the_31_elements) {
  BKT_REQUIRE_GPU();
  if (quick_mode()) GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  using T = std::int32_t;
  const std::int64_t n = (std::int64_t{1} << 31) + 1001;
  const std::int64_t bytes = n * static_cast<std::int64_t>(sizeof(T));
  // The input and its pristine copy, the workspace (below n / 4 elements), and 2 GiB to spare.
  const std::int64_t needed = 2 * bytes + bytes / 4 + (std::int64_t{2} << 30);
  const std::int64_t free_bytes = bkt::current_device_info().free_memory_bytes;
  if (free_bytes < needed)
    GTEST_SKIP() << "needs " << (needed >> 20) << " MiB of free device memory, " << (free_bytes >> 20) << " MiB free";

  std::vector<T> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[i] = background_value(i);
  std::vector<std::int64_t> planted(999);
  for (std::int64_t j = 0; j < 999; ++j) {
    planted[j] = j < 500 ? n - 1 - j : (j - 500) * 4'000'000 + 12345;
    keys[planted[j]] = static_cast<T>(1000 + j);
  }
  std::array<std::int64_t, 7> count{};
  for (const T x : keys)
    if (x < 1000) ++count[x + 3];
  const auto value_of_rank = [&](std::int64_t k) {
    for (int v = 0; v < 7; ++v) {
      if (k < count[v]) return static_cast<T>(v - 3);
      k -= count[v];
    }
    return static_cast<T>(1000 + k);  // the planted values, one each
  };
  const auto first_positions_of = [&](T value, std::int64_t how_many) {
    std::vector<std::int64_t> positions;
    for (std::int64_t i = 0; i < n && static_cast<std::int64_t>(positions.size()) < how_many; ++i)
      if (keys[i] == value) positions.push_back(i);
    return positions;
  };
  const std::int64_t two_31 = std::int64_t{1} << 31;
  const std::vector<std::int64_t> ranks{0, n / 2, two_31 - 1, two_31, two_31 + 500, n - 1000, n - 999, n - 1};
  std::vector<T> want(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) want[i] = value_of_rank(ranks[i]);
  std::vector<std::int64_t> largest_positions;
  for (std::int64_t j = 998; j >= 0; --j) largest_positions.push_back(planted[j]);
  largest_positions.push_back(first_positions_of(3, 1)[0]);
  const auto largest = expected_at(keys, largest_positions);
  const auto smallest = expected_at(keys, first_positions_of(-3, 1000));

  test_stream stream;
  bkt::workspace ws;
  try {
    device_input<T> input(keys, stream);
    for (const auto algorithm : {select_baseline::none, select_baseline::sample_select}) {
      SCOPED_TRACE(name_of(algorithm));
      const auto options = make_select_options(algorithm, seed());
      check_select_kth<T>(input, ranks, want, options, ws, stream);
      if (!has_own_top_k(algorithm)) continue;
      check_top_k<T>(keys, input, 1000, largest, make_top_k_options(true, true, algorithm),
                     top_k_form::values_indices32, ws, stream);
      check_top_k<T>(keys, input, 1000, smallest, make_top_k_options(false, true, algorithm),
                     top_k_form::values_indices64, ws, stream);
      check_top_k<T>(keys, input, 1000, largest, make_top_k_options(true, false, algorithm),
                     top_k_form::values_indices64, ws, stream);
    }
    check_multiselect<T>(input, ranks, want, {}, ws, stream, "ranks across 2^31");
    // The bucket passes: quantiles (mostly in the equality buckets of -3..3) and the last 1000
    // ranks (one bucket above every sampled value, sorted).
    auto many = quantile_ranks(n, 1023);
    for (std::int64_t k = n - 1000; k < n; ++k) many.push_back(k);
    std::vector<T> want_many(many.size());
    for (std::size_t i = 0; i < many.size(); ++i) want_many[i] = value_of_rank(many[i]);
    check_multiselect<T>(input, many, want_many, {}, ws, stream, "quantiles and the top 1000 ranks of 2^31 + 1001");
  } catch (const bkt::error& e) {
    if (e.out_of_memory()) GTEST_SKIP() << "not enough device memory: " << e.what();
    throw;
  }
}

}  // namespace
