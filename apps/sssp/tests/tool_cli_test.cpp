// bkt-sssp's command line: --help and --version, and every kind of bad command line exiting 2
// with one line on stderr and nothing on stdout.
#include <gtest/gtest.h>

#include "tool_fixture.hpp"

namespace bkt::sssp::test {
namespace {

using tool_cli = tool_test;

TEST_F(tool_cli, help_states_the_sources_and_the_outputs) {
  const tool_result result = run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* text : {"--source", "--sources", "--random-sources", "first vertex", "{source}", "--verify",
                           "--algorithm", "--delta", "--random-weights", "--cache", "Exit status"})
    EXPECT_NE(result.out.find(text), std::string::npos) << text;
}

TEST_F(tool_cli, version_names_the_tool) {
  const tool_result result = run({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out.rfind("bkt-sssp ", 0), 0u) << result.out;
}

TEST_F(tool_cli, bad_command_lines_exit_2_with_one_line) {
  const std::string rome = data_graph("rome99.gr");
  const std::vector<std::vector<std::string>> bad{
      {},                                                            // no graph
      {rome, "--no-such-flag"},                                      // unknown flag
      {rome, "--algorithm", "quick"},                                // unknown algorithm
      {rome, "--algorithm", "2"},                                    // a number, not a name
      {rome, "--delta", "nan"},                                      // not finite
      {rome, "--threads", "1e3"},                                    // not a whole number as written
      {rome, "--random-weights", "9:2"},                             // lo > hi
      {rome, "--random-weights", "1-2"},                             // not LO:HI
      {rome, "--random-weights", "1:4294967296"},                    // hi over 2^32 - 1
      {rome, "--format", "csv-ish"},                                 // unknown format
      {rome, "--delta", "0"},                                        // not positive
      {rome, "--source", "1", "--random-sources", "2"},              // two source options
      {rome, "--sources", "x.ss", "--source", "3"},                  // two source options
      {rome, "--random-sources", "0"},                               // no sources
      {rome, "-o", "-", "--json", "-"},                              // stdout twice
      {rome, "--parents"},                                           // parents need -o
      {rome, "--random-sources", "3", "-o", path("distances.txt")},  // three sources, one file
      {rome, "--threads", "-1"},
  };
  for (const auto& args : bad) {
    std::string line;
    for (const auto& arg : args) line += arg + " ";
    SCOPED_TRACE(line);
    const tool_result result = run(args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err.rfind("bkt-sssp: ", 0), 0u) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_EQ(result.out, "");
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(tool_cli, bad_values_seen_after_loading_exit_2) {
  const std::string rome = data_graph("rome99.gr");
  // Vertex 0 does not exist in 1-based DIMACS numbering; 3354 is past the last of 3353.
  for (const std::string source : {"0", "3354", "-5"}) {
    const tool_result result = run({rome, "--cpu", "--no-cache", "--source", source});
    EXPECT_EQ(result.exit_code, 2) << source << ": " << result.err;
    EXPECT_EQ(result.out, "");
  }
}

}  // namespace
}  // namespace bkt::sssp::test
