// Breadth-first over tight edges: each vertex is discovered once, so parents cannot form a cycle,
// which following "some tight in-edge" per vertex could do around a zero-weight cycle.
#include "reference/parents.hpp"

#include <stdexcept>

namespace bkt::sssp::ref {

template <class Distance, edge_weight Weight>
std::vector<std::int64_t> parents_from_distances(const csr_graph<Weight>& graph, std::span<const Distance> distances,
                                                 vertex source) {
  const auto num_vertices = static_cast<std::size_t>(graph.num_vertices());
  if (distances.size() != num_vertices)
    throw std::invalid_argument("parents_from_distances: one distance per vertex needed");
  if (source >= num_vertices) throw std::out_of_range("parents_from_distances: source is not a vertex");
  std::vector<std::int64_t> parents(num_vertices, -1);
  if (distances[source] == unreachable<Distance>()) return parents;
  std::vector<bool> discovered(num_vertices, false);
  std::vector<vertex> queue{source};  // the BFS queue: vertices in discovery order
  discovered[source] = true;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex u = queue[head];
    const Distance du = distances[u];
    for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const vertex v = graph.targets[e];
      if (discovered[v] || distances[v] == unreachable<Distance>()) continue;
      // The same addition the solvers make: the weight widened to Distance, then added.
      if (du + static_cast<Distance>(graph.weights[e]) != distances[v]) continue;
      discovered[v] = true;
      parents[v] = u;
      queue.push_back(v);
    }
  }
  return parents;
}

template std::vector<std::int64_t> parents_from_distances(const csr_graph<std::uint32_t>&,
                                                          std::span<const distance_t<std::uint32_t>>, vertex);
template std::vector<std::int64_t> parents_from_distances(const csr_graph<float>&, std::span<const distance_t<float>>,
                                                          vertex);

}  // namespace bkt::sssp::ref
