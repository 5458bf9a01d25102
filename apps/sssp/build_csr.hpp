// Compressed sparse rows from edges in input order: the one CSR builder of the loader (rows in
// file order) and of the generators (rows in generation order).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "graph.hpp"

namespace bkt::sssp {

/// Edges in input order: edge i goes from sources[i] to targets[i] with weights[i] (a uint32
/// weight or a float weight's bits). weights is empty when the build does not read it.
struct edge_list {
  std::vector<vertex> sources;
  std::vector<vertex> targets;
  std::vector<std::uint32_t> weights;

  std::int64_t num_edges() const { return static_cast<std::int64_t>(sources.size()); }
  void resize(std::size_t num_edges) {
    sources.resize(num_edges);
    targets.resize(num_edges);
    weights.resize(num_edges);
  }
};

/// Where the CSR's weights come from.
enum class csr_weights {
  stored,  // edge_list::weights, std::bit_cast to the graph's weight type
  unit,    // every weight 1 (edge_list::weights is not read)
  random,  // random_weight(seed, input index, lo, hi) of io/random_weight.hpp (not read either)
};

/// How build_csr treats its input.
struct csr_options {
  std::int64_t num_vertices = 0;  // every endpoint is below it; at most 2^32
  bool add_reverse = false;       // every edge u -> v (u != v) also gives v -> u with the same weight;
                                  // a self-loop stays one edge (it is its own reverse)
  csr_weights weights = csr_weights::stored;
  std::uint32_t lo = 1;  // random weights: uniform in [lo, hi] by input index
  std::uint32_t hi = 1;
  std::uint64_t seed = 0;
  int threads = 0;  // 0: all hardware threads
};

/// The CSR of the edges of `runs` taken as one list (run 0's edges, then run 1's, ...): row u
/// lists its edges in input order (a reverse edge sits where its input edge does), the same for
/// any thread count. Consumes `runs`; at the peak it holds them and 12 bytes per output edge.
/// Throws std::invalid_argument when an endpoint is not below num_vertices, num_vertices is out
/// of range, or a run's targets (or, for stored weights, weights) differ in size from its sources.
template <edge_weight Weight>
csr_graph<Weight> build_csr(std::vector<edge_list>&& runs, const csr_options& options);

/// build_csr of one run (the generators' case).
template <edge_weight Weight>
csr_graph<Weight> build_csr(edge_list&& edges, const csr_options& options) {
  std::vector<edge_list> runs;
  runs.push_back(std::move(edges));
  return build_csr<Weight>(std::move(runs), options);
}

}  // namespace bkt::sssp
