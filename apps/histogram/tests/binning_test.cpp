// How bins are chosen: a range from the data (file read twice, standard input held in memory),
// --edges, --log, --weights, and streaming over many chunks giving the same answer as one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "expected.hpp"
#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

class binning : public tool_test {};


std::vector<double> edges_of(const nlohmann::json& got) { return got["edges"].get<std::vector<double>>(); }

/// 1000 doubles in [-3, 17), with a few awkward values.
std::vector<double> spread() {
  std::vector<double> values;
  for (int index = 0; index < 1000; ++index) values.push_back(-3.0 + 20.0 * ((index * 7919) % 1000) / 1000.0);
  return values;
}

constexpr auto from_data = bkt::edge_precision::data;  // NumPy's edges for a range taken from the data

double max_of(const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); }

/// Weights that sum exactly in any order (multiples of 1/4, small), so GPU atomics match too.
std::vector<double> quarter_weights(std::size_t count) {
  std::vector<double> weights;
  for (std::size_t index = 0; index < count; ++index) weights.push_back(static_cast<double>(index % 9) * 0.25 - 0.5);
  return weights;
}

TEST_F(binning, range_from_the_data_puts_the_max_in_the_closed_last_bin) {
  const std::vector<double> values = {1.5, 2.0, 3.0, 7.25, 7.25, 4.0};
  write_npy<double>(path("data.npy"), values);
  const auto got = run_json({path("data.npy"), "--bins", "4"});
  EXPECT_EQ(edges_of(got), (std::vector<double>{1.5, 2.9375, 4.375, 5.8125, 7.25}));  // numpy.histogram's
  expect_matches(got, expect_even<double>(values, 1.5, 7.25, 4, {}, from_data));
  EXPECT_EQ(got["counts"][3], 2);
  EXPECT_EQ(got["totals"]["outside"], 0);
}

TEST_F(binning, range_from_integer_data_is_min_to_max) {
  const std::vector<std::int32_t> values = {-7, 0, 3, 12, 12, 5, -7, 1};
  write_raw<std::int32_t>(path("data.i32"), values);
  const auto got = run_json({path("data.i32"), "--dtype", "i32", "--bins", "5"});
  EXPECT_EQ(got["binned_as"], "i32");
  EXPECT_EQ(edges_of(got).front(), -7.0);
  EXPECT_EQ(edges_of(got).back(), 12.0);
  expect_matches(got, expect_even<std::int32_t>(values, -7, 12, 5));
  EXPECT_EQ(got["counts"][4], 2) << "12 twice, in the closed last bin";
}

TEST_F(binning, range_from_the_data_skips_nan_and_infinities) {
  std::vector<float> values = {2.0f, 8.0f, 5.0f, std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  write_raw<float>(path("data.f32"), values);
  const auto got = run_json({path("data.f32"), "--dtype", "f32", "--bins", "3"});
  expect_matches(got, expect_even<float>(values, 2.0, 8.0, 3, {}, from_data));
  EXPECT_EQ(got["counts"], nlohmann::json::array({1, 1, 1}));
  EXPECT_EQ(got["outside"]["below"], 1);
  EXPECT_EQ(got["outside"]["above"], 1);
  EXPECT_EQ(got["outside"]["nan"], 1);
}

TEST_F(binning, standard_input_without_range_is_held_in_memory) {
  const auto values = spread();
  write_file(path("data.txt"), text_lines<double>(values));
  const auto from_file = run_json({path("data.txt"), "--bins", "11", "--chunk-items", "64"});
  const auto from_stdin = run_json({"--bins", "11", "--chunk-items", "64"}, text_lines<double>(values));
  EXPECT_EQ(from_file["edges"], from_stdin["edges"]);
  EXPECT_EQ(from_file["counts"], from_stdin["counts"]);
  expect_matches(from_stdin, expect_even<double>(values, -3.0, max_of(values), 11, {}, from_data));
}

TEST_F(binning, one_distinct_value_gets_a_unit_bin_around_it) {
  const std::vector<double> values(10, 5.0);
  write_npy<double>(path("same.npy"), values);
  const auto got = run_json({path("same.npy"), "--bins", "2"});
  EXPECT_EQ(edges_of(got), (std::vector<double>{4.5, 5.0, 5.5}));
  EXPECT_EQ(got["counts"], nlohmann::json::array({0, 10}));
}

TEST_F(binning, edges_from_a_text_file) {
  const auto values = spread();
  write_npy<double>(path("data.npy"), values);
  write_file(path("edges.txt"), "# edges\n-1\n0\n2.5\n10\n16\n");
  const auto got = run_json({path("data.npy"), "--edges", path("edges.txt")});
  const std::vector<double> edges = {-1, 0, 2.5, 10, 16};
  EXPECT_EQ(got["binning"], "edges");
  EXPECT_EQ(edges_of(got), edges);
  expect_matches(got, expect_edges(values, edges));
}

TEST_F(binning, float_data_compares_with_double_edges_as_numpy_does) {
  std::vector<float> values;
  for (int index = 0; index < 500; ++index) values.push_back(static_cast<float>(index) * 0.01f);
  write_raw<float>(path("data.f32"), values);
  const std::vector<double> edges = {0.1, 0.3, 0.7, 2.2, 4.9};
  write_npy<double>(path("edges.npy"), edges);
  const auto got = run_json({path("data.f32"), "--dtype", "f32", "--edges", path("edges.npy")});
  EXPECT_EQ(got["binned_as"], "f32");  // against f32 edges rounded so that they compare the same
  const std::vector<double> as_double(values.begin(), values.end());
  expect_matches(got, expect_edges(as_double, edges));  // compared in f64, as NumPy compares them
  EXPECT_EQ(edges_of(got), edges);  // the edges as given, as numpy.histogram returns them
}

TEST_F(binning, integer_data_keeps_its_type_only_for_integer_edges) {
  const std::vector<std::int16_t> values = {-3, -1, 0, 1, 2, 3, 4, 5, 9, 10};
  write_raw<std::int16_t>(path("data.i16"), values);
  write_file(path("whole.txt"), "-1\n2\n5\n10\n");
  write_file(path("half.txt"), "-1.5\n2.5\n5\n9.5\n");
  const std::vector<double> as_double(values.begin(), values.end());
  const auto whole = run_json({path("data.i16"), "--dtype", "i16", "--edges", path("whole.txt")});
  EXPECT_EQ(whole["binned_as"], "i16");
  expect_matches(whole, expect_edges(as_double, std::vector<double>{-1, 2, 5, 10}));
  const auto half = run_json({path("data.i16"), "--dtype", "i16", "--edges", path("half.txt")});
  EXPECT_EQ(half["binned_as"], "f64");
  expect_matches(half, expect_edges(as_double, std::vector<double>{-1.5, 2.5, 5, 9.5}));
}

TEST_F(binning, log_bins_with_a_range) {
  std::vector<double> values = {-1.0, 0.0, 0.001, 0.01, 0.5, 1.0, 3.0, 10.0, 99.0, 100.0, 1000.0, 1e6};
  write_npy<double>(path("data.npy"), values);
  const auto got = run_json({path("data.npy"), "--log", "--bins", "5", "--range", "0.01:1000"});
  const auto edges = edges_of(got);
  ASSERT_EQ(edges.size(), 6u);
  EXPECT_EQ(edges.front(), 0.01);
  EXPECT_EQ(edges.back(), 1000.0);
  for (std::size_t index = 0; index < edges.size(); ++index)
    EXPECT_NEAR(std::log10(edges[index]), -2.0 + static_cast<double>(index), 1e-12);
  EXPECT_EQ(got["binning"], "log");
  expect_matches(got, expect_edges(values, edges));
  EXPECT_EQ(got["outside"]["below"], 3);  // -1, 0 and 0.001: values <= 0 are below a log range
  EXPECT_EQ(got["outside"]["above"], 1);  // 1e6; 1000 is in the closed last bin
}

TEST_F(binning, log_bins_from_the_data_start_at_the_smallest_positive_value) {
  const std::vector<double> values = {-4.0, 0.0, 0.5, 2.0, 50.0, 800.0};
  write_npy<double>(path("data.npy"), values);
  const auto got = run_json({path("data.npy"), "--log", "--bins", "3"});
  const auto edges = edges_of(got);
  EXPECT_EQ(edges.front(), 0.5);
  EXPECT_EQ(edges.back(), 800.0);
  expect_matches(got, expect_edges(values, edges));
  EXPECT_EQ(got["outside"]["below"], 2);
  EXPECT_EQ(got["totals"]["in_range"], 4);
}

TEST_F(binning, log_bins_from_integer_data_end_at_the_max) {
  const std::vector<std::uint32_t> degrees = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 1045};
  write_npy<std::uint32_t>(path("degrees.npy"), degrees);
  const auto got = run_json({path("degrees.npy"), "--log", "--bins", "4"});
  const auto edges = edges_of(got);
  EXPECT_EQ(edges.front(), 1.0);
  EXPECT_EQ(edges.back(), 1045.0);  // the largest degree lands in the closed last bin
  EXPECT_EQ(got["binned_as"], "f64");
  const std::vector<double> as_double(degrees.begin(), degrees.end());
  expect_matches(got, expect_edges(as_double, edges));
  EXPECT_EQ(got["outside"]["below"], 1);
  EXPECT_EQ(got["counts"][3], 1);  // [183.6..., 1045]: 1045 alone
}

TEST_F(binning, range_from_sixty_four_bit_integers_is_min_to_max) {
  const std::vector<std::int64_t> values = {-9007199254740991ll, 0, 7};
  write_raw<std::int64_t>(path("data.i64"), values);
  const auto got = run_json({path("data.i64"), "--dtype", "i64", "--bins", "2"});
  EXPECT_EQ(got["binned_as"], "f64");
  EXPECT_EQ(edges_of(got).back(), 7.0);
  EXPECT_EQ(got["counts"], nlohmann::json::array({1, 2}));
}

TEST_F(binning, weights_sum_per_bin) {
  const auto values = spread();
  const auto weights = quarter_weights(values.size());
  write_npy<double>(path("data.npy"), values);
  write_file(path("weights.txt"), text_lines<double>(weights));
  const auto got = run_json({path("data.npy"), "--bins", "6", "--range", "0:12", "--weights", path("weights.txt")});
  EXPECT_TRUE(got.contains("sums"));
  EXPECT_FALSE(got.contains("counts"));
  EXPECT_EQ(got["weights"], path("weights.txt").string());
  expect_matches(got, expect_even<double>(values, 0.0, 12.0, 6, weights));
  EXPECT_EQ(got["totals"]["elements"], 1000);
}

TEST_F(binning, weights_from_another_column_of_the_same_csv) {
  std::string csv;
  std::vector<double> values, weights;
  for (int row = 0; row < 50; ++row) {
    values.push_back(row % 10);
    weights.push_back(row * 0.5);
    csv += std::to_string(row % 10);
    csv += ",";
    csv += number_text(row * 0.5);
    csv += "\n";
  }
  write_file(path("pairs.csv"), csv);
  const auto got = run_json({path("pairs.csv"), "--column", "1", "--weights", path("pairs.csv"), "--weights-column",
                             "2", "--bins", "5", "--range", "0:10"});
  expect_matches(got, expect_even<double>(values, 0.0, 10.0, 5, weights));
}

TEST_F(binning, many_small_chunks_give_the_same_answer) {
  const auto values = spread();
  std::vector<float> narrow(values.begin(), values.end());
  write_raw<float>(path("data.f32"), narrow);
  write_file(path("data.txt"), text_lines<double>(values));
  for (const char* chunk : {"1", "7", "999", "1000", "4096"}) {
    SCOPED_TRACE(chunk);
    const auto raw = run_json({path("data.f32"), "--dtype", "f32", "--bins", "10", "--range", "-2:15", "--chunk-items", chunk});
    expect_matches(raw, expect_even<float>(narrow, -2.0, 15.0, 10));
    const auto text = run_json({path("data.txt"), "--bins", "10", "--chunk-items", chunk});
    expect_matches(text, expect_even<double>(values, -3.0, max_of(values), 10, {}, from_data));
  }
}

TEST_F(binning, weighted_edges_streamed) {
  const auto values = spread();
  const auto weights = quarter_weights(values.size());
  write_npy<double>(path("data.npy"), values);
  write_npy<double>(path("weights.npy"), weights);
  write_file(path("edges.txt"), "-2\n0\n1\n4\n8\n16\n");
  const std::vector<double> edges = {-2, 0, 1, 4, 8, 16};
  for (const char* chunk : {"3", "1000"}) {
    const auto got = run_json({path("data.npy"), "--edges", path("edges.txt"), "--weights", path("weights.npy"),
                               "--chunk-items", chunk});
    expect_matches(got, expect_edges(values, edges, weights));
  }
}

TEST_F(binning, cpu_flag_gives_the_same_counts) {
  // Without a GPU both runs take the CPU path; with one, this compares the GPU with bkt::ref.
  const auto values = spread();
  write_npy<double>(path("data.npy"), values);
  const auto automatic = run_json({path("data.npy"), "--bins", "17", "--range", "-1:15.5"});
  const auto cpu = run_json({path("data.npy"), "--bins", "17", "--range", "-1:15.5", "--cpu"});
  EXPECT_EQ(automatic["counts"], cpu["counts"]);
  EXPECT_EQ(automatic["outside"], cpu["outside"]);
  EXPECT_EQ(cpu["timing"]["device"], "cpu");
}

}  // namespace
}  // namespace histogram_test
