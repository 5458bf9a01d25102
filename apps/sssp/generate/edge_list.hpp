// Edges in generation order, and the counting sort that turns them into a CSR graph.
#pragma once

#include <cstdint>
#include <vector>

#include "graph.hpp"

namespace bkt::sssp::generate {

/// Edge i goes from sources[i] to targets[i] with weights[i]; the three have the same size.
struct edge_list {
  std::vector<vertex> sources;
  std::vector<vertex> targets;
  std::vector<std::uint32_t> weights;

  void resize(std::size_t num_edges) {
    sources.resize(num_edges);
    targets.resize(num_edges);
    weights.resize(num_edges);
  }
};

/// The CSR graph of `edges` over `num_vertices` vertices, each vertex's edges in generation order
/// (a stable counting sort by source). Consumes `edges` to reuse its memory; the result does not
/// depend on `threads` (0: all hardware threads). Throws std::invalid_argument when an endpoint is
/// not below num_vertices.
csr_graph<std::uint32_t> csr_from_edges(std::int64_t num_vertices, edge_list&& edges, int threads);

}  // namespace bkt::sssp::generate
