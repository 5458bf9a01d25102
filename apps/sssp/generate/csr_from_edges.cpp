// A stable counting sort by source in two passes, both parallel: first by the high bits of the
// source into a few thousand buckets (per-chunk histograms, so each chunk writes its own slots in
// order), then each bucket on its own by the low bits, straight into the CSR arrays. One pass
// over all vertices would need a histogram per thread as large as the graph's vertex count.
#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <stdexcept>
#include <string>

#include "generate/edge_list.hpp"
#include "generate/parallel_for.hpp"

namespace bkt::sssp::generate {
namespace {

constexpr std::int64_t chunk_edges = std::int64_t{1} << 20;  // edges per histogram of the first pass
constexpr int bucket_bits = 12;                              // up to 4096 buckets

/// The edges after the first pass, in arrays left uninitialized until written.
struct bucketed_edges {
  explicit bucketed_edges(std::int64_t num_edges)
      : sources(new vertex[static_cast<std::size_t>(num_edges)]),
        targets(new vertex[static_cast<std::size_t>(num_edges)]),
        weights(new std::uint32_t[static_cast<std::size_t>(num_edges)]) {}
  std::unique_ptr<vertex[]> sources;
  std::unique_ptr<vertex[]> targets;
  std::unique_ptr<std::uint32_t[]> weights;
};

void check_endpoints(std::int64_t num_vertices, const edge_list& edges, int threads) {
  if (edges.targets.size() != edges.sources.size() || edges.weights.size() != edges.sources.size())
    throw std::invalid_argument("csr_from_edges: sources, targets and weights differ in size");
  const auto num_edges = static_cast<std::int64_t>(edges.sources.size());
  std::atomic<bool> bad{false};
  parallel_for(num_edges, chunk_edges, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t e = begin; e < end; ++e)
      if (edges.sources[e] >= num_vertices || edges.targets[e] >= num_vertices) bad = true;
  });
  if (bad) throw std::invalid_argument("csr_from_edges: an edge endpoint is not below " + std::to_string(num_vertices));
}

}  // namespace

csr_graph<std::uint32_t> csr_from_edges(std::int64_t num_vertices, edge_list&& edges, int threads) {
  if (num_vertices < 0 || num_vertices > (std::int64_t{1} << 32))
    throw std::invalid_argument("csr_from_edges: vertex count out of range");
  check_endpoints(num_vertices, edges, threads);
  const auto num_edges = static_cast<std::int64_t>(edges.sources.size());
  csr_graph<std::uint32_t> graph;
  graph.offsets.assign(static_cast<std::size_t>(num_vertices) + 1, 0);
  if (num_vertices == 0) return graph;

  // Pass 1: bucket = source >> shift, stably, into `sorted`.
  const int vertex_bits = std::bit_width(static_cast<std::uint64_t>(num_vertices - 1));
  const int shift = std::max(0, vertex_bits - bucket_bits);
  const std::int64_t num_buckets = ((num_vertices - 1) >> shift) + 1;
  const std::int64_t num_chunks = (num_edges + chunk_edges - 1) / chunk_edges;
  // cursor[chunk * num_buckets + bucket]: counts, then where that chunk writes that bucket next.
  std::vector<std::int64_t> cursor(static_cast<std::size_t>(num_chunks * num_buckets), 0);
  parallel_for(num_edges, chunk_edges, threads, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t* counts = &cursor[(begin / chunk_edges) * num_buckets];
    for (std::int64_t e = begin; e < end; ++e) ++counts[edges.sources[e] >> shift];
  });
  std::vector<std::int64_t> bucket_begin(static_cast<std::size_t>(num_buckets) + 1, 0);
  std::int64_t running = 0;
  for (std::int64_t bucket = 0; bucket < num_buckets; ++bucket) {
    bucket_begin[bucket] = running;
    for (std::int64_t chunk = 0; chunk < num_chunks; ++chunk) {
      const std::int64_t count = cursor[chunk * num_buckets + bucket];
      cursor[chunk * num_buckets + bucket] = running;
      running += count;
    }
  }
  bucket_begin[num_buckets] = running;
  // Left uninitialized: the scatter below writes every slot, and its threads, not a memset here,
  // take the first-touch page faults of these gigabytes.
  const bucketed_edges sorted(num_edges);
  parallel_for(num_edges, chunk_edges, threads, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t* next = &cursor[(begin / chunk_edges) * num_buckets];
    for (std::int64_t e = begin; e < end; ++e) {
      const std::int64_t slot = next[edges.sources[e] >> shift]++;
      sorted.sources[slot] = edges.sources[e];
      sorted.targets[slot] = edges.targets[e];
      sorted.weights[slot] = edges.weights[e];
    }
  });
  cursor = {};

  // Pass 2: within each bucket, by source, into the CSR arrays (the input's storage, now free).
  graph.targets = std::move(edges.targets);
  graph.weights = std::move(edges.weights);
  edges.sources = {};
  parallel_for(num_buckets, 1, threads, [&](std::int64_t bucket, std::int64_t) {
    const std::int64_t first_vertex = bucket << shift;
    const std::int64_t end_vertex = std::min(num_vertices, (bucket + 1) << shift);
    const std::int64_t begin = bucket_begin[bucket], end = bucket_begin[bucket + 1];
    std::vector<std::int64_t> next(static_cast<std::size_t>(end_vertex - first_vertex) + 1, 0);
    for (std::int64_t e = begin; e < end; ++e) ++next[sorted.sources[e] - first_vertex + 1];
    next[0] = begin;
    for (std::size_t v = 1; v < next.size(); ++v) next[v] += next[v - 1];
    for (std::int64_t v = first_vertex; v < end_vertex; ++v) graph.offsets[v + 1] = next[v - first_vertex + 1];
    for (std::int64_t e = begin; e < end; ++e) {
      const std::int64_t slot = next[sorted.sources[e] - first_vertex]++;
      graph.targets[slot] = sorted.targets[e];
      graph.weights[slot] = sorted.weights[e];
    }
  });
  return graph;
}

}  // namespace bkt::sssp::generate
