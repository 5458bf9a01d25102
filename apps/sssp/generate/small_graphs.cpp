// Each small graph lists its links in order and hands them to build_csr; link i draws its
// weight from counter i, so both directions of an undirected link agree.
#include "generate/small_graphs.hpp"

#include <stdexcept>
#include <string>

#include "build_csr.hpp"
#include "generate/counter_random.hpp"

namespace bkt::sssp::generate {
namespace {

constexpr int single_thread = 1;  // these graphs are small

/// Collects links (one or both directions) with their weights.
class link_list {
 public:
  link_list(weight_range weights, std::uint64_t seed, std::uint64_t stream, bool undirected)
      : weights_(weights), key_(stream_key(seed, stream)), undirected_(undirected) {
    check_weight_range(weights);
  }
  void add(std::int64_t from, std::int64_t to) {
    const auto bits = static_cast<std::uint32_t>(random_bits(key_, links_++));
    const std::uint32_t weight = uniform_in(bits, weights_.lo, weights_.hi);
    push(from, to, weight);
    if (undirected_) push(to, from, weight);
  }
  csr_graph<std::uint32_t> build(std::int64_t num_vertices) {
    return build_csr<std::uint32_t>(std::move(edges_), {.num_vertices = num_vertices, .threads = single_thread});
  }

 private:
  void push(std::int64_t from, std::int64_t to, std::uint32_t weight) {
    edges_.sources.push_back(static_cast<vertex>(from));
    edges_.targets.push_back(static_cast<vertex>(to));
    edges_.weights.push_back(weight);
  }
  weight_range weights_;
  std::uint64_t key_;
  bool undirected_;
  std::uint64_t links_ = 0;
  edge_list edges_;
};

void check_count(std::int64_t count, const char* what) {
  if (count < 0 || count > (std::int64_t{1} << 32)) throw std::invalid_argument(std::string(what) + " out of range");
}

}  // namespace

csr_graph<std::uint32_t> path_graph(std::int64_t num_vertices, weight_range weights, std::uint64_t seed,
                                    bool undirected) {
  check_count(num_vertices, "path_graph: vertex count");
  link_list links(weights, seed, 4, undirected);
  for (std::int64_t v = 0; v + 1 < num_vertices; ++v) links.add(v, v + 1);
  return links.build(num_vertices);
}

csr_graph<std::uint32_t> star_graph(std::int64_t num_vertices, weight_range weights, std::uint64_t seed,
                                    bool undirected) {
  check_count(num_vertices, "star_graph: vertex count");
  link_list links(weights, seed, 5, undirected);
  for (std::int64_t v = 1; v < num_vertices; ++v) links.add(0, v);
  return links.build(num_vertices);
}

csr_graph<std::uint32_t> disjoint_paths_graph(std::int64_t num_pieces, std::int64_t piece_vertices,
                                              weight_range weights, std::uint64_t seed, bool undirected) {
  check_count(num_pieces, "disjoint_paths_graph: piece count");
  check_count(piece_vertices, "disjoint_paths_graph: piece size");
  if (piece_vertices > 0 && num_pieces > (std::int64_t{1} << 32) / piece_vertices)
    throw std::invalid_argument("disjoint_paths_graph: over 2^32 vertices");
  link_list links(weights, seed, 6, undirected);
  for (std::int64_t piece = 0; piece < num_pieces; ++piece)
    for (std::int64_t i = 0; i + 1 < piece_vertices; ++i)
      links.add(piece * piece_vertices + i, piece * piece_vertices + i + 1);
  return links.build(num_pieces * piece_vertices);
}

csr_graph<std::uint32_t> uniform_random_graph(std::int64_t num_vertices, std::int64_t num_edges, weight_range weights,
                                              std::uint64_t seed) {
  check_count(num_vertices, "uniform_random_graph: vertex count");
  if (num_edges < 0 || (num_edges > 0 && num_vertices == 0))
    throw std::invalid_argument("uniform_random_graph: edges need vertices");
  link_list links(weights, seed, 7, false);
  const std::uint64_t key = stream_key(seed, 8);
  const auto n = static_cast<std::uint64_t>(num_vertices);
  for (std::int64_t e = 0; e < num_edges; ++e) {
    const std::uint64_t bits = random_bits(key, static_cast<std::uint64_t>(e));
    // Multiply-shift maps 32 random bits onto [0, n) for each endpoint.
    links.add(static_cast<std::int64_t>(((bits & 0xffffffffu) * n) >> 32),
              static_cast<std::int64_t>(((bits >> 32) * n) >> 32));
  }
  return links.build(num_vertices);
}

}  // namespace bkt::sssp::generate
