// Every bad input fails the same way: a non-zero exit code (1 bad data or I/O, 2 usage), nothing on
// standard output, one line on stderr "bkt-histogram: FILE: problem", and no output file or
// temporary left behind, even for outputs that were asked for.
#include <cstdint>
#include <string>
#include <vector>

#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

class errors : public tool_test {
 protected:
  /// Runs with every kind of output file requested, and checks that none of them appears.
  tool_run run_with_outputs(std::vector<std::string> arguments) {
    const auto before = listing();
    for (const char* flag : {"-o", "--plot", "--json"}) {
      arguments.push_back(flag);
      arguments.push_back(path(std::string("out") + flag + (std::string(flag) == "--plot" ? ".svg" : "")).string());
    }
    const tool_run run = run_histogram(arguments);
    EXPECT_EQ(listing(), before) << "outputs or temporaries were left behind";
    return run;
  }
};

TEST_F(errors, raw_size_not_a_multiple_of_the_dtype) {
  write_file(path("data.f32"), std::string(10, '\0'));
  const auto run = run_with_outputs({path("data.f32"), "--dtype", "f32", "--range", "0:1"});
  expect_failure(run, 1, {path("data.f32").string() + ": ", "10 bytes", "f32"});
}

TEST_F(errors, malformed_npy) {
  write_file(path("bad.npy"), std::string("\x93NUMPY\x01\x00\x10\x00{'descr': <f8  \n", 26));
  const auto run = run_with_outputs({path("bad.npy"), "--range", "0:1"});
  expect_failure(run, 1, {path("bad.npy").string() + ": ", "npy"});
}

TEST_F(errors, unparsable_text_line_names_its_line) {
  write_file(path("data.txt"), "1\n2\nabc\n4\n");
  const auto run = run_with_outputs({path("data.txt"), "--range", "0:10"});
  expect_failure(run, 1, {path("data.txt").string() + ":3: ", "abc"});
  // Without --range the first pass finds it, also before any output.
  expect_failure(run_with_outputs({path("data.txt")}), 1, {path("data.txt").string() + ":3: "});
}

TEST_F(errors, unreadable_input) {
  const auto run = run_with_outputs({path("missing.txt"), "--range", "0:1"});
  expect_failure(run, 1, {path("missing.txt").string()});
}

TEST_F(errors, unwritable_plot_path) {
  write_file(path("data.txt"), "1\n2\n");
  const std::string plot = path("no-such-directory/chart.svg").string();
  const auto run = run_histogram({path("data.txt"), "--range", "0:4", "--plot", plot, "-o", path("table.txt")});
  expect_failure(run, 1, {plot});
  EXPECT_EQ(listing(), std::vector<std::string>{"data.txt"});
}

TEST_F(errors, edges_not_ascending) {
  write_file(path("data.txt"), "1\n2\n");
  write_file(path("edges.txt"), "0\n2\n1\n5\n");
  expect_failure(run_with_outputs({path("data.txt"), "--edges", path("edges.txt")}), 1,
                 {path("edges.txt").string() + ": ", "ascending", "edge 3"});
  write_file(path("nan.txt"), "0\nnan\n3\n");
  expect_failure(run_with_outputs({path("data.txt"), "--edges", path("nan.txt")}), 1,
                 {path("nan.txt").string() + ": ", "edge 2 is NaN"});
  write_file(path("one.txt"), "5\n");
  expect_failure(run_with_outputs({path("data.txt"), "--edges", path("one.txt")}), 1,
                 {path("one.txt").string() + ": ", "at least 2 edges"});
}

TEST_F(errors, weights_length_differs) {
  write_file(path("data.txt"), "1\n2\n3\n4\n5\n");
  write_file(path("short.txt"), "1\n1\n1\n1\n");
  write_file(path("long.txt"), "1\n1\n1\n1\n1\n1\n");
  for (const char* weights : {"short.txt", "long.txt"}) {
    SCOPED_TRACE(weights);
    const auto run = run_with_outputs({path("data.txt"), "--range", "0:9", "--weights", path(weights), "--chunk-items", "2"});
    expect_failure(run, 1, {path(weights).string() + ": ", path("data.txt").string()});
  }
  // Sizes known from the headers: refused before binning.
  write_npy<double>(path("data.npy"), std::vector<double>{1, 2, 3});
  write_npy<double>(path("weights.npy"), std::vector<double>{1, 2});
  expect_failure(run_with_outputs({path("data.npy"), "--range", "0:9", "--weights", path("weights.npy")}), 1,
                 {path("weights.npy").string() + ": 2 weights", "3 values in " + path("data.npy").string()});
}

TEST_F(errors, nan_weight) {
  write_file(path("data.txt"), "1\n2\n");
  write_file(path("weights.txt"), "1\nnan\n");
  expect_failure(run_with_outputs({path("data.txt"), "--range", "0:9", "--weights", path("weights.txt")}), 1,
                 {path("weights.txt").string() + ": weight 2 is NaN"});
}

TEST_F(errors, range_low_not_below_high) {
  write_file(path("data.txt"), "1\n");
  expect_failure(run_with_outputs({path("data.txt"), "--range", "5:1"}), 2, {"--range 5:1: ", "LO must be below HI"});
  expect_failure(run_with_outputs({path("data.txt"), "--range", "3:3"}), 2, {"--range 3:3: "});
}

TEST_F(errors, log_needs_a_positive_low_end) {
  write_file(path("data.txt"), "1\n");
  expect_failure(run_with_outputs({path("data.txt"), "--log", "--range", "0:10"}), 2, {"--range 0:10: ", "LO > 0"});
  expect_failure(run_with_outputs({path("data.txt"), "--log", "--range=-1:10"}), 2, {"LO > 0"});
  write_file(path("negative.txt"), "-1\n0\n");
  expect_failure(run_with_outputs({path("negative.txt"), "--log"}), 1,
                 {path("negative.txt").string() + ": no positive values"});
}

TEST_F(errors, command_line_errors_exit_2) {
  write_file(path("data.txt"), "1\n");
  write_file(path("edges.txt"), "0\n1\n");
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{path("data.txt"), "--range", "5-1"},
        {path("data.txt"), "--bins", "0"},
        {path("data.txt"), "--bins", "16777217"},
        {path("data.txt"), "--edges", path("edges.txt"), "--bins", "3"},
        {path("data.txt"), "--no-such-flag"},
        {path("data.txt"), "--dtype", "f128"}}) {
    const auto run = run_with_outputs(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments.back() << ": " << run.err;
    EXPECT_NE(run.err, "");
    EXPECT_EQ(run.out, "");
  }
  expect_failure(run_with_outputs({path("data.txt"), "--bins", "70000", "--range", "0:1"}), 2, {"--plot", "65536"});
  expect_failure(run_histogram({"-", "--weights", "-", "--range", "0:1"}), 2, {"standard input"});
  write_file(path("data.raw"), std::string(8, '\0'));
  expect_failure(run_with_outputs({path("data.raw"), "--range", "0:1"}), 2, {path("data.raw").string(), "--dtype"});
}

TEST_F(errors, plot_format_from_the_extension) {
  write_file(path("data.txt"), "1\n2\n");
  const std::string gif = path("chart.gif").string();
  expect_failure(run_histogram({path("data.txt"), "--range", "0:4", "--plot", gif, "-o", path("table.txt")}), 2,
                 {"--plot '" + gif + "'", ".png, .svg or .pdf"});
  EXPECT_EQ(listing(), std::vector<std::string>{"data.txt"});
  for (const char* name : {"chart.PNG", "chart.Svg", "chart.pdf"}) {
    const auto run = run_histogram({path("data.txt"), "--range", "0:4", "--plot", path(name)});
    EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
  }
}

TEST_F(errors, bins_beyond_the_memory_limit_are_refused_at_once) {
  write_file(path("data.txt"), "1\n2\n");
  const std::vector<std::string> needles = {"--bins 16777216: ", "a histogram of 16777216 bins needs", "GB of host memory",
                                            "more than the 105 MB available (--max-memory)"};
  for (const char* range : {"--range=0:4", "--bins"}) {
    std::vector<std::string> arguments = {path("data.txt"), "--bins", "16777216", "--max-memory", "100M",
                                          "-o", path("table.txt"), "--json", path("run.json")};
    if (std::string(range) != "--bins") arguments.push_back(range);  // else the range comes from the data
    expect_failure(run_histogram(arguments), 1, needles);
    EXPECT_EQ(listing(), std::vector<std::string>{"data.txt"});
  }
  std::string edges;
  for (int edge = 0; edge <= 1'000'000; ++edge) edges += std::to_string(edge) + "\n";
  write_file(path("edges.txt"), edges);
  expect_failure(run_histogram({path("data.txt"), "--edges", path("edges.txt"), "--max-memory", "100M"}), 1,
                 {path("edges.txt").string() + ": ", "a histogram of 1000000 bins needs"});
  const auto fits = run_histogram({path("data.txt"), "--bins", "1000", "--range", "0:4", "--max-memory", "100M"});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
}

TEST_F(errors, plot_of_too_many_edges) {
  write_file(path("data.txt"), "1\n");
  std::string edges;
  for (int edge = 0; edge <= 65537; ++edge) edges += std::to_string(edge) + "\n";
  write_file(path("edges.txt"), edges);
  expect_failure(run_with_outputs({path("data.txt"), "--edges", path("edges.txt")}), 2, {"--plot", "65537"});
}

TEST_F(errors, sixty_four_bit_integer_beyond_f64) {
  write_raw<std::int64_t>(path("data.i64"), std::vector<std::int64_t>{1, 9007199254740993ll});
  expect_failure(run_with_outputs({path("data.i64"), "--dtype", "i64", "--range", "0:10"}), 1,
                 {path("data.i64").string() + ": element 2", "2^53"});
  expect_failure(run_with_outputs({path("data.i64"), "--dtype", "i64"}), 1, {"element 2"});
}

TEST_F(errors, no_finite_value_to_take_a_range_from) {
  write_file(path("nan.txt"), "nan\ninf\n");
  expect_failure(run_with_outputs({path("nan.txt")}), 1, {path("nan.txt").string() + ": no finite values", "--range"});
}

}  // namespace
}  // namespace histogram_test
