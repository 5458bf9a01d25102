// The table, the JSON and the plot appear together or not at all: a run that fails at any stage,
// or is killed by a signal, leaves every existing file as it was and no temporary.
#include <csignal>
#include <string>
#include <vector>

#include "bkt_apps_test/output_checks.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

using bkt::apps::test::directory_snapshot;
using bkt::apps::test::temporaries_in;

class output_atomicity : public tool_test {
 protected:
  void SetUp() override {
    tool_test::SetUp();
    write_file(path("data.txt"), "0.5\n1.5\n1.5\n3.5\n");
    write_file(path("table.txt"), "old table\n");
    write_file(path("plot.svg"), "<svg>old</svg>\n");
    write_file(path("run.json"), "{\"old\": true}\n");
  }
  /// Runs a failing command: exit `code`, one line naming `needle`, and every file as it was.
  void expect_nothing_changes(const std::vector<std::string>& arguments, int code, const std::string& needle) {
    const auto before = directory_snapshot(directory_);
    expect_failure(run_histogram(arguments), code, {needle});
    EXPECT_EQ(directory_snapshot(directory_), before);
    EXPECT_TRUE(temporaries_in(directory_).empty());
  }
};

TEST_F(output_atomicity, json_into_a_missing_directory_fails_before_counting) {
  const std::string json = path("missing/run.json").string();
  expect_nothing_changes({path("data.txt"), "--range", "0:4", "-o", path("table.txt"), "--plot", path("plot.svg"),
                          "--json", json},
                         1, json + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, a_plot_in_a_missing_directory_fails_before_counting) {
  const std::string plot = path("missing/plot.svg").string();
  expect_nothing_changes({path("data.txt"), "--range", "0:4", "-o", path("table.txt"), "--json", path("run.json"),
                          "--plot", plot},
                         1, plot + ": cannot create");
}

TEST_F(output_atomicity, a_failure_after_counting_changes_nothing) {
  // Too many edges to draw is found once the histogram is counted, with every output created.
  std::string edges;
  for (int edge = 0; edge <= 65537; ++edge) edges += std::to_string(edge) + "\n";
  write_file(path("edges.txt"), edges);
  expect_nothing_changes({path("data.txt"), "--edges", path("edges.txt"), "-o", path("table.txt"), "--json",
                          path("run.json"), "--plot", path("plot.svg")},
                         2, "--plot");
}

TEST_F(output_atomicity, the_input_is_never_an_output) {
  const std::string data = path("data.txt").string();
  expect_nothing_changes({data, "--range", "0:4", "-o", data}, 2, data + ": is also an input of this run");
  write_file(path("weights.txt"), "1\n1\n1\n1\n");
  expect_nothing_changes({data, "--range", "0:4", "--weights", path("weights.txt"), "--json", path("weights.txt")}, 2,
                         path("weights.txt").string() + ": is also an input of this run");
}

TEST_F(output_atomicity, a_successful_run_replaces_all_three) {
  const tool_run run = run_histogram({path("data.txt"), "--range", "0:4", "--bins", "4", "-o", path("table.txt"),
                                      "--json", path("run.json"), "--plot", path("plot.svg")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(read_file(path("table.txt")), "old table\n");
  EXPECT_NE(read_file(path("plot.svg")).find("<svg"), std::string::npos);
  EXPECT_NE(read_file(path("run.json")).find("\"counts\""), std::string::npos);
  EXPECT_TRUE(temporaries_in(directory_).empty());
}

TEST_F(output_atomicity, a_signal_mid_run_leaves_no_temporary) {
  // The input is a FIFO nobody writes: the tool waits there with its three outputs created.
  const std::string fifo = path("data.fifo").string();
  ASSERT_TRUE(bkt::apps::test::make_fifo(fifo));
  const auto before = directory_snapshot(directory_);
  const auto run = bkt::apps::test::run_and_signal(
      BKT_HISTOGRAM_EXE,
      {fifo, "--range", "0:4", "-o", path("table.txt"), "--json", path("run.json"), "--plot", path("plot.svg")},
      directory_, 3);
  EXPECT_TRUE(run.temporaries_seen);
  EXPECT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
  EXPECT_EQ(run.signal, SIGTERM);
  EXPECT_TRUE(temporaries_in(directory_).empty());
  EXPECT_EQ(directory_snapshot(directory_), before);
}

}  // namespace
}  // namespace histogram_test
