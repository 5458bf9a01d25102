// R-MAT / Kronecker graphs with the Graph500 parameters: skewed degrees, small diameter.
#pragma once

#include <cstdint>

#include "generate/weight_range.hpp"
#include "graph.hpp"

namespace bkt::sssp::generate {

struct rmat_options {
  int scale = 10;                 // 2^scale vertices, 0 to 31
  std::int64_t edge_factor = 16;  // edge_factor * 2^scale edges generated
  weight_range weights{1, 255};   // the GAP benchmark suite's SSSP weights
  bool undirected = false;        // each edge also reversed, with the same weight
  std::uint64_t seed = 1;
  int threads = 0;  // 0: all hardware threads; the graph does not depend on it
};

/// An R-MAT graph (Chakrabarti, Zhan, Faloutsos: "R-MAT: A Recursive Model for Graph Mining",
/// SDM 2004) with the Graph500 quadrant probabilities a = 0.57, b = 0.19, c = 0.19, d = 0.05 and
/// no noise; vertex ids scrambled by a seeded bijection, as the Graph500 reference does, so that
/// degree does not follow the id. Self loops and repeated edges are kept (undirected: a self loop
/// appears twice). Deterministic in the options. Throws std::invalid_argument on bad options.
csr_graph<std::uint32_t> rmat_graph(const rmat_options& options);

}  // namespace bkt::sssp::generate
