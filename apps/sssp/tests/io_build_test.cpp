// The CSR the loader builds: reverse edges, random weights, rows in file order, and the same
// result for any thread count (checked against a plain one-edge-at-a-time build).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/load_graph.hpp"
#include "io/random_weight.hpp"

namespace bkt::sssp {
namespace {

struct input_edge {
  vertex source;
  vertex target;
  std::uint32_t weight;
};

/// The CSR built the slow, obvious way: rows filled edge by edge in file order.
csr_graph<std::uint32_t> reference_csr(const std::vector<input_edge>& edges, std::int64_t num_vertices, bool undirected) {
  std::vector<std::vector<std::pair<vertex, std::uint32_t>>> rows(static_cast<std::size_t>(num_vertices));
  for (const input_edge& e : edges) {
    rows[e.source].push_back({e.target, e.weight});
    if (undirected && e.source != e.target) rows[e.target].push_back({e.source, e.weight});
  }
  csr_graph<std::uint32_t> graph;
  for (const auto& row : rows) {
    for (const auto& [target, weight] : row) {
      graph.targets.push_back(target);
      graph.weights.push_back(weight);
    }
    graph.offsets.push_back(static_cast<std::int64_t>(graph.targets.size()));
  }
  return graph;
}

/// `count` random edges among `num_vertices` vertices (hubs included), weights below 1000.
std::vector<input_edge> random_edges(std::int64_t count, vertex num_vertices, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<input_edge> edges;
  for (std::int64_t i = 0; i < count; ++i) {
    const vertex u = generator() % 4 == 0 ? static_cast<vertex>(generator() % 8) : static_cast<vertex>(generator() % num_vertices);
    edges.push_back({u, static_cast<vertex>(generator() % num_vertices), static_cast<std::uint32_t>(generator() % 1000)});
  }
  edges.push_back({num_vertices - 1, 0, 1});  // so that the largest id is there
  return edges;
}

class io_build : public apps::test::temp_dir_test {
 protected:
  static load_options options_with(int threads, bool undirected = false) {
    load_options options;
    options.use_cache = false;
    options.threads = threads;
    options.undirected = undirected;
    return options;
  }
  static const csr_graph<std::uint32_t>& integer_graph(const loaded_graph& loaded) {
    return std::get<csr_graph<std::uint32_t>>(loaded.graph);
  }
};

void expect_same(const csr_graph<std::uint32_t>& got, const csr_graph<std::uint32_t>& want) {
  EXPECT_EQ(got.offsets, want.offsets);
  EXPECT_EQ(got.targets, want.targets);
  EXPECT_EQ(got.weights, want.weights);
}

TEST_F(io_build, undirected_doubles_every_edge_but_self_loops) {
  const loaded_graph loaded = load_graph(write_file("g.txt", "0 1 3\n1 2 4\n2 2 5\n"), options_with(2, true));
  const auto& graph = integer_graph(loaded);
  EXPECT_EQ(graph.offsets, (std::vector<std::int64_t>{0, 1, 3, 5}));
  EXPECT_EQ(graph.targets, (std::vector<vertex>{1, 0, 2, 1, 2}));
  EXPECT_EQ(graph.weights, (std::vector<std::uint32_t>{3, 3, 4, 4, 5}));
  EXPECT_TRUE(loaded.symmetric);
}

TEST_F(io_build, rows_keep_file_order_with_parallel_edges_and_self_loops) {
  const loaded_graph loaded = load_graph(write_file("g.txt", "0 1 5\n0 1 3\n1 1 2\n0 2 1\n0 1 4\n"), options_with(3));
  const auto& graph = integer_graph(loaded);
  EXPECT_EQ(graph.offsets, (std::vector<std::int64_t>{0, 4, 5, 5}));
  EXPECT_EQ(graph.targets, (std::vector<vertex>{1, 1, 2, 1, 1}));
  EXPECT_EQ(graph.weights, (std::vector<std::uint32_t>{5, 3, 1, 4, 2}));
}

TEST_F(io_build, large_edge_list_is_the_same_for_any_thread_count) {
  const std::vector<input_edge> edges = random_edges(200000, 30000, 7);
  std::string text = "# 200k random edges\n";
  for (const input_edge& e : edges)
    text += std::to_string(e.source) + "\t" + std::to_string(e.target) + "\t" + std::to_string(e.weight) + "\n";
  const std::string file = write_file("big.tsv", text);
  for (const bool undirected : {false, true}) {
    const csr_graph<std::uint32_t> want = reference_csr(edges, 30000, undirected);
    for (const int threads : {1, 2, 7, 16}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + (undirected ? " undirected" : ""));
      expect_same(integer_graph(load_graph(file, options_with(threads, undirected))), want);
    }
  }
}

TEST_F(io_build, large_dimacs_file_is_the_same_for_any_thread_count) {
  const std::vector<input_edge> edges = random_edges(200000, 20000, 11);
  std::string text = "c generated\np sp 20000 " + std::to_string(edges.size()) + "\n";
  for (const input_edge& e : edges)
    text += "a " + std::to_string(e.source + 1) + " " + std::to_string(e.target + 1) + " " + std::to_string(e.weight) + "\n";
  const std::string file = write_file("big.gr", text);
  const csr_graph<std::uint32_t> want = reference_csr(edges, 20000, false);
  for (const int threads : {1, 5})
    expect_same(integer_graph(load_graph(file, options_with(threads))), want);
}

TEST_F(io_build, random_weights_do_not_depend_on_threads_and_match_on_reverse_edges) {
  std::vector<input_edge> edges = random_edges(60000, 5000, 3);
  std::string text;
  for (input_edge& e : edges) {
    text += std::to_string(e.source) + " " + std::to_string(e.target) + "\n";
    e.weight = 0;
  }
  const std::string file = write_file("g.txt", text);
  const random_weights weights{10, 20, 99};
  for (std::size_t i = 0; i < edges.size(); ++i) edges[i].weight = detail::random_weight(99, i, 10, 20);
  const csr_graph<std::uint32_t> want = reference_csr(edges, 5000, true);
  for (const int threads : {1, 2, 7}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    load_options options = options_with(threads, true);
    options.weights = weights;
    const loaded_graph loaded = load_graph(file, options);
    const csr_graph<std::uint32_t>& got = integer_graph(loaded);
    expect_same(got, want);
    EXPECT_EQ(*std::min_element(got.weights.begin(), got.weights.end()), 10u);
    EXPECT_EQ(*std::max_element(got.weights.begin(), got.weights.end()), 20u);
  }
  // A different seed gives different weights.
  load_options other = options_with(2, true);
  other.weights = random_weights{10, 20, 100};
  EXPECT_NE(integer_graph(load_graph(file, other)).weights, want.weights);
}

TEST_F(io_build, random_weights_replace_float_weights_and_cover_the_full_range) {
  load_options options = options_with(2);
  options.weights = random_weights{0, 0xffffffffu, 5};
  const loaded_graph loaded = load_graph(write_file("g.mtx",
                                                    "%%MatrixMarket matrix coordinate real general\n"
                                                    "2 2 2\n1 2 0.5\n2 1 1.5\n"),
                                         options);
  const auto& graph = integer_graph(loaded);  // random weights are integers whatever the file holds
  EXPECT_EQ(graph.weights, (std::vector<std::uint32_t>{detail::random_weight(5, 0, 0, 0xffffffffu),
                                                        detail::random_weight(5, 1, 0, 0xffffffffu)}));
}

TEST_F(io_build, random_weight_bounds_are_checked) {
  load_options options = options_with(1);
  options.weights = random_weights{5, 4, 0};
  try {
    load_graph(write_file("g.txt", "0 1\n"), options);
    FAIL() << "no error";
  } catch (const apps::app_error& error) {
    EXPECT_EQ(error.code(), apps::exit_usage);
  }
}

}  // namespace
}  // namespace bkt::sssp
