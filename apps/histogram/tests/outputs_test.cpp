// What the tool writes: the table (exact layout), JSON, terminal bars, -o, --help and
// --version; and that files appear whole, with no temporaries left behind.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

class outputs : public tool_test {
 protected:
  void SetUp() override {
    tool_test::SetUp();
    write_raw<std::int32_t>(path("small.i32"), small);
  }
  const std::vector<std::int32_t> small = {0, 1, 1, 2, 3, 3, 3, 9, -1, 20};
  const std::string small_table =
      "lower  upper  count  fraction\n"
      "    0      2      3  0.428571\n"
      "    2      4      4  0.571429\n"
      "    4      6      0  0.000000\n"
      "    6      8      0  0.000000\n"
      "in range: 7  outside: 3 (below 1, above 2, NaN 0)  total: 10\n";
};

/// Unicode code points in a UTF-8 line: its width in terminal columns for the characters used here.
std::size_t columns_of(const std::string& line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST_F(outputs, table_layout) {
  const auto run = run_histogram({path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, small_table);
  EXPECT_EQ(run.err, "");
}

TEST_F(outputs, float_edges_print_as_the_shortest_float) {
  const std::vector<float> values = {0.05f, 0.15f, 0.25f};
  write_raw<float>(path("data.f32"), values);
  const auto run = run_histogram({path("data.f32"), "--dtype", "f32", "--bins", "3", "--range", "0:0.3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = lines_of(run.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(fields_of(lines[1]), (std::vector<std::string>{"0", "0.1", "1", "0.333333"}));
  EXPECT_EQ(fields_of(lines[2]), (std::vector<std::string>{"0.1", "0.2", "1", "0.333333"}));
  EXPECT_EQ(fields_of(lines[3]), (std::vector<std::string>{"0.2", "0.3", "1", "0.333333"}));
}

TEST_F(outputs, weighted_table_names_the_column_weight) {
  write_file(path("data.txt"), "1\n2\n3\n");
  write_file(path("weights.txt"), "0.5\n0.25\n4\n");
  const auto run = run_histogram({path("data.txt"), "--weights", path("weights.txt"), "--bins", "2", "--range", "0:4"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "lower  upper  weight  fraction\n"
            "    0      2     0.5  0.105263\n"
            "    2      4    4.25  0.894737\n"
            "in range: 4.75  outside: 0 (below 0, above 0, NaN 0)  total: 4.75  elements: 3\n");
}

TEST_F(outputs, json_document) {
  const auto got = run_json({path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8"});
  EXPECT_EQ(got["input"], path("small.i32").string());
  EXPECT_TRUE(got["weights"].is_null());
  EXPECT_EQ(got["binning"], "even");
  EXPECT_EQ(got["bins"], 4);
  EXPECT_EQ(got["edges"], nlohmann::json::array({0, 2, 4, 6, 8}));
  EXPECT_EQ(got["counts"], nlohmann::json::array({3, 4, 0, 0}));
  EXPECT_EQ(got["outside"], nlohmann::json({{"below", 1}, {"above", 2}, {"nan", 0}, {"total", 3}}));
  EXPECT_EQ(got["totals"], nlohmann::json({{"in_range", 7}, {"outside", 3}, {"all", 10}, {"elements", 10}}));
  EXPECT_EQ(got["timing"]["elements"], 10);
  EXPECT_GE(got["timing"]["seconds"].get<double>(), 0.0);
  EXPECT_GE(got["timing"]["elements_per_second"].get<double>(), 0.0);
  EXPECT_TRUE(got["timing"]["device"].is_string());
}

TEST_F(outputs, json_file_beside_the_table_and_table_to_a_file) {
  const auto both = run_histogram(
      {path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8", "--json", path("out.json")});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.out, small_table);
  EXPECT_EQ(nlohmann::json::parse(read_file(path("out.json")))["counts"], nlohmann::json::array({3, 4, 0, 0}));

  const auto to_file = run_histogram(
      {path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8", "-o", path("table.txt"), "--json", "-"});
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_EQ(read_file(path("table.txt")), small_table);
  EXPECT_EQ(nlohmann::json::parse(to_file.out)["bins"], 4);
  EXPECT_EQ(listing(), (std::vector<std::string>{"out.json", "small.i32", "table.txt"}));
}

TEST_F(outputs, terminal_bars_fit_the_width) {
  for (int columns : {40, 80, 120}) {
    const auto run = run_histogram({path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8", "--bars"},
                                   "", columns);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto lines = lines_of(run.out);
    ASSERT_EQ(lines.size(), 5u);
    for (std::size_t bin = 0; bin < 4; ++bin) EXPECT_LE(columns_of(lines[bin]), static_cast<std::size_t>(columns));
    // Label "[0, 2)", two spaces, bar, two spaces, value: the bar takes the rest. The fullest bin (4)
    // fills it; 3 of 4 fills three quarters, rounded to eighths of a column; empty bins draw nothing.
    const std::string full = "\u2588";
    const long bar_columns = columns - 6 - 2 - 2 - 1;
    EXPECT_EQ(lines[1].find("[2, 4)"), 0u);
    EXPECT_EQ(static_cast<long>(occurrences(lines[1], full)), bar_columns);
    EXPECT_EQ(static_cast<long>(occurrences(lines[0], full)), std::lround(0.75 * bar_columns * 8) / 8);
    EXPECT_EQ(columns_of(lines[1]), static_cast<std::size_t>(columns));
    EXPECT_EQ(occurrences(lines[2], full), 0u);
    EXPECT_EQ(lines[4], "in range: 7  outside: 3 (below 1, above 2, NaN 0)  total: 10");
  }
}

TEST_F(outputs, empty_input_with_a_range) {
  write_file(path("empty.txt"), "# nothing\n");
  const auto got = run_json({path("empty.txt"), "--bins", "2", "--range", "0:1"});
  EXPECT_EQ(got["counts"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(got["totals"]["elements"], 0);
}

TEST_F(outputs, help_and_version) {
  const auto help = run_histogram({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* needle : {"INPUT", "--bins", "--range", "--edges", "--log", "--weights", "--plot", "--bars", "--json",
                             "--cpu", "--dtype", "--column", "2^53", "standard input"})
    EXPECT_NE(help.out.find(needle), std::string::npos) << needle;
  const auto version = run_histogram({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("bkt-histogram ", 0), 0u);
}

}  // namespace
}  // namespace histogram_test
