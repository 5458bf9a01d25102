// ref::dijkstra (Boost over our CSR) against a textbook Dijkstra written here with a binary heap,
// on random and shaped graphs, with the awkward cases: zero weights, zero-weight cycles, self
// loops, parallel edges, one vertex, no edges, float weights and sums past 2^32.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "generate/grid.hpp"
#include "generate/rmat.hpp"
#include "generate/small_graphs.hpp"
#include "reference/dijkstra.hpp"

namespace bkt::sssp {
namespace {

/// Dijkstra with std::priority_queue and lazy deletion, distances added as the header promises.
template <edge_weight Weight>
std::vector<distance_t<Weight>> textbook_dijkstra(const csr_graph<Weight>& graph, vertex source) {
  using distance = distance_t<Weight>;
  std::vector<distance> dist(static_cast<std::size_t>(graph.num_vertices()), unreachable<distance>());
  using entry = std::pair<distance, vertex>;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const distance candidate = d + static_cast<distance>(graph.weights[e]);
      if (candidate < dist[graph.targets[e]]) {
        dist[graph.targets[e]] = candidate;
        heap.push({candidate, graph.targets[e]});
      }
    }
  }
  return dist;
}

/// A graph from an edge list, written out by hand.
template <edge_weight Weight>
csr_graph<Weight> graph_of(std::int64_t num_vertices, const std::vector<std::tuple<vertex, vertex, Weight>>& edges) {
  csr_graph<Weight> graph;
  graph.offsets.assign(static_cast<std::size_t>(num_vertices) + 1, 0);
  for (const auto& [from, to, weight] : edges) ++graph.offsets[from + 1];
  for (std::int64_t v = 0; v < num_vertices; ++v) graph.offsets[v + 1] += graph.offsets[v];
  std::vector<std::int64_t> next(graph.offsets.begin(), graph.offsets.end() - 1);
  graph.targets.resize(edges.size());
  graph.weights.resize(edges.size());
  for (const auto& [from, to, weight] : edges) {
    graph.targets[next[from]] = to;
    graph.weights[next[from]++] = weight;
  }
  return graph;
}

/// The same shape with float weights w / 7 (not exact in binary, so rounding matters).
csr_graph<float> with_float_weights(const csr_graph<std::uint32_t>& graph) {
  csr_graph<float> converted{graph.offsets, graph.targets, {}};
  for (const std::uint32_t w : graph.weights) converted.weights.push_back(static_cast<float>(w) / 7.0f);
  return converted;
}

template <edge_weight Weight>
void expect_matches_textbook(const csr_graph<Weight>& graph, const std::vector<vertex>& sources) {
  for (const vertex source : sources) {
    SCOPED_TRACE("source " + std::to_string(source));
    const auto want = textbook_dijkstra(graph, source);
    const auto got = ref::dijkstra(graph, source);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t v = 0; v < want.size(); ++v) ASSERT_EQ(got[v], want[v]) << "vertex " << v;
  }
}

TEST(reference_dijkstra, matches_textbook_on_uniform_random_graphs) {
  for (const std::int64_t n : {2, 10, 100, 1000})
    for (const std::int64_t edges_per_vertex : {1, 3, 8})
      for (const std::uint64_t seed : {1u, 2u}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " m/n=" + std::to_string(edges_per_vertex));
        const auto graph = generate::uniform_random_graph(n, n * edges_per_vertex, {0, 100}, seed);
        expect_matches_textbook(graph, {0, static_cast<vertex>(n / 2), static_cast<vertex>(n - 1)});
        expect_matches_textbook(with_float_weights(graph), {0, static_cast<vertex>(n - 1)});
      }
}

TEST(reference_dijkstra, matches_textbook_on_rmat_and_grid) {
  generate::rmat_options rmat;
  rmat.scale = 10;
  rmat.edge_factor = 8;
  rmat.threads = 2;
  for (const bool undirected : {false, true}) {
    rmat.undirected = undirected;
    const auto graph = generate::rmat_graph(rmat);
    expect_matches_textbook(graph, {0, 1, 500});
    expect_matches_textbook(with_float_weights(graph), {3});
  }
  const auto grid = generate::grid_graph({.width = 40, .height = 25, .weights = {1, 1000}, .seed = 3, .threads = 2});
  expect_matches_textbook(grid, {0, 999, 517});
}

TEST(reference_dijkstra, path_star_and_disjoint_pieces) {
  const auto path = generate::path_graph(50, {5, 5}, 1, false);
  const auto from_start = ref::dijkstra(path, 0);
  for (std::size_t v = 0; v < 50; ++v) EXPECT_EQ(from_start[v], 5 * v);
  const auto from_middle = ref::dijkstra(path, 25);
  EXPECT_EQ(from_middle[24], unreachable<std::uint64_t>());  // directed: nothing goes back
  EXPECT_EQ(from_middle[49], 5u * 24);

  const auto star = generate::star_graph(20, {1, 9}, 4, true);
  expect_matches_textbook(star, {0, 7});
  const auto from_leaf = ref::dijkstra(star, 7);
  const auto from_center = ref::dijkstra(star, 0);
  for (vertex v = 1; v < 20; ++v) {
    if (v == 7) continue;
    EXPECT_EQ(from_leaf[v], from_leaf[0] + from_center[v]);
  }

  const auto pieces = generate::disjoint_paths_graph(4, 10, {1, 3}, 2, true);
  const auto from_piece_one = ref::dijkstra(pieces, 12);
  for (vertex v = 0; v < 40; ++v) EXPECT_EQ(from_piece_one[v] == unreachable<std::uint64_t>(), v < 10 || v >= 20) << v;
  expect_matches_textbook(pieces, {0, 12, 39});
}

TEST(reference_dijkstra, zero_weights_and_zero_weight_cycles) {
  // 0 -> 1 -> 2 -> 0 all zero; 2 -> 3 (4); 1 -> 3 (9); 3 -> 4 (0); 4 -> 3 (0).
  const auto graph =
      graph_of<std::uint32_t>(5, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 4}, {1, 3, 9}, {3, 4, 0}, {4, 3, 0}});
  EXPECT_EQ(ref::dijkstra(graph, 0), (std::vector<std::uint64_t>{0, 0, 0, 4, 4}));
  EXPECT_EQ(ref::dijkstra(graph, 3),
            (std::vector<std::uint64_t>{unreachable<std::uint64_t>(), unreachable<std::uint64_t>(),
                                        unreachable<std::uint64_t>(), 0, 0}));
  const auto all_zero = generate::uniform_random_graph(200, 800, {0, 0}, 5);
  expect_matches_textbook(all_zero, {0, 100});
}

TEST(reference_dijkstra, self_loops_and_parallel_edges) {
  const auto graph =
      graph_of<std::uint32_t>(3, {{0, 0, 1}, {0, 1, 7}, {0, 1, 3}, {0, 1, 5}, {1, 1, 0}, {1, 2, 2}, {1, 2, 1}});
  EXPECT_EQ(ref::dijkstra(graph, 0), (std::vector<std::uint64_t>{0, 3, 4}));
  const auto floats = graph_of<float>(2, {{0, 0, 0.5f}, {0, 1, 2.5f}, {0, 1, 0.25f}});
  EXPECT_EQ(ref::dijkstra(floats, 0), (std::vector<double>{0.0, 0.25}));
}

TEST(reference_dijkstra, single_vertex_and_no_edges) {
  EXPECT_EQ(ref::dijkstra(graph_of<std::uint32_t>(1, {}), 0), (std::vector<std::uint64_t>{0}));
  const auto lonely = ref::dijkstra(graph_of<float>(4, {}), 2);
  EXPECT_EQ(lonely[2], 0.0);
  EXPECT_EQ(lonely[0], unreachable<double>());
  EXPECT_EQ(lonely[3], unreachable<double>());
}

TEST(reference_dijkstra, integer_sums_pass_two_to_the_32) {
  const auto path = generate::path_graph(11, {0xffffffffu, 0xffffffffu}, 1, false);
  EXPECT_EQ(ref::dijkstra(path, 0)[10], 10 * std::uint64_t{0xffffffffu});
}

TEST(reference_dijkstra, float_weights_add_in_double_along_the_path) {
  // 0.1f three times, added in double: not the float sum, nor 0.3.
  const auto graph = graph_of<float>(4, {{0, 1, 0.1f}, {1, 2, 0.1f}, {2, 3, 0.1f}});
  const double want = (static_cast<double>(0.1f) + static_cast<double>(0.1f)) + static_cast<double>(0.1f);
  EXPECT_EQ(ref::dijkstra(graph, 0)[3], want);
}

TEST(reference_dijkstra, rejects_a_source_outside_the_graph) {
  EXPECT_THROW(ref::dijkstra(graph_of<std::uint32_t>(3, {}), 3), std::out_of_range);
}

}  // namespace
}  // namespace bkt::sssp
