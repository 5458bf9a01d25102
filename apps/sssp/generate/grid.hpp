// Two-dimensional grids: a stand-in for road networks (degree at most 4, diameter width + height).
#pragma once

#include <cstdint>

#include "generate/weight_range.hpp"
#include "graph.hpp"

namespace bkt::sssp::generate {

struct grid_options {
  std::int64_t width = 16;   // vertices per row
  std::int64_t height = 16;  // rows
  weight_range weights{1, 255};
  std::uint64_t seed = 1;
  int threads = 0;  // 0: all hardware threads; the graph does not depend on it
};

/// The width x height grid: vertex y * width + x has edges to its up, left, right and down
/// neighbours (in that order, so targets ascend), both directions of each link with the same
/// weight, uniform in the range. Deterministic in the options; at most 2^32 vertices. Throws
/// std::invalid_argument on bad options.
csr_graph<std::uint32_t> grid_graph(const grid_options& options);

}  // namespace bkt::sssp::generate
