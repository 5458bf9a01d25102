// The CPU reference for shortest paths: Boost.Graph's Dijkstra over our CSR. It is what the tests
// compare the GPU against, what --verify checks with, and bkt-sssp's CPU path.
#pragma once

#include <vector>

#include "graph.hpp"

namespace bkt::sssp::ref {

/// Distances from `source` to every vertex, unreachable<>() where there is no path. Integer
/// weights are summed in uint64, float weights in double (each weight converted, then added in
/// the path's order), so the result is exact for the GPU to match bit for bit. Weights must not be
/// negative (Boost throws boost::negative_edge); `source` must be a vertex of `graph`.
template <edge_weight Weight>
std::vector<distance_t<Weight>> dijkstra(const csr_graph<Weight>& graph, vertex source);

}  // namespace bkt::sssp::ref
