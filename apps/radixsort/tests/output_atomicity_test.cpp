// The sorted data and the --json summary appear together or not at all: a run that fails at any
// stage, or is killed by a signal, leaves every existing file as it was and no temporary.
#include <gtest/gtest.h>

#include <csignal>

#include "bkt_apps_test/output_checks.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

using apps::test::directory_snapshot;
using apps::test::temporaries_in;

class output_atomicity : public tool_test {
 protected:
  /// Runs a failing command; checks the exit code, the message and that nothing changed.
  void expect_nothing_changes(const std::vector<std::string>& args, int code, const std::string& message) {
    const auto before = directory_snapshot(dir_ / "io");
    const tool_result result = run(args);
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(directory_snapshot(dir_ / "io"), before);
    EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
  }
};

TEST_F(output_atomicity, json_into_a_missing_directory_fails_before_the_sort) {
  const std::string input = write("in.txt", "3\n1\n2\n");
  write("out.txt", "old sorted\n");
  expect_nothing_changes({input, "-o", path("out.txt"), "--json", path("missing/run.json")}, 1,
                         path("missing/run.json") + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, bad_data_after_chunks_were_read) {
  // The bad line comes after several chunks went to the output's writer.
  std::string text;
  for (int i = 40; i > 0; --i) text += std::to_string(i) + "\n";
  const std::string input = write("in.txt", text + "forty-one\n");
  write("out.txt", "old sorted\n");
  write("run.json", "{\"old\": true}\n");
  expect_nothing_changes({input, "-o", path("out.txt"), "--json", path("run.json"), "--chunk-items", "7"}, 1,
                         input + ":41: not a number: 'forty-one'");
}

TEST_F(output_atomicity, standard_output_of_a_failed_run_is_empty) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += std::to_string(i % 13) + "\n";
  const std::string input = write("in.txt", text + "x\n");
  expect_nothing_changes({input, "--chunk-items", "10"}, 1, input + ":101: not a number: 'x'");
}

TEST_F(output_atomicity, the_input_is_never_an_output) {
  const std::string input = write("in.txt", "3\n1\n2\n");
  expect_nothing_changes({input, "-o", input}, 2, input + ": is also an input of this run");
  expect_nothing_changes({input, "-o", path("out.txt"), "--json", path("./in.txt")}, 2,
                         path("./in.txt") + ": is also an input of this run");
}

TEST_F(output_atomicity, a_successful_run_shows_both) {
  const std::string input = write("in.txt", "3\n1\n2\n");
  write("out.txt", "old sorted\n");
  const tool_result result = run({input, "-o", path("out.txt"), "--json", path("run.json"), "--cpu"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.txt")), "1\n2\n3\n");
  EXPECT_NE(read_file(path("run.json")).find("\"elements\": 3"), std::string::npos);
  EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
}

TEST_F(output_atomicity, a_signal_mid_run_leaves_no_temporary) {
  // The input is a FIFO nobody writes: the tool waits there with both outputs created.
  const std::string fifo = path("in.txt");
  ASSERT_TRUE(apps::test::make_fifo(fifo));
  write("out.txt", "old sorted\n");
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(signal_number);
    const auto run = apps::test::run_and_signal(
        BKT_RADIXSORT_EXE, {fifo, "-o", path("out.txt"), "--json", path("run.json")}, dir_ / "io", 2, {signal_number});
    EXPECT_TRUE(run.temporaries_seen);
    EXPECT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
    EXPECT_EQ(run.signal, signal_number);
    EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
    EXPECT_EQ(read_file(path("out.txt")), "old sorted\n");
    EXPECT_FALSE(std::filesystem::exists(path("run.json")));
  }
}

TEST_F(output_atomicity, a_signal_the_tool_was_started_ignoring_stays_ignored) {
  const std::string fifo = path("in.txt");
  ASSERT_TRUE(apps::test::make_fifo(fifo));
  // As under nohup: SIGHUP passes unnoticed, SIGTERM then ends the run.
  const auto run = apps::test::run_and_signal(BKT_RADIXSORT_EXE, {fifo, "-o", path("out.txt")}, dir_ / "io", 1,
                                              {SIGHUP, SIGTERM}, SIGHUP);
  EXPECT_TRUE(run.temporaries_seen);
  EXPECT_TRUE(run.killed_by_signal);
  EXPECT_EQ(run.signal, SIGTERM);
  EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
}

}  // namespace
}  // namespace bkt::radixsort::test
