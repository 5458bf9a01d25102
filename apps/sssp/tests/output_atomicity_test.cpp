// Every source's distance file, the parents and the --json summary appear together or not at
// all: a run that fails at any stage (on a later source too), or is killed by a signal, leaves
// every existing file as it was and no temporary.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

#include "bkt_apps_test/output_checks.hpp"
#include "tool_fixture.hpp"

namespace bkt::sssp::test {
namespace {

using apps::test::directory_snapshot;
using apps::test::temporaries_in;

class output_atomicity : public tool_test {
 protected:
  /// Every file under the tool's directory, subdirectories included, with its bytes.
  std::map<std::string, std::string> everything() const {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_ / "io"))
      if (entry.is_regular_file()) files[entry.path().string()] = read_file(entry.path().string());
    return files;
  }
  void expect_nothing_changes(const std::vector<std::string>& args, int code, const std::string& message) {
    const auto before = everything();
    const tool_result result = run(args);
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(everything(), before);
    EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
  }

  const std::string rome = data_graph("rome99.gr");
};

TEST_F(output_atomicity, json_into_a_missing_directory_fails_before_the_load) {
  write("d.txt", "old distances\n");
  expect_nothing_changes({rome, "--cpu", "--no-cache", "-o", path("d.txt"), "--json", path("missing/run.json")}, 1,
                         path("missing/run.json") + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, an_unwritable_later_source_leaves_none) {
  // Source 5's file can be written, source 6's cannot ({source} names a missing directory): the
  // run fails before the first source runs, and source 5's old file stays.
  std::filesystem::create_directory(dir_ / "io" / "d5");
  write("d5/dist.txt", "old distances of 5\n");
  write("run.json", "{\"old\": true}\n");
  const std::string ss = write("two.ss", "p aux sp ss 2\ns 5\ns 6\n");
  expect_nothing_changes({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("d{source}/dist.txt"), "--json",
                          path("run.json")},
                         1, path("d6/dist.txt") + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, npy_parents_of_every_source_or_none) {
  write("d-5.npy", "old 5\n");
  write("d-5-parents.npy", "old parents of 5\n");
  const std::string ss = write("two.ss", "p aux sp ss 2\ns 5\ns 6\n");
  expect_nothing_changes({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("d-{source}.npy"), "--parents",
                          "--json", path("missing/run.json")},
                         1, path("missing/run.json") + ": cannot create");
  // And when it succeeds, all four files appear.
  const tool_result result = run({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("d-{source}.npy"),
                                  "--parents", "--json", path("run.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* name : {"d-5.npy", "d-5-parents.npy", "d-6.npy", "d-6-parents.npy", "run.json"})
    EXPECT_NE(read_file(path(name)).substr(0, 1), "o") << name;
  EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
}

TEST_F(output_atomicity, a_source_named_twice_is_written_once) {
  const std::string ss = write("twice.ss", "p aux sp ss 3\ns 5\ns 6\ns 5\n");
  const tool_result result = run({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("d-{source}.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("d-5.txt")).substr(0, 11), "# source 5\n");
  EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
}

TEST_F(output_atomicity, the_input_is_never_an_output) {
  const std::string graph = write("g.txt", "0 1 3\n1 2 4\n");
  expect_nothing_changes({graph, "--cpu", "--no-cache", "-o", graph}, 2, graph + ": is also an input of this run");
  expect_nothing_changes({graph, "--cpu", "--no-cache", "--json", graph}, 2, graph + ": is also an input of this run");
}

TEST_F(output_atomicity, a_signal_mid_run_leaves_no_temporary) {
  // The graph is a FIFO nobody writes: the tool waits there with its JSON summary created.
  const std::string fifo = path("graph.gr");
  ASSERT_TRUE(apps::test::make_fifo(fifo));
  write("run.json", "{\"old\": true}\n");
  const auto before = directory_snapshot(dir_ / "io");
  const auto run = apps::test::run_and_signal(
      BKT_SSSP_EXE, {fifo, "--cpu", "--no-cache", "--format", "dimacs", "-o", path("d.txt"), "--json", path("run.json")},
      dir_ / "io", 1);
  EXPECT_TRUE(run.temporaries_seen);
  EXPECT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
  EXPECT_EQ(run.signal, SIGTERM);
  EXPECT_TRUE(temporaries_in(dir_ / "io").empty());
  EXPECT_EQ(directory_snapshot(dir_ / "io"), before);
}

}  // namespace
}  // namespace bkt::sssp::test
