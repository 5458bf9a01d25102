// bkt-sssp -o: text and .npy distances read back and compared with the reference, parents,
// one file per source through {source}, and -o - on standard output.
#include <gtest/gtest.h>

#include <sstream>

#include "bkt_apps/numeric_io.hpp"
#include "io/load_graph.hpp"
#include "reference/dijkstra.hpp"
#include "tool_fixture.hpp"

namespace bkt::sssp::test {
namespace {

/// The sample graph as the tool loads it by default, and the reference distances from `source`.
struct reference_case {
  csr_graph<std::uint32_t> graph;
  std::vector<std::uint64_t> distances;
};

reference_case reference_for(const std::string& path, vertex source) {
  load_options options;
  options.use_cache = false;
  reference_case result{std::get<csr_graph<std::uint32_t>>(load_graph(path, options).graph), {}};
  result.distances = ref::dijkstra(result.graph, source);
  return result;
}

/// A text output: the "# source S" line, then "VERTEX DISTANCE [PARENT]" lines.
struct text_output {
  std::string header;
  std::vector<std::int64_t> vertices;
  std::vector<std::uint64_t> distances;  // unreachable for "inf"
  std::vector<std::int64_t> parents;     // -1 for "-"; empty without a third column
};

text_output parse_text_output(const std::string& text) {
  text_output parsed;
  std::istringstream lines(text);
  std::getline(lines, parsed.header);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::int64_t vertex_id = 0;
    std::string distance, parent;
    fields >> vertex_id >> distance >> parent;
    parsed.vertices.push_back(vertex_id);
    parsed.distances.push_back(distance == "inf" ? unreachable<std::uint64_t>() : std::stoull(distance));
    if (!parent.empty()) parsed.parents.push_back(parent == "-" ? -1 : std::stoll(parent));
  }
  return parsed;
}

using tool_output = tool_test;

TEST_F(tool_output, text_distances_read_back_as_the_reference) {
  const std::string rome = data_graph("rome99.gr");
  const tool_result result = run({rome, "--cpu", "--no-cache", "--source", "42", "-o", path("rome.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(summary_rows(result.out).size(), 1u);  // the table stays on stdout
  const text_output parsed = parse_text_output(read_file(path("rome.txt")));
  EXPECT_EQ(parsed.header, "# source 42");
  const reference_case want = reference_for(rome, 41);
  ASSERT_EQ(parsed.distances.size(), want.distances.size());
  EXPECT_EQ(parsed.vertices.front(), 1);  // the file's 1-based numbering
  EXPECT_EQ(parsed.distances, want.distances);
  EXPECT_TRUE(parsed.parents.empty());
}

TEST_F(tool_output, parents_follow_tight_edges_to_the_source) {
  const std::string lux = data_graph("luxembourg_osm.mtx");
  const tool_result result = run({lux, "--cpu", "--no-cache", "-o", path("lux.txt"), "--parents"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const text_output parsed = parse_text_output(read_file(path("lux.txt")));
  const reference_case want = reference_for(lux, 0);
  ASSERT_EQ(parsed.parents.size(), want.distances.size());
  EXPECT_EQ(parsed.parents[0], -1);
  for (std::size_t v = 1; v < parsed.parents.size(); ++v) {
    if (want.distances[v] == unreachable<std::uint64_t>()) {
      EXPECT_EQ(parsed.parents[v], -1);
      continue;
    }
    ASSERT_GE(parsed.parents[v], 1) << v;
    const auto p = static_cast<vertex>(parsed.parents[v] - 1);  // back to internal numbering
    bool tight = false;
    for (std::int64_t e = want.graph.offsets[p]; e < want.graph.offsets[p + 1]; ++e)
      tight |= want.graph.targets[e] == v && want.distances[p] + want.graph.weights[e] == want.distances[v];
    ASSERT_TRUE(tight) << "vertex " << v + 1 << " parent " << p + 1;
  }
}

TEST_F(tool_output, npy_distances_and_parents) {
  const std::string facebook = data_graph("facebook_combined.txt");
  const tool_result result = run({facebook, "--cpu", "--no-cache", "--source", "3", "-o", path("fb.npy"), "--parents"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  apps::input_options input;
  input.path = path("fb.npy");
  const apps::numeric_array distances = apps::read_array(input);
  const reference_case want = reference_for(facebook, 3);
  const auto got = distances.as<std::uint64_t>();
  EXPECT_EQ(std::vector<std::uint64_t>(got.begin(), got.end()), want.distances);
  input.path = path("fb-parents.npy");
  const apps::numeric_array parents = apps::read_array(input);
  EXPECT_EQ(parents.size(), static_cast<std::int64_t>(want.distances.size()));
  EXPECT_EQ(parents.as<std::int64_t>()[3], -1);
}

TEST_F(tool_output, one_file_per_source_through_the_placeholder) {
  const std::string rome = data_graph("rome99.gr");
  const std::string ss = write("three.ss", "p aux sp ss 3\ns 5\ns 6\ns 7\n");
  const tool_result result = run({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("d-{source}.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const int source : {5, 6, 7}) {
    const text_output parsed = parse_text_output(read_file(path("d-" + std::to_string(source) + ".txt")));
    EXPECT_EQ(parsed.header, "# source " + std::to_string(source));
    EXPECT_EQ(parsed.distances, reference_for(rome, static_cast<vertex>(source - 1)).distances);
  }
  // Three sources from a file and no placeholder: a usage error once the count is known, no files.
  const tool_result clash = run({rome, "--cpu", "--no-cache", "--sources", ss, "-o", path("one.txt")});
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_EQ(std::count(clash.err.begin(), clash.err.end(), '\n'), 1) << clash.err;
  const auto left = entries();
  EXPECT_EQ(std::find(left.begin(), left.end(), "one.txt"), left.end());
}

TEST_F(tool_output, dash_sends_distances_to_stdout_and_the_table_to_stderr) {
  const std::string rome = data_graph("rome99.gr");
  const tool_result result = run({rome, "--cpu", "--no-cache", "-o", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const text_output parsed = parse_text_output(result.out);
  EXPECT_EQ(parsed.header, "# source 1");
  EXPECT_EQ(parsed.distances, reference_for(rome, 0).distances);
  EXPECT_EQ(summary_rows(result.err).size(), 1u) << result.err;
}

}  // namespace
}  // namespace bkt::sssp::test
