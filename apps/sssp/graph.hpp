// The graph every part of bkt-sssp shares: compressed sparse rows with 64-bit edge offsets, 32-bit
// vertex ids and non-negative weights, either 32-bit integers or floats.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

namespace bkt::sssp {

using vertex = std::uint32_t;

/// Edge weights: unsigned 32-bit integers or non-negative floats.
template <class Weight>
concept edge_weight = std::is_same_v<Weight, std::uint32_t> || std::is_same_v<Weight, float>;

/// Distances are 64-bit: integers for integer weights (sums never overflow below 2^32 edges on a
/// path), doubles for float weights (each edge's float weight added in double).
template <edge_weight Weight>
using distance_t = std::conditional_t<std::is_same_v<Weight, float>, double, std::uint64_t>;

/// The distance of a vertex the source does not reach.
template <class Distance>
constexpr Distance unreachable() {
  if constexpr (std::is_floating_point_v<Distance>) return std::numeric_limits<Distance>::infinity();
  else return std::numeric_limits<Distance>::max();
}

/// Directed graph in compressed sparse rows: the edges leaving u are targets[offsets[u] ..
/// offsets[u + 1]) with the same range of weights. An undirected graph holds both directions.
template <edge_weight Weight>
struct csr_graph {
  std::vector<std::int64_t> offsets{0};  // num_vertices + 1 entries, offsets[0] = 0
  std::vector<vertex> targets;
  std::vector<Weight> weights;

  std::int64_t num_vertices() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
  std::int64_t num_edges() const { return static_cast<std::int64_t>(targets.size()); }
};

using any_graph = std::variant<csr_graph<std::uint32_t>, csr_graph<float>>;

}  // namespace bkt::sssp
