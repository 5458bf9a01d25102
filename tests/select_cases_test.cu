// GPU selection against bkt::ref over every element type, generator and size, for the default and
// every bench baseline (bkt/detail/select/baselines.hpp) and a few sampling seeds: select_kth,
// multiselect, approx_select's certificate, top_k in every output form (and top_k_pairs), and
// top_k_batched over uneven rows and at every boundary of its kernels. Named behaviours and errors
// are in select_test.cu.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bkt/select.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/select_run.cuh"

namespace {

using namespace bkt::test;

template <class T>
class select_sweep : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(select_sweep, select_types);

std::string input_name(const std::string& generator, std::int64_t n) {
  return generator + " n=" + std::to_string(n) + " BKT_TEST_SEED=" + std::to_string(seed());
}

TYPED_TEST(select_sweep, select_kth_matches_reference_for_every_algorithm_and_seed) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(input_name(gen.name, n));
      const auto keys = gen.make(n, seed() + static_cast<std::uint64_t>(n));
      device_input<T> input(keys, stream);
      if (n == 0) {
        bkt::device_buffer<T> result(1, stream);
        EXPECT_THROW(bkt::select_kth<T>(input.span(), 0, result.data(), ws, stream), bkt::error);
        continue;
      }
      const auto ranks = rank_classes(n);
      const auto want = reference_ranks<T>(keys, ranks);
      for (const auto algorithm : every_select_algorithm)
        for (const std::uint64_t sampling_seed : sampling_seeds()) {
          SCOPED_TRACE(name_of(algorithm) + " seed=" + std::to_string(sampling_seed));
          check_select_kth<T>(input, ranks, want, make_select_options(algorithm, sampling_seed), ws, stream);
        }
      if (::testing::Test::HasFailure()) return;  // the first failing input says enough
    }
}

TYPED_TEST(select_sweep, multiselect_of_quantile_repeated_and_unsorted_ranks_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      if (n == 0) continue;  // select_test.cu: ranks into an empty input are errors
      SCOPED_TRACE(input_name(gen.name, n));
      const auto keys = gen.make(n, seed() + static_cast<std::uint64_t>(n));
      device_input<T> input(keys, stream);
      // The rank lists, all answered by one reference call: the rank classes; 1023 quantiles; a
      // few ranks repeated; the quantiles shuffled.
      const auto classes = rank_classes(n);
      const auto quantiles = quantile_ranks(n, 1023);
      const std::vector<std::int64_t> repeated{n / 2, n / 2, 0, n - 1, n / 2, 0, n - 1, n / 3};
      auto shuffled = quantiles;
      std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(seed() + 7));
      const std::vector<std::pair<std::string, std::vector<std::int64_t>>> lists{{"rank classes", classes},
                                                                                 {"1023 quantiles", quantiles},
                                                                                 {"repeated ranks", repeated},
                                                                                 {"unsorted quantiles", shuffled}};
      std::vector<std::int64_t> all_ranks;
      for (const auto& [name, ranks] : lists) all_ranks.insert(all_ranks.end(), ranks.begin(), ranks.end());
      const auto all_want = reference_ranks<T>(keys, all_ranks);
      for (const auto algorithm : every_select_algorithm)
        for (const std::uint64_t sampling_seed : sampling_seeds()) {
          SCOPED_TRACE(name_of(algorithm) + " seed=" + std::to_string(sampling_seed));
          std::size_t at = 0;
          for (const auto& [name, ranks] : lists) {
            check_multiselect<T>(input, ranks, std::span<const T>(all_want).subspan(at, ranks.size()),
                                 make_select_options(algorithm, sampling_seed), ws, stream, name);
            at += ranks.size();
          }
        }
      if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(select_sweep, approx_select_certificate_is_exact_and_its_error_within_the_bound) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  // The default; a small sample with fewer candidates; a large sample.
  std::vector<bkt::approx_select_options> settings(3);
  settings[1].candidates = 63;
  settings[1].sample_size = 1024;
  settings[2].sample_size = 65536;
  if (quick_mode()) settings.resize(2);
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(input_name(gen.name, n));
      const auto keys = gen.make(n, seed() + static_cast<std::uint64_t>(n));
      device_input<T> input(keys, stream);
      if (n == 0) {
        bkt::device_buffer<bkt::approx_selection<T>> result(1, stream);
        EXPECT_THROW(bkt::approx_select<T>(input.span(), 0, result.data(), ws, stream), bkt::error);
        continue;
      }
      for (auto options : settings)
        for (const std::uint64_t sampling_seed : sampling_seeds()) {
          options.seed = sampling_seed;
          for (const std::int64_t k : rank_classes(n)) check_approx_select<T>(keys, input, k, options, ws, stream);
        }
      if (::testing::Test::HasFailure()) return;
    }
}

/// Up to this size (and outside quick mode) every (direction, sortedness) pair runs for every count
/// and algorithm; above it one pair in turn, so that the host-side checking of the largest inputs
/// (and the sanitizer runs) stay short.
constexpr std::int64_t every_top_k_combination_limit = std::int64_t{1} << 17;

TYPED_TEST(select_sweep, top_k_in_every_output_form_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  std::uint64_t turn = 0;  // rotates the output forms (and, for large inputs, the combinations)
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(input_name(gen.name, n));
      const auto keys = gen.make(n, seed() + static_cast<std::uint64_t>(n));
      device_input<T> input(keys, stream);
      // One reference sort per input (the largest-first order; smallest_first derives the other):
      // top_k of every k is a prefix of these.
      const top_k_order<T> largest = reference_top_k_order<T>(keys, true);
      const top_k_order<T> smallest = smallest_first(largest);
      const auto sampling_seed = sampling_seeds().back();
      for (const std::int64_t k : top_k_counts(n))
        for (const auto algorithm : every_top_k_algorithm) {
          const auto run = [&](int combination, top_k_form form) {
            const bool want_largest = (combination & 1) == 0, sorted = (combination & 2) == 0;
            check_top_k<T>(keys, input, k, want_largest ? largest : smallest,
                           make_top_k_options(want_largest, sorted, algorithm, sampling_seed), form, ws, stream);
          };
          // The default, which users call, twice over, so that its runs of one input see every
          // output form (4 combinations x 2 rounds = 8 forms).
          const int rounds = algorithm == select_baseline::none ? 2 : 1;
          for (int round = 0; round < rounds; ++round) {
            if (n <= every_top_k_combination_limit && !quick_mode()) {
              for (int combination = 0; combination < 4; ++combination)
                run(combination, every_top_k_form[turn++ % every_top_k_form.size()]);
            } else {
              run(static_cast<int>(turn % 4), every_top_k_form[(turn / 4) % every_top_k_form.size()]);
              ++turn;
            }
          }
        }
      // More than n is an error.
      bkt::device_buffer<T> values(n + 1, stream);
      bkt::device_buffer<std::int64_t> indices(n + 1, stream);
      EXPECT_THROW((bkt::top_k<T, std::int64_t>(input.span(), n + 1, values.span(), indices.span(), ws, stream)),
                   bkt::error);
      if (::testing::Test::HasFailure()) return;
    }
}

struct batch_shape {
  std::int64_t rows;
  std::int64_t cols;
  std::vector<std::int64_t> counts;
};

TYPED_TEST(select_sweep, top_k_batched_over_uneven_rows_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  std::vector<batch_shape> shapes{{1, 1, {0, 1}},       {3, 33, {0, 1, 5, 33}}, {7, 1000, {1, 32, 500, 1000}},
                                  {1000, 7, {1, 3, 7}}, {64, 4096, {32, 256}},  {2, 65537, {1, 32}}};
  if (!quick_mode()) shapes.push_back({513, 65536, {32}});
  const std::int64_t largest_size = sizes().back();
  std::uint64_t turn = 0;
  for (const auto& [rows, cols, counts] : shapes) {
    if (quick_mode() && rows * cols > largest_size) continue;
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " BKT_TEST_SEED=" + std::to_string(seed()));
    const auto matrix = batched_matrix<T>(rows, cols, seed() + static_cast<std::uint64_t>(rows * cols));
    device_input<T> input(matrix, stream);
    for (const std::int64_t k : counts)
      for (const bool largest : {true, false}) {
        const auto want = reference_top_k_batched<T>(matrix, rows, k, largest);
        for (const bool sorted : {true, false}) {
          const auto options = make_top_k_options(largest, sorted);  // top_k_batched has no baselines
          if (turn++ % 2 == 0)
            check_top_k_batched<T, std::uint32_t>(matrix, input, rows, k, want, options, ws, stream);
          else
            check_top_k_batched<T, std::int64_t>(matrix, input, rows, k, want, options, ws, stream);
        }
      }
    if (::testing::Test::HasFailure()) return;
  }
}

/// Rows that start one element past 16-byte alignment take the kernels' element-wise loads: a
/// full register tile (4096), a short row and a long one.
TYPED_TEST(select_sweep, top_k_batched_on_unaligned_rows_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  for (const std::int64_t cols : {std::int64_t{4096}, std::int64_t{1000}, std::int64_t{8193}}) {
    const std::int64_t rows = 5;
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " BKT_TEST_SEED=" + std::to_string(seed()));
    auto padded = batched_matrix<T>(rows, cols, seed() + static_cast<std::uint64_t>(cols));
    padded.insert(padded.begin(), T(1));
    device_input<T> input(padded, stream);
    const auto matrix = std::span<const T>(padded).subspan(1);
    for (const std::int64_t k : {std::int64_t{1}, std::int64_t{33}})
      for (const bool sorted : {false, true}) {
        const auto want = reference_top_k_batched<T>(matrix, rows, k, true);
        check_top_k_batched<T, std::uint32_t>(matrix, input, rows, k, want, make_top_k_options(true, sorted), ws,
                                              stream, true, true, 1);
      }
    if (::testing::Test::HasFailure()) return;
  }
}

/// One row of each kind that takes another path through the batched kernels: uniform, all equal
/// (no histogram at all), two values and 16 distinct (the target bin is one value: ties by
/// position), ascending and descending (for the long rows, every tile beats the bound, or none
/// does), a sawtooth, Zipf, the bit patterns, NaNs and infinities among numbers (nan_row), and, for
/// floats, -0.0 and +0.0 alone (they differ in the selection order).
template <class T>
std::vector<T> boundary_matrix(std::int64_t cols, std::uint64_t seed, std::int64_t& rows) {
  std::vector<T> matrix;
  rows = 0;
  const auto add = [&](std::vector<T> row) {
    matrix.insert(matrix.end(), row.begin(), row.end());
    ++rows;
  };
  const auto gens = generators<T>();
  for (const char* name : {"uniform", "all_equal", "two_values", "sixteen_distinct", "sorted", "reverse_sorted",
                           "sawtooth", "zipf", "bit_patterns"}) {
    const auto gen = std::find_if(gens.begin(), gens.end(), [&](const generator<T>& g) { return g.name == name; });
    if (gen != gens.end()) add(gen->make(cols, seed + static_cast<std::uint64_t>(rows)));
  }
  add(nan_row<T>(cols, seed + 99));
  if constexpr (std::is_floating_point_v<T>) {
    std::mt19937_64 rng(seed + 7);
    std::vector<T> zeros(static_cast<std::size_t>(cols));
    for (T& x : zeros) x = (rng() & 1) ? T(0) : -T(0);
    add(zeros);
  }
  return matrix;
}

/// The row lengths that meet every boundary of the batched kernels (batched_kernels.cuh): a
/// thread's 16 items (16, 17), a warp's (512, 513), the first round's 2048 bins, the register tile
/// of 4096 (4095, 4096, 4097) and its multiples, where the long rows' tiles begin (8191 to 8193,
/// 12289), long rows, and the row lengths around the k that the bench runs (31 to 33, 255 to 257).
/// In quick mode (sanitizers) a few of each kind.
std::vector<std::int64_t> boundary_row_lengths() {
  if (quick_mode()) return {33, 4096, 4097, 8193};
  return {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 511, 512, 513, 2047, 2048, 2049, 4080, 4095, 4096, 4097,
          4111, 8191, 8192, 8193, 12289, 65536, 65537};
}

/// The counts a row of `cols` keeps: 1, around a warp (31 to 33) and the bench's 256, half the
/// row, the row but one, the whole row; for long rows also around 2048, the most the streaming
/// kernel keeps (2049 and more take the one-block-a-row fallback). In quick mode 1, 33 and the row
/// but one (at 8193, the fallback).
std::vector<std::int64_t> boundary_counts(std::int64_t cols) {
  std::vector<std::int64_t> counts{1, 33, cols - 1};
  if (!quick_mode()) counts.insert(counts.end(), {2, 31, 32, 255, 256, 257, 2047, 2048, 2049, cols / 2, cols});
  std::erase_if(counts, [cols](std::int64_t k) { return k < 1 || k > cols; });
  // The fallback of long rows with a large k reads its row once per radix digit: keep one of those.
  if (cols > 8193) std::erase_if(counts, [](std::int64_t k) { return k > 2049; });
  return distinct_sorted(counts);
}

TYPED_TEST(select_sweep, top_k_batched_at_every_tile_boundary_matches_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  std::uint64_t turn = 0;  // rotates the index type and the output forms
  for (const std::int64_t cols : boundary_row_lengths()) {
    std::int64_t rows = 0;
    const auto matrix = boundary_matrix<T>(cols, seed() + static_cast<std::uint64_t>(cols), rows);
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " BKT_TEST_SEED=" + std::to_string(seed()));
    device_input<T> input(matrix, stream);
    for (const std::int64_t k : boundary_counts(cols))
      for (const bool largest : {true, false}) {
        const auto want = reference_top_k_batched<T>(matrix, rows, k, largest);
        for (const bool sorted : {false, true}) {
          const auto options = make_top_k_options(largest, sorted);
          // Mostly both outputs; every fifth call values alone or indices alone.
          const int form = turn % 5 == 4 ? static_cast<int>(turn / 5 % 2) + 1 : 0;
          const bool with_values = form != 2, with_indices = form != 1;
          if (turn++ % 2 == 0)
            check_top_k_batched<T, std::uint32_t>(matrix, input, rows, k, want, options, ws, stream, with_values,
                                                  with_indices);
          else
            check_top_k_batched<T, std::int64_t>(matrix, input, rows, k, want, options, ws, stream, with_values,
                                                 with_indices);
        }
      }
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
