// Turning parsed edges into compressed sparse rows, in parallel, keeping each row in file order.
#pragma once

#include <cstdint>

#include "graph.hpp"
#include "io/parsed_edges.hpp"

namespace bkt::sssp::detail {

/// How the builder treats the parsed edges.
struct build_settings {
  bool add_reverse = false;  // every edge u -> v (u != v) also gives v -> u with the same weight;
                             // a self-loop stays one edge (it is its own reverse)
  bool random = false;       // weights from random_weight(seed, input index, lo, hi), not the file
  std::uint32_t lo = 1;
  std::uint32_t hi = 1;
  std::uint64_t seed = 0;
  int threads = 1;
};

/// The CSR of `edges`: uint32 weights for integer, unit and random weights, float for real ones.
/// Row u lists its edges in the order of the input edges they come from (a reverse edge sits
/// where its input edge does). The chunks' arrays are released at the end.
any_graph build_csr(parsed_edges& edges, const build_settings& settings);

}  // namespace bkt::sssp::detail
