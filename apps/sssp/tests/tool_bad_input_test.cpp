// Bad input files exit 1 with one line naming the file, and leave no output file behind.
#include <gtest/gtest.h>

#include "tool_fixture.hpp"

namespace bkt::sssp::test {
namespace {

class tool_bad_input : public tool_test {
 protected:
  /// Runs with -o into the tool's directory and checks: exit 1, one stderr line that names
  /// `named`, nothing on stdout, and no file left but `inputs`.
  void expect_rejected(std::vector<std::string> args, const std::string& named,
                       const std::vector<std::string>& inputs) {
    args.insert(args.end(), {"--cpu", "--no-cache", "-o", path("out.txt"), "--json", path("out.json")});
    const tool_result result = run(args);
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_EQ(result.err.rfind("bkt-sssp: ", 0), 0u) << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(entries(), inputs);
  }
};

TEST_F(tool_bad_input, missing_graph_file) { expect_rejected({path("nowhere.gr")}, path("nowhere.gr"), {}); }

TEST_F(tool_bad_input, malformed_graph_files) {
  const std::string dimacs = write("bad.gr", "p sp 3 2\na 1 2 5\na 2 x 1\n");
  expect_rejected({dimacs}, dimacs, {"bad.gr"});
  std::filesystem::remove(dimacs);
  const std::string arc_count = write("short.gr", "p sp 3 4\na 1 2 5\n");
  expect_rejected({arc_count}, arc_count, {"short.gr"});
  std::filesystem::remove(arc_count);
  const std::string matrix = write("bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 4 2.0\n");
  expect_rejected({matrix}, matrix, {"bad.mtx"});
  std::filesystem::remove(matrix);
  const std::string edges = write("bad.txt", "0 1\n1 two\n");
  expect_rejected({edges}, edges, {"bad.txt"});
}

TEST_F(tool_bad_input, a_graph_without_vertices) {
  const std::string empty = write("empty.txt", "# nothing here\n");
  expect_rejected({empty}, empty, {"empty.txt"});
}

TEST_F(tool_bad_input, bad_sources_files) {
  const std::string rome = data_graph("rome99.gr");
  expect_rejected({rome, "--sources", path("none.ss")}, path("none.ss"), {});
  const std::string ss = write("bad.ss", "p aux sp ss 1\ns 99999\n");  // rome99 has 3353 vertices
  expect_rejected({rome, "--sources", ss}, ss, {"bad.ss"});
}

}  // namespace
}  // namespace bkt::sssp::test
