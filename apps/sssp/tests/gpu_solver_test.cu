// The GPU algorithms against Boost's Dijkstra, exactly: every generated shape, both weight types,
// every algorithm, bucket widths from 1 to wider than any path, and several sources.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"
#include "generate/grid.hpp"
#include "generate/rmat.hpp"
#include "generate/small_graphs.hpp"
#include "gpu/solver.hpp"
#include "io/load_graph.hpp"
#include "reference/dijkstra.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace bkt::sssp {
namespace {

using generate::weight_range;

struct named_graph {
  std::string name;
  csr_graph<std::uint32_t> graph;
};

/// The same graph with float weights that are not whole numbers, so that sums round.
csr_graph<float> with_float_weights(const csr_graph<std::uint32_t>& g) {
  csr_graph<float> f;
  f.offsets = g.offsets;
  f.targets = g.targets;
  f.weights.reserve(g.weights.size());
  for (const std::uint32_t w : g.weights) f.weights.push_back(static_cast<float>(w) * 0.37f + 0.001f);
  return f;
}

/// A graph given as its edge list (u, v, w).
csr_graph<std::uint32_t> from_edges(std::int64_t n, const std::vector<std::array<std::uint32_t, 3>>& edges) {
  csr_graph<std::uint32_t> g;
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& e : edges) ++g.offsets[e[0] + 1];
  for (std::int64_t v = 0; v < n; ++v) g.offsets[v + 1] += g.offsets[v];
  std::vector<std::int64_t> next(g.offsets.begin(), g.offsets.end() - 1);
  g.targets.resize(edges.size());
  g.weights.resize(edges.size());
  for (const auto& e : edges) {
    g.targets[next[e[0]]] = e[1];
    g.weights[next[e[0]]++] = e[2];
  }
  return g;
}

std::vector<named_graph> generated_graphs() {
  // Sanitizer runs (quick mode) are ~100x slower: shorter paths (fewer rounds), small R-MATs that
  // still have hubs past the warp path.
  const bool quick = test::quick_mode();
  std::vector<named_graph> graphs;
  graphs.push_back({"single vertex", from_edges(1, {})});
  graphs.push_back({"no edges", from_edges(40, {})});
  graphs.push_back({"self loops and parallel edges",
                    from_edges(4, {{0, 0, 3}, {0, 1, 5}, {0, 1, 2}, {1, 1, 0}, {1, 2, 7}, {1, 2, 7}, {2, 3, 0}, {3, 0, 1}})});
  graphs.push_back({"zero-weight cycle", from_edges(5, {{0, 1, 4}, {1, 2, 0}, {2, 3, 0}, {3, 1, 0}, {3, 4, 1}})});
  graphs.push_back({"path", generate::path_graph(quick ? 100 : 1000, weight_range{1, 9}, 3, false)});
  graphs.push_back({"undirected path", generate::path_graph(quick ? 77 : 777, weight_range{0, 5}, 4, true)});
  graphs.push_back({"star", generate::star_graph(5000, weight_range{1, 100}, 5, true)});
  graphs.push_back({"disconnected", generate::disjoint_paths_graph(7, 33, weight_range{1, 4}, 6, true)});
  graphs.push_back({"random, zero weights", generate::uniform_random_graph(3000, 20000, weight_range{0, 0}, 7)});
  graphs.push_back({"random, wide weights", generate::uniform_random_graph(3000, 20000, weight_range{0, 4000000000u}, 8)});
  generate::rmat_options rmat;
  rmat.scale = quick ? 8 : 12;
  rmat.undirected = true;
  graphs.push_back({"rmat undirected", generate::rmat_graph(rmat)});
  rmat.scale = quick ? 7 : 11;
  rmat.undirected = false;
  rmat.weights = weight_range{0, 3};
  graphs.push_back({"rmat directed, weights 0..3", generate::rmat_graph(rmat)});
  rmat.scale = quick ? 10 : 14;
  rmat.edge_factor = quick ? 200 : 80;  // hubs past the warp path's degree limit
  rmat.weights = weight_range{1, 255};
  graphs.push_back({"rmat with hubs", generate::rmat_graph(rmat)});
  generate::grid_options grid;
  grid.width = quick ? 21 : 97;
  grid.height = quick ? 13 : 61;
  graphs.push_back({"grid 97 x 61", generate::grid_graph(grid)});
  return graphs;
}

constexpr algorithm gpu_algorithms[] = {algorithm::delta_stepping, algorithm::near_far, algorithm::bellman_ford};

const char* name_of(algorithm a) {
  switch (a) {
    case algorithm::delta_stepping: return "delta";
    case algorithm::near_far: return "near-far";
    case algorithm::bellman_ford: return "bellman-ford";
    default: return "?";
  }
}

/// Runs every GPU algorithm from `sources` with each delta and compares with Dijkstra exactly;
/// delta-stepping both with its persistent rounds and with every round driven by the host (the
/// graphs here are small, so the automatic choice would take the persistent kernel alone).
template <edge_weight Weight>
void expect_matches_dijkstra(const std::string& name, const csr_graph<Weight>& graph,
                             const std::vector<distance_t<Weight>>& deltas) {
  using D = distance_t<Weight>;
  const std::int64_t n = graph.num_vertices();
  bkt::owned_stream stream;
  gpu_solver<Weight> solver(graph, stream, round_mode::persistent);
  gpu_solver<Weight> host_solver(graph, stream, round_mode::host);
  // Sanitizer runs (quick mode) take one source: every kernel still runs, ~100x slower.
  std::vector<vertex> sources = {0, static_cast<vertex>(n - 1), static_cast<vertex>(n / 2)};
  if (test::quick_mode()) sources.resize(1);
  for (const vertex source : sources) {
    const std::vector<D> expected = ref::dijkstra(graph, source);
    auto check = [&](gpu_solver<Weight>& s, algorithm method, D delta, const char* rounds) {
      std::vector<D> got(static_cast<std::size_t>(n));
      std::memset(got.data(), 0x5a, got.size() * sizeof(D));  // poison: every entry must be written
      const gpu_run_stats stats = s.run(source, method, delta, got);
      std::int64_t differences = 0, first = -1;
      for (std::int64_t v = 0; v < n; ++v)
        if (std::memcmp(&got[v], &expected[v], sizeof(D)) != 0 && differences++ == 0) first = v;
      ASSERT_EQ(differences, 0) << name << ", " << name_of(method) << " (" << rounds << " rounds), delta " << delta
                                << ", source " << source << ": first difference at vertex " << first << ": gpu "
                                << got[first] << ", dijkstra " << expected[first];
      EXPECT_GT(stats.rounds, 0);
      EXPECT_GE(stats.frontier_vertices, 1);
    };
    for (const D delta : deltas) {
      for (const algorithm method : gpu_algorithms) check(solver, method, delta, "persistent");
      check(host_solver, algorithm::delta_stepping, delta, "host");
    }
  }
}

TEST(sssp_gpu, integer_weights_match_dijkstra) {
  BKT_REQUIRE_GPU();
  for (const named_graph& g : generated_graphs()) {
    const std::uint64_t chosen = default_delta(g.graph).delta;
    // Sanitizer runs (quick mode) take the default delta alone: the same kernels run.
    if (test::quick_mode()) expect_matches_dijkstra<std::uint32_t>(g.name, g.graph, {chosen});
    else expect_matches_dijkstra<std::uint32_t>(g.name, g.graph, {1, chosen, std::uint64_t{1} << 40});
  }
}

TEST(sssp_gpu, float_weights_match_dijkstra) {
  BKT_REQUIRE_GPU();
  for (const named_graph& g : generated_graphs()) {
    const csr_graph<float> f = with_float_weights(g.graph);
    if (test::quick_mode()) expect_matches_dijkstra<float>(g.name + " (float)", f, {default_delta(f).delta});
    else expect_matches_dijkstra<float>(g.name + " (float)", f, {0.25, default_delta(f).delta, 1e30});
  }
}

TEST(sssp_gpu, real_graphs_match_dijkstra) {
  BKT_REQUIRE_GPU();
  std::vector<const char*> files = {"graphs/rome99.gr", "graphs/facebook_combined.txt", "graphs/luxembourg_osm.mtx"};
  if (test::quick_mode()) files.resize(1);  // sanitizer runs: the road network of Rome alone
  for (const char* file : files) {
    load_options options;
    options.use_cache = false;
    options.undirected = std::string(file).ends_with(".txt");
    const loaded_graph loaded = load_graph(std::string(BKT_DATA_DIR) + "/" + file, options);
    std::visit([&](const auto& graph) { expect_matches_dijkstra(file, graph, {default_delta(graph).delta}); },
               loaded.graph);
  }
}

// More than 2^31 edges, so that edge offsets pass 32 bits: a path of 2048 hops, each hop made of
// 2^20 + 3 parallel edges (hubs: relaxed by whole blocks in the persistent rounds, dealt over the
// whole grid in the host's) whose lightest one is known, so the distances are known without a
// reference run.
TEST(sssp_gpu, more_than_two_to_the_31_edges) {
  BKT_REQUIRE_GPU();
  if (test::quick_mode()) GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  constexpr std::int64_t hops = 2048, parallel = (std::int64_t{1} << 20) + 3;
  constexpr std::int64_t edges = hops * parallel;
  static_assert(edges > (std::int64_t{1} << 31));
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  const std::size_t needed = static_cast<std::size_t>(edges) * 8 + (std::size_t{1} << 30);
  if (free_bytes < needed) GTEST_SKIP() << "needs " << (needed >> 30) << " GiB of device memory, " << (free_bytes >> 30) << " GiB free";
  csr_graph<std::uint32_t> g;
  g.offsets.resize(hops + 2);
  for (std::int64_t u = 0; u <= hops + 1; ++u) g.offsets[u] = std::min(u, hops) * parallel;
  g.targets.resize(edges);
  g.weights.resize(edges);
  std::vector<std::uint64_t> expected(hops + 1, 0);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> fill;
  for (int t = 0; t < threads; ++t)
    fill.emplace_back([&, t] {
      for (std::int64_t u = t; u < hops; u += threads) {
        const std::int64_t lightest = (u * 7919) % parallel;  // where the hop's lightest edge sits
        for (std::int64_t k = 0; k < parallel; ++k) {
          g.targets[u * parallel + k] = static_cast<vertex>(u + 1);
          g.weights[u * parallel + k] =
              k == lightest ? static_cast<std::uint32_t>(1 + u % 5) : 1000u + static_cast<std::uint32_t>(k % 97);
        }
      }
    });
  for (std::thread& t : fill) t.join();
  for (std::int64_t u = 0; u < hops; ++u) expected[u + 1] = expected[u] + 1 + u % 5;
  bkt::owned_stream stream;
  gpu_solver<std::uint32_t> solver(g, stream);
  for (const algorithm method : gpu_algorithms) {
    std::vector<std::uint64_t> got(hops + 1, 0x5a5a5a5a5a5a5a5aull);
    solver.run(0, method, default_delta(g).delta, got);
    EXPECT_EQ(got, expected) << name_of(method);
  }
}

TEST(sssp_gpu, rejects_bad_arguments) {
  BKT_REQUIRE_GPU();
  const csr_graph<std::uint32_t> g = generate::path_graph(10, weight_range{1, 1}, 1, false);
  bkt::owned_stream stream;
  gpu_solver<std::uint32_t> solver(g, stream);
  std::vector<std::uint64_t> distances(10);
  EXPECT_THROW(solver.run(10, algorithm::delta_stepping, 1, distances), bkt::error);
  EXPECT_THROW(solver.run(0, algorithm::delta_stepping, 0, distances), bkt::error);
  std::vector<std::uint64_t> short_output(9);
  EXPECT_THROW(solver.run(0, algorithm::bellman_ford, 1, short_output), bkt::error);
}

}  // namespace
}  // namespace bkt::sssp
