// The R-MAT generator: sizes, determinism across seeds and thread counts, weights, the reverse
// edges of undirected graphs, and the skewed degrees that make it R-MAT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "generate/rmat.hpp"

namespace bkt::sssp::generate {
namespace {

void expect_valid_csr(const csr_graph<std::uint32_t>& graph) {
  ASSERT_EQ(graph.offsets.front(), 0);
  ASSERT_EQ(graph.offsets.back(), graph.num_edges());
  ASSERT_EQ(graph.weights.size(), graph.targets.size());
  for (std::int64_t v = 0; v < graph.num_vertices(); ++v) ASSERT_LE(graph.offsets[v], graph.offsets[v + 1]);
  for (const vertex t : graph.targets) ASSERT_LT(t, graph.num_vertices());
}

rmat_options small(int scale, std::uint64_t seed, int threads) {
  rmat_options options;
  options.scale = scale;
  options.edge_factor = 16;
  options.seed = seed;
  options.threads = threads;
  return options;
}

bool same_graph(const csr_graph<std::uint32_t>& a, const csr_graph<std::uint32_t>& b) {
  return a.offsets == b.offsets && a.targets == b.targets && a.weights == b.weights;
}

TEST(generate_rmat, has_two_to_the_scale_vertices_and_factor_times_as_many_edges) {
  for (const int scale : {0, 1, 5, 12}) {
    const auto graph = rmat_graph(small(scale, 1, 2));
    EXPECT_EQ(graph.num_vertices(), std::int64_t{1} << scale);
    EXPECT_EQ(graph.num_edges(), std::int64_t{16} << scale);
    expect_valid_csr(graph);
  }
  rmat_options none = small(4, 1, 1);
  none.edge_factor = 0;
  EXPECT_EQ(rmat_graph(none).num_edges(), 0);
}

TEST(generate_rmat, is_deterministic_in_the_seed_and_not_in_the_threads) {
  const auto one = rmat_graph(small(13, 7, 1));
  EXPECT_TRUE(same_graph(one, rmat_graph(small(13, 7, 1))));
  EXPECT_TRUE(same_graph(one, rmat_graph(small(13, 7, 3))));
  EXPECT_TRUE(same_graph(one, rmat_graph(small(13, 7, 8))));
  EXPECT_FALSE(same_graph(one, rmat_graph(small(13, 8, 1))));
}

TEST(generate_rmat, weights_stay_in_range_and_cover_it) {
  rmat_options options = small(10, 3, 2);
  options.weights = {5, 9};
  const auto graph = rmat_graph(options);
  EXPECT_EQ(*std::min_element(graph.weights.begin(), graph.weights.end()), 5u);
  EXPECT_EQ(*std::max_element(graph.weights.begin(), graph.weights.end()), 9u);
  options.weights = {0, 0xffffffffu};
  EXPECT_NO_THROW(rmat_graph(options));
  options.weights = {2, 1};
  EXPECT_THROW(rmat_graph(options), std::invalid_argument);
}

TEST(generate_rmat, undirected_graphs_hold_each_edge_both_ways_with_one_weight) {
  rmat_options options = small(8, 2, 2);
  const auto directed = rmat_graph(options);
  options.undirected = true;
  const auto graph = rmat_graph(options);
  EXPECT_EQ(graph.num_edges(), 2 * directed.num_edges());
  std::map<std::tuple<vertex, vertex, std::uint32_t>, std::int64_t> count;  // (from, to, weight) -> copies
  for (vertex u = 0; u < graph.num_vertices(); ++u)
    for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e)
      ++count[{u, graph.targets[e], graph.weights[e]}];
  for (const auto& [edge, copies] : count) {
    const auto& [from, to, weight] = edge;
    EXPECT_EQ(copies, (count[{to, from, weight}])) << from << " -> " << to;
  }
}

TEST(generate_rmat, degrees_are_skewed_and_the_hub_is_scrambled) {
  const auto graph = rmat_graph(small(14, 1, 2));
  std::int64_t max_degree = 0;
  vertex hub = 0;
  for (vertex v = 0; v < graph.num_vertices(); ++v)
    if (graph.offsets[v + 1] - graph.offsets[v] > max_degree) {
      max_degree = graph.offsets[v + 1] - graph.offsets[v];
      hub = v;
    }
  const double mean_degree = static_cast<double>(graph.num_edges()) / static_cast<double>(graph.num_vertices());
  EXPECT_GT(static_cast<double>(max_degree), 50 * mean_degree);  // R-MAT hubs: hundreds of times the mean
  EXPECT_NE(hub, 0u);  // unscrambled, vertex 0 (all quadrants "a") would be the hub
}

TEST(generate_rmat, rejects_bad_options) {
  EXPECT_THROW(rmat_graph(small(32, 1, 1)), std::invalid_argument);
  EXPECT_THROW(rmat_graph(small(-1, 1, 1)), std::invalid_argument);
}

}  // namespace
}  // namespace bkt::sssp::generate
