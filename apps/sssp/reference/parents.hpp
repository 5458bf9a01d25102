// A shortest-path tree recovered from distances alone, so that any solver's output (GPU or CPU)
// gets parents the same way.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph.hpp"

namespace bkt::sssp::ref {

/// The parent of each vertex in a shortest-path tree: a breadth-first search from `source` over
/// tight edges (dist[u] + w == dist[v], added as the distances were), where the first discovery
/// sets the parent. -1 for the source and for vertices whose distance is unreachable<>(), and for
/// any vertex no chain of tight edges reaches (only when `distances` are wrong). The result is
/// always a tree, even with zero-weight cycles. Instantiated for Distance = distance_t<Weight>.
template <class Distance, edge_weight Weight>
std::vector<std::int64_t> parents_from_distances(const csr_graph<Weight>& graph, std::span<const Distance> distances,
                                                 vertex source);

}  // namespace bkt::sssp::ref
