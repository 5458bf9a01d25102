// Our csr_graph seen through Boost.Graph's eyes, without copying it: the few types and free
// functions that Boost's Dijkstra needs (a vertex list and, per vertex, its out-edges), and a
// property map that reads an edge's weight by its position in the CSR arrays.
#pragma once

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>
#include <cstdint>
#include <utility>

#include "graph.hpp"

namespace bkt::sssp::ref::boost_view {

/// An edge: the vertex it leaves and its position in targets/weights.
struct csr_edge {
  vertex source = 0;
  std::int64_t index = 0;
  friend bool operator==(const csr_edge&, const csr_edge&) = default;
};

/// Walks the edges of one vertex by position; dereferencing makes the csr_edge.
class out_edge_iterator
    : public boost::iterator_facade<out_edge_iterator, csr_edge, boost::random_access_traversal_tag, csr_edge> {
 public:
  out_edge_iterator() = default;
  out_edge_iterator(vertex source, std::int64_t index) : edge_{source, index} {}

 private:
  friend class boost::iterator_core_access;
  csr_edge dereference() const { return edge_; }
  bool equal(const out_edge_iterator& other) const { return edge_.index == other.edge_.index; }
  void increment() { ++edge_.index; }
  void decrement() { --edge_.index; }
  void advance(std::ptrdiff_t n) { edge_.index += n; }
  std::ptrdiff_t distance_to(const out_edge_iterator& other) const { return other.edge_.index - edge_.index; }

  csr_edge edge_;
};

/// A directed incidence and vertex-list graph over a csr_graph the caller keeps alive.
template <edge_weight Weight>
struct csr_view {
  const csr_graph<Weight>* graph = nullptr;

  // What boost::graph_traits reads from a graph type.
  using vertex_descriptor = vertex;
  using edge_descriptor = csr_edge;
  using out_edge_iterator = boost_view::out_edge_iterator;
  using vertex_iterator = boost::counting_iterator<vertex>;
  using directed_category = boost::directed_tag;
  using edge_parallel_category = boost::allow_parallel_edge_tag;
  struct traversal_category : boost::incidence_graph_tag, boost::vertex_list_graph_tag {};
  using vertices_size_type = std::uint64_t;
  using edges_size_type = std::uint64_t;
  using degree_size_type = std::uint64_t;
  static vertex null_vertex() { return ~vertex{0}; }
};

// The free functions Boost finds by argument-dependent lookup.
template <edge_weight Weight>
std::pair<boost::counting_iterator<vertex>, boost::counting_iterator<vertex>> vertices(const csr_view<Weight>& g) {
  return {boost::counting_iterator<vertex>(0),
          boost::counting_iterator<vertex>(static_cast<vertex>(g.graph->num_vertices()))};
}
template <edge_weight Weight>
std::uint64_t num_vertices(const csr_view<Weight>& g) {
  return static_cast<std::uint64_t>(g.graph->num_vertices());
}
template <edge_weight Weight>
std::pair<out_edge_iterator, out_edge_iterator> out_edges(vertex u, const csr_view<Weight>& g) {
  return {out_edge_iterator(u, g.graph->offsets[u]), out_edge_iterator(u, g.graph->offsets[u + 1])};
}
template <edge_weight Weight>
std::uint64_t out_degree(vertex u, const csr_view<Weight>& g) {
  return static_cast<std::uint64_t>(g.graph->offsets[u + 1] - g.graph->offsets[u]);
}
template <edge_weight Weight>
vertex source(const csr_edge& e, const csr_view<Weight>&) {
  return e.source;
}
template <edge_weight Weight>
vertex target(const csr_edge& e, const csr_view<Weight>& g) {
  return g.graph->targets[static_cast<std::size_t>(e.index)];
}

/// A readable property map: an edge's weight, read from the CSR by the edge's position.
template <edge_weight Weight>
struct weight_map {
  using key_type = csr_edge;
  using value_type = Weight;
  using reference = Weight;
  using category = boost::readable_property_map_tag;
  const Weight* weights = nullptr;
};
template <edge_weight Weight>
Weight get(const weight_map<Weight>& map, const csr_edge& e) {
  return map.weights[e.index];
}

}  // namespace bkt::sssp::ref::boost_view
