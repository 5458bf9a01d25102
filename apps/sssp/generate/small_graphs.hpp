// Small graphs of known shape for tests and examples: a path, a star, disjoint paths, and edges
// with uniformly random endpoints.
#pragma once

#include <cstdint>

#include "generate/weight_range.hpp"
#include "graph.hpp"

namespace bkt::sssp::generate {

/// Edges i -> i + 1 for i < num_vertices - 1 (undirected: also i + 1 -> i, same weight).
csr_graph<std::uint32_t> path_graph(std::int64_t num_vertices, weight_range weights, std::uint64_t seed,
                                    bool undirected);

/// Edges 0 -> i for 0 < i < num_vertices (undirected: also i -> 0, same weight).
csr_graph<std::uint32_t> star_graph(std::int64_t num_vertices, weight_range weights, std::uint64_t seed,
                                    bool undirected);

/// `num_pieces` paths of `piece_vertices` vertices each, piece p holding vertices
/// [p * piece_vertices, (p + 1) * piece_vertices): nothing in one piece reaches another.
csr_graph<std::uint32_t> disjoint_paths_graph(std::int64_t num_pieces, std::int64_t piece_vertices,
                                              weight_range weights, std::uint64_t seed, bool undirected);

/// `num_edges` directed edges with both endpoints uniform over the vertices (self loops and
/// repeats kept); num_vertices must be positive when num_edges is.
csr_graph<std::uint32_t> uniform_random_graph(std::int64_t num_vertices, std::int64_t num_edges, weight_range weights,
                                              std::uint64_t seed);

}  // namespace bkt::sssp::generate
