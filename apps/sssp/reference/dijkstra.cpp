// Boost's Dijkstra without a colour map (4-ary heap) on a view of the CSR: no copy of the graph.
#include "reference/dijkstra.hpp"

#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <functional>
#include <stdexcept>
#include <string>

#include "reference/boost_csr_view.hpp"

namespace bkt::sssp::ref {

template <edge_weight Weight>
std::vector<distance_t<Weight>> dijkstra(const csr_graph<Weight>& graph, vertex source) {
  using distance = distance_t<Weight>;
  if (source >= graph.num_vertices())
    throw std::out_of_range("dijkstra: source " + std::to_string(source) + " is not one of the " +
                            std::to_string(graph.num_vertices()) + " vertices");
  std::vector<distance> distances(static_cast<std::size_t>(graph.num_vertices()), unreachable<distance>());
  const boost_view::csr_view<Weight> view{&graph};
  const boost::typed_identity_property_map<vertex> index_map;
  // closed_plus keeps unreachable<>() absorbing: an unsigned sum must never wrap past the maximum.
  boost::dijkstra_shortest_paths_no_color_map(
      view, source, boost::dummy_property_map(), boost::make_iterator_property_map(distances.data(), index_map),
      boost_view::weight_map<Weight>{graph.weights.data()}, index_map, std::less<distance>(),
      boost::closed_plus<distance>(unreachable<distance>()), unreachable<distance>(), distance{0},
      boost::default_dijkstra_visitor());
  return distances;
}

template std::vector<distance_t<std::uint32_t>> dijkstra(const csr_graph<std::uint32_t>&, vertex);
template std::vector<distance_t<float>> dijkstra(const csr_graph<float>&, vertex);

}  // namespace bkt::sssp::ref
