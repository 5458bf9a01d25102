// parents_from_distances: a tree of tight edges rooted at the source, even around zero-weight
// cycles; and first_difference, the comparison --verify uses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "generate/grid.hpp"
#include "generate/rmat.hpp"
#include "generate/small_graphs.hpp"
#include "reference/compare.hpp"
#include "reference/dijkstra.hpp"
#include "reference/parents.hpp"

namespace bkt::sssp {
namespace {

/// Every parent link is a tight edge of the graph, following parents from any reached vertex ends
/// at the source without a cycle, and exactly the source and the unreached have no parent.
template <edge_weight Weight>
void expect_shortest_path_tree(const csr_graph<Weight>& graph, vertex source) {
  using distance = distance_t<Weight>;
  const std::vector<distance> dist = ref::dijkstra(graph, source);
  const std::vector<std::int64_t> parents = ref::parents_from_distances<distance>(graph, dist, source);
  const auto n = static_cast<std::size_t>(graph.num_vertices());
  ASSERT_EQ(parents.size(), n);
  EXPECT_EQ(parents[source], -1);
  for (std::size_t v = 0; v < n; ++v) {
    if (v == source) continue;
    if (dist[v] == unreachable<distance>()) {
      EXPECT_EQ(parents[v], -1) << "unreached vertex " << v;
      continue;
    }
    ASSERT_GE(parents[v], 0) << "reached vertex " << v << " has no parent";
    const auto p = static_cast<vertex>(parents[v]);
    bool tight = false;
    for (std::int64_t e = graph.offsets[p]; e < graph.offsets[p + 1]; ++e)
      tight |= graph.targets[e] == v && dist[p] + static_cast<distance>(graph.weights[e]) == dist[v];
    EXPECT_TRUE(tight) << "parent " << p << " of " << v << " is not a tight in-edge";
    std::size_t steps = 0;  // a tree: the chain ends at the source within n steps
    for (std::int64_t u = static_cast<std::int64_t>(v); u != source; u = parents[u]) {
      ASSERT_GE(u, 0);
      ASSERT_LT(++steps, n) << "cycle through " << v;
    }
  }
}

csr_graph<float> with_float_weights(const csr_graph<std::uint32_t>& graph) {
  csr_graph<float> converted{graph.offsets, graph.targets, {}};
  for (const std::uint32_t w : graph.weights) converted.weights.push_back(static_cast<float>(w) * 0.3f);
  return converted;
}

TEST(reference_parents, form_a_shortest_path_tree) {
  const auto random = generate::uniform_random_graph(500, 2000, {0, 20}, 9);
  expect_shortest_path_tree(random, 0);
  expect_shortest_path_tree(with_float_weights(random), 17);
  generate::rmat_options rmat;
  rmat.scale = 9;
  rmat.undirected = true;
  rmat.threads = 2;
  expect_shortest_path_tree(generate::rmat_graph(rmat), 5);
  expect_shortest_path_tree(generate::grid_graph({.width = 30, .height = 30, .weights = {1, 3}, .seed = 2}), 450);
  expect_shortest_path_tree(generate::disjoint_paths_graph(3, 7, {1, 4}, 1, true), 10);
}

TEST(reference_parents, stay_a_tree_with_zero_weight_cycles) {
  // Every weight zero: every edge is tight, and undirected links make two-cycles everywhere.
  expect_shortest_path_tree(generate::uniform_random_graph(300, 1500, {0, 0}, 4), 0);
  expect_shortest_path_tree(generate::grid_graph({.width = 12, .height = 9, .weights = {0, 1}, .seed = 6}), 40);
}

TEST(reference_parents, breadth_first_discovery_picks_the_first_tight_edge) {
  // 0 -> 1 (0), 0 -> 2 (0), 1 -> 2 (0): vertex 2 is discovered from 0 first.
  const csr_graph<std::uint32_t> graph{{0, 2, 3, 3}, {1, 2, 2}, {0, 0, 0}};
  const std::vector<std::uint64_t> dist{0, 0, 0};
  EXPECT_EQ(ref::parents_from_distances<std::uint64_t>(graph, dist, 0), (std::vector<std::int64_t>{-1, 0, 0}));
}

TEST(reference_parents, wrong_distances_leave_vertices_without_parent) {
  const auto path = generate::path_graph(4, {2, 2}, 1, false);
  const std::vector<std::uint64_t> wrong{0, 2, 5, 7};  // vertex 2 should be 4: 2 and 3 not reached by tight edges
  EXPECT_EQ(ref::parents_from_distances<std::uint64_t>(path, wrong, 0), (std::vector<std::int64_t>{-1, 0, -1, -1}));
}

TEST(reference_compare, first_difference_is_exact) {
  const std::vector<double> a{0.0, 1.5, unreachable<double>(), 3.0};
  std::vector<double> b = a;
  EXPECT_EQ(ref::first_difference<double>(a, b), std::nullopt);
  b[3] = std::nextafter(3.0, 4.0);
  EXPECT_EQ(ref::first_difference<double>(a, b), std::optional<vertex>(3));
  b[2] = 1e300;
  EXPECT_EQ(ref::first_difference<double>(a, b), std::optional<vertex>(2));
  const std::vector<std::uint64_t> x{1, 2}, y{1, 2, 3};
  EXPECT_THROW(ref::first_difference<std::uint64_t>(x, y), std::invalid_argument);
}

}  // namespace
}  // namespace bkt::sssp
