// The grid generator's structure and weights, and the small graphs' shapes.
#include <gtest/gtest.h>

#include <cstdint>

#include "generate/grid.hpp"
#include "generate/small_graphs.hpp"

namespace bkt::sssp::generate {
namespace {

/// The weight of edge u -> v; fails the test when there is no such edge.
std::uint32_t weight_of(const csr_graph<std::uint32_t>& graph, vertex u, vertex v) {
  for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e)
    if (graph.targets[e] == v) return graph.weights[e];
  ADD_FAILURE() << "no edge " << u << " -> " << v;
  return 0;
}

TEST(generate_grid, links_each_vertex_to_its_four_neighbours_both_ways) {
  const std::int64_t width = 7, height = 5;
  const auto graph = grid_graph({.width = width, .height = height, .weights = {1, 100}, .seed = 4, .threads = 2});
  ASSERT_EQ(graph.num_vertices(), width * height);
  EXPECT_EQ(graph.num_edges(), 2 * ((width - 1) * height + width * (height - 1)));
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x) {
      const auto v = static_cast<vertex>(y * width + x);
      std::vector<vertex> want;  // up, left, right, down: ascending ids
      if (y > 0) want.push_back(v - width);
      if (x > 0) want.push_back(v - 1);
      if (x + 1 < width) want.push_back(v + 1);
      if (y + 1 < height) want.push_back(v + width);
      const std::vector<vertex> got(graph.targets.begin() + graph.offsets[v],
                                    graph.targets.begin() + graph.offsets[v + 1]);
      EXPECT_EQ(got, want) << "vertex (" << x << ", " << y << ")";
      for (const vertex u : want) EXPECT_EQ(weight_of(graph, v, u), weight_of(graph, u, v));
    }
  for (const std::uint32_t w : graph.weights) {
    EXPECT_GE(w, 1u);
    EXPECT_LE(w, 100u);
  }
}

TEST(generate_grid, is_deterministic_and_handles_thin_grids) {
  const grid_options options{.width = 300, .height = 200, .weights = {0, 9}, .seed = 11, .threads = 1};
  const auto one = grid_graph(options);
  grid_options more_threads = options;
  more_threads.threads = 4;
  const auto other = grid_graph(more_threads);
  EXPECT_EQ(one.offsets, other.offsets);
  EXPECT_EQ(one.targets, other.targets);
  EXPECT_EQ(one.weights, other.weights);
  grid_options reseeded = options;
  reseeded.seed = 12;
  EXPECT_NE(grid_graph(reseeded).weights, one.weights);

  EXPECT_EQ(grid_graph({.width = 1, .height = 1}).num_edges(), 0);
  EXPECT_EQ(grid_graph({.width = 10, .height = 1}).num_edges(), 18);  // a path both ways
  EXPECT_EQ(grid_graph({.width = 0, .height = 5}).num_vertices(), 0);
  EXPECT_THROW(grid_graph({.width = 1 << 17, .height = 1 << 16}), std::invalid_argument);
}

TEST(generate_small_graphs, have_their_shapes) {
  const auto path = path_graph(6, {3, 3}, 1, false);
  EXPECT_EQ(path.num_edges(), 5);
  EXPECT_EQ(path.targets, (std::vector<vertex>{1, 2, 3, 4, 5}));
  EXPECT_EQ(path_graph(6, {3, 3}, 1, true).num_edges(), 10);
  EXPECT_EQ(path_graph(1, {1, 1}, 1, true).num_edges(), 0);
  EXPECT_EQ(path_graph(0, {1, 1}, 1, true).num_vertices(), 0);

  const auto star = star_graph(5, {1, 8}, 2, true);
  EXPECT_EQ(star.offsets, (std::vector<std::int64_t>{0, 4, 5, 6, 7, 8}));
  for (vertex leaf = 1; leaf < 5; ++leaf) EXPECT_EQ(weight_of(star, 0, leaf), weight_of(star, leaf, 0));

  const auto pieces = disjoint_paths_graph(3, 4, {1, 1}, 1, false);
  EXPECT_EQ(pieces.num_vertices(), 12);
  EXPECT_EQ(pieces.num_edges(), 9);
  EXPECT_EQ(pieces.offsets[4] - pieces.offsets[3], 0);  // each piece's last vertex leads nowhere

  const auto random = uniform_random_graph(50, 400, {2, 4}, 3);
  EXPECT_EQ(random.num_vertices(), 50);
  EXPECT_EQ(random.num_edges(), 400);
  EXPECT_EQ(random.targets, uniform_random_graph(50, 400, {2, 4}, 3).targets);
  EXPECT_THROW(uniform_random_graph(0, 1, {1, 1}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace bkt::sssp::generate
