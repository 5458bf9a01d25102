// Comparing two distance arrays for --verify and the tests.
#pragma once

#include <optional>
#include <span>
#include <stdexcept>

#include "graph.hpp"

namespace bkt::sssp::ref {

/// The first vertex whose distances differ, nullopt when all agree; the arrays must be the same
/// size. The comparison is exact, for doubles too: a distance is the minimum over paths of the
/// weights widened to double and added in path order, and rounding to nearest is monotone, so every
/// correct solver (Dijkstra, delta-stepping, Bellman-Ford, in any relaxation order) reaches that
/// same minimum bit for bit. No tolerance is needed, and none would hide a wrong relaxation.
template <class Distance>
std::optional<vertex> first_difference(std::span<const Distance> a, std::span<const Distance> b) {
  if (a.size() != b.size()) throw std::invalid_argument("first_difference: arrays of different sizes");
  for (std::size_t v = 0; v < a.size(); ++v)
    if (!(a[v] == b[v])) return static_cast<vertex>(v);
  return std::nullopt;
}

}  // namespace bkt::sssp::ref
