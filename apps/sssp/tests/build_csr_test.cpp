// The CSR builder the loader and the generators share: rows stable in input order, the same
// result for any thread count and any split of the input into runs, reverse edges, weights.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "build_csr.hpp"
#include "io/random_weight.hpp"

namespace bkt::sssp {
namespace {

/// The CSR built the slow, obvious way: rows filled edge by edge in input order, weights as given.
csr_graph<std::uint32_t> reference_csr(const edge_list& edges, std::int64_t num_vertices, bool add_reverse) {
  std::vector<std::vector<std::pair<vertex, std::uint32_t>>> rows(static_cast<std::size_t>(num_vertices));
  for (std::int64_t e = 0; e < edges.num_edges(); ++e) {
    const vertex u = edges.sources[e], v = edges.targets[e];
    rows[u].push_back({v, edges.weights[e]});
    if (add_reverse && u != v) rows[v].push_back({u, edges.weights[e]});
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

/// `count` edges among `num_vertices` vertices, a quarter of them from a few hubs, self-loops
/// included; each weight is its edge's index, which shows the order.
edge_list hub_edges(std::int64_t count, std::int64_t num_vertices) {
  edge_list edges;
  edges.resize(static_cast<std::size_t>(count));
  for (std::int64_t e = 0; e < count; ++e) {
    edges.sources[e] = static_cast<vertex>(e % 4 == 0 ? e % 7 : (e * 7919) % num_vertices);
    edges.targets[e] = static_cast<vertex>(e % 97 == 0 ? edges.sources[e] : (e * 104729) % num_vertices);
    edges.weights[e] = static_cast<std::uint32_t>(e);
  }
  return edges;
}

/// `edges` cut into runs at `cuts` (increasing edge indices; equal cuts give empty runs).
std::vector<edge_list> split(const edge_list& edges, const std::vector<std::int64_t>& cuts) {
  std::vector<edge_list> runs;
  std::int64_t begin = 0;
  for (std::size_t c = 0; c <= cuts.size(); ++c) {
    const std::int64_t end = c < cuts.size() ? cuts[c] : edges.num_edges();
    edge_list& run = runs.emplace_back();
    run.sources.assign(edges.sources.begin() + begin, edges.sources.begin() + end);
    run.targets.assign(edges.targets.begin() + begin, edges.targets.begin() + end);
    run.weights.assign(edges.weights.begin() + begin, edges.weights.begin() + end);
    begin = end;
  }
  return runs;
}

void expect_same(const csr_graph<std::uint32_t>& got, const csr_graph<std::uint32_t>& want) {
  EXPECT_EQ(got.offsets, want.offsets);
  EXPECT_EQ(got.targets, want.targets);
  EXPECT_EQ(got.weights, want.weights);
}

TEST(build_csr, sorts_by_source_keeping_input_order) {
  // Enough edges and vertices for several groups and blocks of the two-pass sort.
  const std::int64_t num_vertices = 20000, num_edges = 3 << 20;
  edge_list edges;
  edges.resize(num_edges);
  for (std::int64_t e = 0; e < num_edges; ++e) {
    edges.sources[e] = static_cast<vertex>((e * 7919) % num_vertices);
    edges.targets[e] = static_cast<vertex>(e % num_vertices);
    edges.weights[e] = static_cast<std::uint32_t>(e);  // the input index, to check the order
  }
  edge_list copy = edges;
  const auto graph = build_csr<std::uint32_t>(std::move(edges), {.num_vertices = num_vertices, .threads = 3});
  ASSERT_EQ(graph.num_edges(), num_edges);
  for (vertex u = 0; u < num_vertices; ++u)
    for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const std::uint32_t index = graph.weights[e];
      ASSERT_EQ(copy.sources[index], u);
      ASSERT_EQ(copy.targets[index], graph.targets[e]);
      if (e == graph.offsets[u]) continue;
      ASSERT_LT(graph.weights[e - 1], index) << "order lost at vertex " << u;
    }
  const auto single = build_csr<std::uint32_t>(std::move(copy), {.num_vertices = num_vertices, .threads = 1});
  EXPECT_EQ(single.targets, graph.targets);
  EXPECT_EQ(single.offsets, graph.offsets);
}

TEST(build_csr, same_graph_for_any_runs_threads_and_reverse_edges) {
  const std::int64_t num_vertices = 30000;
  const edge_list edges = hub_edges(300000, num_vertices);
  const std::vector<std::vector<std::int64_t>> splits = {{}, {1, 1, 70000, 70000, 299999}, {150000}};
  for (const bool add_reverse : {false, true}) {
    const csr_graph<std::uint32_t> want = reference_csr(edges, num_vertices, add_reverse);
    for (const auto& cuts : splits)
      for (const int threads : {1, 2, 7}) {
        SCOPED_TRACE(std::to_string(cuts.size() + 1) + " runs, threads " + std::to_string(threads) +
                     (add_reverse ? ", reverse" : ""));
        expect_same(build_csr<std::uint32_t>(split(edges, cuts), {.num_vertices = num_vertices,
                                                                   .add_reverse = add_reverse,
                                                                   .threads = threads}),
                    want);
      }
  }
}

TEST(build_csr, float_unit_and_random_weights) {
  edge_list edges;
  edges.sources = {2, 0, 2, 1};
  edges.targets = {0, 1, 1, 1};
  for (const float w : {0.5f, 1.5f, 2.5f, 3.5f}) edges.weights.push_back(std::bit_cast<std::uint32_t>(w));
  const auto real = build_csr<float>(split(edges, {2}), {.num_vertices = 3, .add_reverse = true});
  EXPECT_EQ(real.offsets, (std::vector<std::int64_t>{0, 2, 5, 7}));
  EXPECT_EQ(real.targets, (std::vector<vertex>{2, 1, 0, 2, 1, 0, 1}));
  EXPECT_EQ(real.weights, (std::vector<float>{0.5f, 1.5f, 1.5f, 2.5f, 3.5f, 0.5f, 2.5f}));

  edge_list unweighted = edges;
  unweighted.weights.clear();
  const auto unit = build_csr<std::uint32_t>(std::move(unweighted), {.num_vertices = 3, .weights = csr_weights::unit});
  EXPECT_EQ(unit.weights, (std::vector<std::uint32_t>(4, 1)));

  edge_list unweighted_again = edges;
  unweighted_again.weights.clear();
  const auto random = build_csr<std::uint32_t>(
      split(unweighted_again, {1, 3}),
      {.num_vertices = 3, .weights = csr_weights::random, .lo = 10, .hi = 20, .seed = 5, .threads = 2});
  // Rows: 0 <- input 1; 1 <- input 3; 2 <- inputs 0, 2.
  EXPECT_EQ(random.weights, (std::vector<std::uint32_t>{detail::random_weight(5, 1, 10, 20), detail::random_weight(5, 3, 10, 20),
                                                         detail::random_weight(5, 0, 10, 20), detail::random_weight(5, 2, 10, 20)}));
}

TEST(build_csr, empty_inputs) {
  const auto no_edges = build_csr<std::uint32_t>(edge_list{}, {.num_vertices = 5});
  EXPECT_EQ(no_edges.offsets, (std::vector<std::int64_t>(6, 0)));
  EXPECT_EQ(no_edges.num_edges(), 0);
  const auto no_runs = build_csr<std::uint32_t>(std::vector<edge_list>{}, {.num_vertices = 2});
  EXPECT_EQ(no_runs.offsets, (std::vector<std::int64_t>{0, 0, 0}));
  const auto nothing = build_csr<std::uint32_t>(edge_list{}, {.num_vertices = 0});
  EXPECT_EQ(nothing.offsets, (std::vector<std::int64_t>{0}));
}

TEST(build_csr, rejects_bad_input) {
  const auto edges = [](std::vector<vertex> sources, std::vector<vertex> targets) {
    edge_list list;
    list.weights.assign(sources.size(), 1);
    list.sources = std::move(sources);
    list.targets = std::move(targets);
    return list;
  };
  EXPECT_THROW(build_csr<std::uint32_t>(edges({0, 3}, {1, 1}), {.num_vertices = 3}), std::invalid_argument);
  EXPECT_THROW(build_csr<std::uint32_t>(edges({0, 1}, {1, 3}), {.num_vertices = 3, .threads = 2}), std::invalid_argument);
  EXPECT_THROW(build_csr<std::uint32_t>(edges({0}, {1}), {.num_vertices = 0}), std::invalid_argument);
  EXPECT_THROW(build_csr<std::uint32_t>(edges({0}, {1}), {.num_vertices = -1}), std::invalid_argument);
  EXPECT_THROW(build_csr<std::uint32_t>(edges({0}, {1}), {.num_vertices = (std::int64_t{1} << 32) + 1}),
               std::invalid_argument);
  edge_list short_weights = edges({0, 1}, {1, 0});
  short_weights.weights.pop_back();
  EXPECT_THROW(build_csr<std::uint32_t>(std::move(short_weights), {.num_vertices = 2}), std::invalid_argument);
}

}  // namespace
}  // namespace bkt::sssp
