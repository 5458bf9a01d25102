// The source vertices of bkt-sssp runs: one the user names, a DIMACS .ss file, or random ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph.hpp"

namespace bkt::sssp {

/// A vertex as the user numbers it (index_base 0 or 1) -> internal 0-based id; throws usage error (exit 2) out of range.
vertex source_from_user(std::int64_t id, int index_base, std::int64_t num_vertices);

/// DIMACS .ss file: `c` comments, `p aux sp ss K`, then K lines `s V` (1-based); errors name file:line.
std::vector<vertex> read_dimacs_sources(const std::string& path, std::int64_t num_vertices);

/// `count` distinct sources drawn with std::mt19937_64(seed) among vertices with at least one
/// outgoing edge (as the GAP suite does); fewer if fewer exist. The draw is a partial
/// Fisher-Yates shuffle of those vertices (ascending), so it is the same on every run and thread count.
template <edge_weight W>
std::vector<vertex> random_sources(const csr_graph<W>& g, std::int64_t count, std::uint64_t seed);

}  // namespace bkt::sssp
