// bkt-sssp --cpu on the sample graphs: the summary's reached count, checksum and largest distance
// against the reference computed here, the JSON summary, sources, weights and the cache.
#include <gtest/gtest.h>

#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

#include "io/load_graph.hpp"
#include "reference/dijkstra.hpp"
#include "tool_fixture.hpp"

namespace bkt::sssp::test {
namespace {

/// What the summary should say about one source, computed in this process.
struct expected_run {
  std::string reached, checksum, max_distance;
};

/// A number in the shortest form that reads back the same, as the tool prints it.
template <class Number>
std::string shortest_text(Number value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

/// Reached, checksum and largest finite distance from `source` (internal id), as the tool prints them.
expected_run reference_run(const std::string& path, vertex source, load_options options = {}) {
  options.use_cache = false;
  const loaded_graph loaded = load_graph(path, options);
  return std::visit(
      [&](const auto& graph) {
        const auto distances = ref::dijkstra(graph, source);
        using distance = typename decltype(distances)::value_type;
        distance sum{0}, largest{0};
        std::int64_t reached = 0;
        for (const distance d : distances)
          if (d != unreachable<distance>()) {
            ++reached;
            sum += d;
            largest = std::max(largest, d);
          }
        return expected_run{std::to_string(reached), shortest_text(sum), shortest_text(largest)};
      },
      loaded.graph);
}

void expect_row(const summary_row& row, const expected_run& want) {
  EXPECT_EQ(row.reached, want.reached);
  EXPECT_EQ(row.checksum, want.checksum);
  EXPECT_EQ(row.max_distance, want.max_distance);
  EXPECT_EQ(row.algorithm, "dijkstra-cpu");
}

using tool_run = tool_test;

TEST_F(tool_run, checksums_on_the_sample_graphs_match_the_reference) {
  // The default source is the first vertex, printed in the file's numbering.
  for (const auto& [name, first] :
       {std::pair{"rome99.gr", "1"}, {"facebook_combined.txt", "0"}, {"luxembourg_osm.mtx", "1"}}) {
    SCOPED_TRACE(name);
    const tool_result result = run({data_graph(name), "--cpu", "--no-cache"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = summary_rows(result.out);
    ASSERT_EQ(rows.size(), 1u) << result.out;
    EXPECT_EQ(rows[0].source, first);
    expect_row(rows[0], reference_run(data_graph(name), 0));
    EXPECT_NE(graph_line(result.out).find("parsed"), std::string::npos) << result.out;
  }
}

TEST_F(tool_run, named_dimacs_and_random_sources) {
  const std::string rome = data_graph("rome99.gr");
  const tool_result one = run({rome, "--cpu", "--no-cache", "--source", "100"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(summary_rows(one.out).size(), 1u);
  EXPECT_EQ(summary_rows(one.out)[0].source, "100");
  expect_row(summary_rows(one.out)[0], reference_run(rome, 99));

  const std::string ss = write("rome.ss", "c two sources\np aux sp ss 2\ns 1\ns 3353\n");
  const tool_result listed = run({rome, "--cpu", "--no-cache", "--sources", ss});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const auto rows = summary_rows(listed.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].source, "3353");
  expect_row(rows[1], reference_run(rome, 3352));

  const tool_result random = run({rome, "--cpu", "--no-cache", "--random-sources", "5", "--seed", "3"});
  ASSERT_EQ(random.exit_code, 0) << random.err;
  const auto drawn = summary_rows(random.out);
  ASSERT_EQ(drawn.size(), 5u);
  std::set<std::string> distinct;
  for (const auto& row : drawn) {
    distinct.insert(row.source);
    expect_row(row, reference_run(rome, static_cast<vertex>(std::stoll(row.source) - 1)));
  }
  EXPECT_EQ(distinct.size(), 5u);
  const tool_result again = run({rome, "--cpu", "--no-cache", "--random-sources", "5", "--seed", "3"});
  EXPECT_EQ(summary_rows(again.out)[4].source, drawn[4].source);  // the seed fixes the draw
}

TEST_F(tool_run, undirected_random_weights_and_float_weights) {
  const std::string facebook = data_graph("facebook_combined.txt");
  const tool_result result =
      run({facebook, "--cpu", "--no-cache", "--undirected", "--random-weights", "1:100", "--seed", "7"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  load_options options;
  options.undirected = true;
  options.weights = random_weights{1, 100, 7};
  expect_row(summary_rows(result.out).at(0), reference_run(facebook, 0, options));

  // Real weights make f32 edges and double distances, printed so that they read back exactly.
  const std::string floats = write("floats.txt", "0 1 0.1\n1 2 0.1\n2 3 0.1\n0 3 0.35\n3 4 1e-3\n");
  const tool_result real = run({floats, "--cpu", "--no-cache"});
  ASSERT_EQ(real.exit_code, 0) << real.err;
  const summary_row row = summary_rows(real.out).at(0);
  const double path = (static_cast<double>(0.1f) + static_cast<double>(0.1f)) + static_cast<double>(0.1f);
  EXPECT_EQ(std::stod(row.max_distance), path + static_cast<double>(1e-3f));
  expect_row(row, reference_run(floats, 0));
  EXPECT_NE(graph_line(real.out).find("f32"), std::string::npos);
}

TEST_F(tool_run, json_summary_matches_the_table) {
  const std::string lux = data_graph("luxembourg_osm.mtx");
  const std::string json_path = (dir_ / "summary.json").string();
  const tool_result result = run({lux, "--cpu", "--no-cache", "--source", "7", "--json", json_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto summary = nlohmann::json::parse(read_file(json_path));
  EXPECT_EQ(summary["tool"], "bkt-sssp");
  EXPECT_EQ(summary["device"], "cpu");
  EXPECT_EQ(summary["algorithm"], "dijkstra-cpu");
  EXPECT_EQ(summary["graph"]["vertices"], 114599);
  EXPECT_EQ(summary["graph"]["index_base"], 1);
  EXPECT_EQ(summary["graph"]["format"], "matrix-market");
  EXPECT_TRUE(summary["graph"]["symmetric"].get<bool>());
  EXPECT_FALSE(summary["graph"]["from_cache"].get<bool>());
  ASSERT_EQ(summary["sources"].size(), 1u);
  const auto& source = summary["sources"][0];
  const expected_run want = reference_run(lux, 6);
  EXPECT_EQ(source["source"], 7);
  EXPECT_EQ(std::to_string(source["reached"].get<std::int64_t>()), want.reached);
  EXPECT_EQ(std::to_string(source["checksum"].get<std::uint64_t>()), want.checksum);
  EXPECT_EQ(std::to_string(source["max_distance"].get<std::uint64_t>()), want.max_distance);
  EXPECT_GE(source["milliseconds"].get<double>(), 0.0);

  // --json - puts the JSON alone on standard output and the table on standard error.
  const tool_result to_stdout = run({lux, "--cpu", "--no-cache", "--json", "-"});
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(nlohmann::json::parse(to_stdout.out)["sources"][0]["source"], 1);
  EXPECT_EQ(summary_rows(to_stdout.err).size(), 1u);
}

}  // namespace
}  // namespace bkt::sssp::test
