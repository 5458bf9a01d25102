// Sources: user numbering to internal ids, DIMACS .ss files, seeded random draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/sources.hpp"

namespace bkt::sssp {
namespace {

int exit_code_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const apps::app_error& error) {
    return error.code();
  }
  return 0;
}

TEST(io_sources, source_from_user_checks_the_range) {
  EXPECT_EQ(source_from_user(1, 1, 5), 0u);
  EXPECT_EQ(source_from_user(5, 1, 5), 4u);
  EXPECT_EQ(source_from_user(0, 0, 5), 0u);
  EXPECT_EQ(source_from_user(4, 0, 5), 4u);
  EXPECT_EQ(exit_code_of([] { source_from_user(0, 1, 5); }), apps::exit_usage);
  EXPECT_EQ(exit_code_of([] { source_from_user(6, 1, 5); }), apps::exit_usage);
  EXPECT_EQ(exit_code_of([] { source_from_user(5, 0, 5); }), apps::exit_usage);
  EXPECT_EQ(exit_code_of([] { source_from_user(-1, 0, 5); }), apps::exit_usage);
  EXPECT_EQ(exit_code_of([] { source_from_user(0, 0, 0); }), apps::exit_usage);
  try {
    source_from_user(7, 1, 5);
  } catch (const apps::app_error& error) {
    EXPECT_STREQ(error.what(), "source 7 is out of range: vertices are numbered 1..5");
  }
}

class io_source_files : public apps::test::temp_dir_test {
 protected:
  void expect_error(const std::string& text, int line, const std::string& problem) {
    const std::string file = write_file("s.ss", text);
    try {
      read_dimacs_sources(file, 5);
      ADD_FAILURE() << "no error; expected: " << problem;
    } catch (const apps::app_error& error) {
      EXPECT_EQ(std::string(error.what()), file + ":" + std::to_string(line) + ": " + problem);
      EXPECT_EQ(error.code(), apps::exit_bad_input);
    }
  }
};

TEST_F(io_source_files, reads_dimacs_ss_files) {
  const std::string file = write_file("s.ss", "c sources\np aux sp ss 3\nc between\ns 1\ns 5\n\ns 2\n");
  EXPECT_EQ(read_dimacs_sources(file, 5), (std::vector<vertex>{0, 4, 1}));
}

TEST_F(io_source_files, errors_name_file_and_line) {
  expect_error("c x\ns 1\n", 2, "source before the problem line 'p aux sp ss K'");
  expect_error("c x\n", 1, "no problem line 'p aux sp ss K'");
  expect_error("p aux sp ss 2\ns 1\n", 1, "the problem line declares 2 sources but the file has 1");
  expect_error("p aux sp ss 1\ns 1\ns 2\n", 3, "more sources than the 1 the problem line declares");
  expect_error("p aux sp ss 1\ns 6\n", 2, "vertex 6 is out of range 1..5");
  expect_error("p aux sp ss 1\ns 0\n", 2, "vertex 0 is out of range 1..5");
  expect_error("p aux sp ss 1\ns x\n", 2, "bad vertex id 'x': expected a non-negative integer");
  expect_error("p aux sp ss 1\nq 1\n", 2, "expected 's V', found 'q 1'");
  expect_error("p aux sp ss 1\ns 1 2\n", 2, "expected 's V', found 's 1 2'");
  expect_error("p sp 5 1\n", 1, "expected 'p aux sp ss K', found 'p sp 5 1'");
  expect_error("p aux sp ss 1\np aux sp ss 1\n", 2, "a second problem line");
  expect_error("c x\np aux sp ss 0\n", 2, "no sources: the problem line declares 0");  // nothing to run is an error
}

TEST_F(io_source_files, missing_file) {
  try {
    read_dimacs_sources(path("missing.ss"), 5);
    FAIL() << "no error";
  } catch (const apps::app_error& error) {
    EXPECT_EQ(std::string(error.what()), path("missing.ss") + ": cannot open: No such file or directory");
  }
}

/// 10 vertices; only the even ones have outgoing edges.
csr_graph<std::uint32_t> half_isolated_graph() {
  csr_graph<std::uint32_t> graph;
  graph.offsets = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  graph.targets = {1, 3, 5, 7, 9};
  graph.weights = {1, 1, 1, 1, 1};
  return graph;
}

TEST(io_random_sources, distinct_vertices_with_edges_the_same_for_a_seed) {
  const csr_graph<std::uint32_t> graph = half_isolated_graph();
  const std::vector<vertex> first = random_sources(graph, 3, 42);
  EXPECT_EQ(first, random_sources(graph, 3, 42));
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(std::set<vertex>(first.begin(), first.end()).size(), 3u);
  for (const vertex v : first) EXPECT_EQ(v % 2, 0u) << v;

  // Asking for more than there are gives each vertex with an edge once.
  std::vector<vertex> all = random_sources(graph, 100, 7);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<vertex>{0, 2, 4, 6, 8}));
  EXPECT_TRUE(random_sources(graph, 0, 7).empty());
  EXPECT_TRUE(random_sources(csr_graph<float>{}, 5, 7).empty());
}

TEST(io_random_sources, seeds_differ) {
  csr_graph<float> graph;
  graph.offsets.resize(1001);
  for (std::int64_t v = 0; v < 1000; ++v) {
    graph.targets.push_back(static_cast<vertex>((v + 1) % 1000));
    graph.weights.push_back(1.0f);
    graph.offsets[static_cast<std::size_t>(v + 1)] = v + 1;
  }
  const std::vector<vertex> a = random_sources(graph, 64, 1);
  EXPECT_NE(a, random_sources(graph, 64, 2));
  EXPECT_EQ(std::set<vertex>(a.begin(), a.end()).size(), 64u);
}

}  // namespace
}  // namespace bkt::sssp
